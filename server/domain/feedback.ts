/**
 * Feedback (spec 001 §2.8, spec 002 §2 item 10, §4, §5): one entity serves the tenant list (sign-off) and the
 * administration list (filters phone, type, content; reply). Statuses 0 unconfirmed, 1 confirmed,
 * 9 corrected. A reply is stored with its time and author, confirms an unconfirmed row and reaches the
 * author in the message centre.
 */
import { S, answers, takes } from '../http/catalog';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { Refusal } from '../http/envelope';
import { present } from '../crud/engine';
import type { CallContext, Services } from '../crud/types';
import { random } from '../db/demo/random';
import { sendMessage } from './messageCentre';
import { signOne, signOneBody } from './signOff';
import { FEEDBACK_SIGN_MESSAGES } from '../../adapters/signOff';

type Row = Record<string, unknown>;

export const FEEDBACK_MESSAGES = { answerRequired: '答复内容不能为空', missing: '反馈不存在', idRequired: FEEDBACK_SIGN_MESSAGES.feedbackIdRequired, alreadySigned: FEEDBACK_SIGN_MESSAGES.feedbackSigned };

/** The submitter's name, as both flavours show it (tSysUser.chineseName, fChineseName), and the signer's. */
export async function afterRead(rows: Row[], ctx: Services) {
  const ids = [...new Set(rows.flatMap((r) => [r.fUserId, r.fHandleUserId]).filter((v) => v !== null && v !== undefined))] as number[];
  const users = ids.length ? await ctx.db.selectFrom('t_sys_user').select(['fId', 'fChineseName']).where('fId', 'in', ids).execute() : [];
  for (const r of rows) {
    const u = users.find((x) => x.fId === r.fUserId);
    r.userName = u?.fChineseName ?? null;
    r.fChineseName = r.userName;
    r.tSysUser = u ? { chineseName: u.fChineseName } : null;
    r.fHandleUserName = users.find((x) => x.fId === r.fHandleUserId)?.fChineseName ?? null;
    // The administration flavour's names for the same columns.
    r.fContent = r.fFeedbackContent;
    r.fImages = r.fPhotos;
    r.fAnswerContent = r.fAnswer;
  }
}

/** /biz/t-feedback/sign {fId, fHandleContent}: signed (1) with the note, by the caller, now; once only. */
export const sign = (ctx: CallContext) => signOne(ctx, 'feedback', FEEDBACK_MESSAGES);

/** /biz/t-feedback/answer: fId and fAnswerContent (or fAnswer). */
export async function answer(ctx: CallContext) {
  const id = Number(ctx.body.fId);
  const text = String(ctx.body.fAnswerContent ?? ctx.body.fAnswer ?? '').trim();
  if (!text) throw new Refusal(FEEDBACK_MESSAGES.answerRequired);
  if (text.length > 1000) throw new Refusal('答复内容长度超出限制');
  const row = Number.isInteger(id) && id > 0 ? await ctx.db.selectFrom('t_feedback').selectAll().where('fId', '=', id).executeTakeFirst() : undefined;
  if (!row) throw new Refusal(FEEDBACK_MESSAGES.missing);
  const updated = await ctx.db
    .updateTable('t_feedback')
    .set({ fAnswer: text, fAnswerTime: new Date(), fAnswerUserId: ctx.user.fId, fStatus: Number(row.fStatus) === 0 ? 1 : row.fStatus } as never)
    .where('fId', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const content = String(row.fFeedbackContent ?? '');
  await sendMessage(ctx.db, {
    userIds: [row.fUserId as number | null],
    kind: 'feedback',
    params: { time: row.fIntime as Date, feedback: content.length > 40 ? `${content.slice(0, 40)}…` : content, answer: text },
  });
  return (await present(ctx, ctx.entity, [updated]))[0];
}

/** A small solid-colour PNG, so the demo photos need no binary files in the repository. */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const line = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, (_, y) => (y % 16 < 2 ? Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 255)]) : line)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const DEMO_COLOURS: [number, number, number][] = [
  [66, 133, 244],
  [52, 168, 83],
  [251, 188, 5],
  [234, 67, 53],
  [103, 58, 183],
];
export const DEMO_PHOTOS = DEMO_COLOURS.map((_, i) => `feedback-demo-${i + 1}.png`);

/** The demo rows' photos live where uploaded pictures do, served by the existing image path. */
export function ensureDemoPhotos(dataDir: string) {
  const dir = join(dataDir, 'uploads');
  mkdirSync(dir, { recursive: true });
  DEMO_PHOTOS.forEach((name, i) => {
    const path = join(dir, name);
    if (!existsSync(path)) writeFileSync(path, solidPng(320, 240, DEMO_COLOURS[i]));
  });
}

const CONTENTS = [
  '门锁有时候刷卡没有反应，需要刷好几次',
  'APP登录后经常闪退，希望尽快修复',
  '房东不处理漏水问题，投诉一下',
  '希望增加夜间访客登记功能',
  '智能电表读数与实际不符',
  '社区民警联系电话在APP里找不到',
  '开锁记录显示的时间不对',
  '租约到期提醒能不能提前一周',
  '门禁人脸识别在晚上识别率低',
  '客服电话一直打不通',
  '建议增加水电费在线缴纳',
  '楼道灯坏了很久没人修',
];

/** A dozen feedback rows from demo people, some with photos, some answered. */
export async function seedFeedback(db: Services['db']) {
  const rnd = random(20261123);
  const people = await db.selectFrom('t_sys_user').select(['fId', 'fPhone']).where('fUserType', '=', 2).orderBy('fId').limit(40).execute();
  if (!people.length) return;
  const admin = await db.selectFrom('t_sys_user').select('fId').where('fAdmin', '=', 1).orderBy('fId').executeTakeFirst();
  const now = Date.now();
  const rows = CONTENTS.map((content, i) => {
    const person = people[i % people.length];
    const photos = rnd.chance(0.7) ? DEMO_PHOTOS.filter(() => rnd.chance(0.5)).slice(0, 3) : [];
    const status = i % 4 === 0 ? 1 : i === 5 ? 9 : 0;
    const answered = status !== 0;
    return {
      fUserId: person.fId,
      fPhone: person.fPhone,
      fType: String([1, 2, 3, 9][i % 4]),
      fFeedbackContent: content,
      fPhotos: photos.length ? photos.join(',') : i < 3 ? DEMO_PHOTOS[i] : null,
      fIntime: new Date(now - (i + 1) * 5.5 * 3600_000),
      fStatus: status,
      fAnswer: answered ? '已收到，我们会尽快处理。' : null,
      fAnswerTime: answered ? new Date(now - i * 3600_000) : null,
      fAnswerUserId: answered ? (admin?.fId ?? null) : null,
    };
  });
  await db.insertInto('t_feedback').values(rows as never).execute();
}

answers(S.none(), sign);
takes(signOneBody('the feedback', FEEDBACK_MESSAGES.idRequired), sign);
answers(S.entity('feedback'), answer);
takes(S.object({ fId: S.id('the feedback'), fAnswerContent: { type: ['string', 'null'], maxLength: 1000, 'x-messages': { maxLength: '答复内容长度超出限制' } }, fAnswer: { type: ['string', 'null'], maxLength: 1000, description: 'the same, as older callers name it', 'x-messages': { maxLength: '答复内容长度超出限制' } } }), answer);

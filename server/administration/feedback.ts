/**
 * Feedback (spec 001 §2.8, spec 002 §2 item 10, §4, §5): one entity serves the tenant list (sign-off) and the
 * administration list (filters phone, type, content; reply). Statuses 0 unconfirmed, 1 confirmed,
 * 9 corrected. A reply is stored with its time and author, confirms an unconfirmed row and reaches the
 * author in the message centre.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { refuse } from '../http/envelope';
import { present } from '../crud/engine';
import type { CallContext, Services } from '../crud/types';
import { sendMessage } from '../platform';
import { signOne, type SignRefusals } from '../platform';

type Row = Record<string, unknown>;

const SIGN_REFUSALS: SignRefusals = { idRequired: 'feedback.idRequired', alreadySigned: 'feedback.alreadySigned' };
/** The longest reply. */
const ANSWER_MAX = 1000;

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
export const sign = (ctx: CallContext) => signOne(ctx, 'feedback', SIGN_REFUSALS);

/** /biz/t-feedback/answer: fId and fAnswerContent (or fAnswer). */
export async function answer(ctx: CallContext) {
  const id = Number(ctx.body.fId);
  const text = String(ctx.body.fAnswerContent ?? ctx.body.fAnswer ?? '').trim();
  if (!text) throw refuse('feedback.answerRequired');
  if (text.length > ANSWER_MAX) throw refuse('feedback.answerTooLong');
  const row = Number.isInteger(id) && id > 0 ? await ctx.db.selectFrom('t_feedback').selectAll().where('fId', '=', id).executeTakeFirst() : undefined;
  if (!row) throw refuse('feedback.missing');
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

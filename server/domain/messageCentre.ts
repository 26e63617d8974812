/**
 * The message centre (spec 002 §2 item 14, §4, §7): personal messages in three lists — unread, read and
 * trash — newest first. A message is written by `sendMessage` when something happens that concerns its
 * addressee (an alarm in their scope, a finished import, a firmware upgrade's result, a reply to their
 * feedback); its title and text come from the enabled message template of that kind (t_message_model,
 * fCode), else from the built-in text below. Only the addressee may read or move a message.
 */
import type { FastifyInstance } from 'fastify';
import type { DB } from '../db';
import { publish } from '../relay';
import { Refusal } from '../http/envelope';
import { registerCall, type CallServices } from '../http/route';
import { S } from '../http/catalog';
import { formatTime } from '../crud/format';
import type { User } from '../crud/types';

export type MessageKind = 'alarm' | 'import' | 'firmware' | 'feedback';

export const MESSAGE_STATUS = { unread: 0, read: 1, trash: 2 } as const;

export const MESSAGE_CENTRE_MESSAGES = {
  idRequired: '消息编号不能为空',
  // Also the answer for somebody else's message: whether it exists is none of the caller's business.
  missing: '消息不存在',
  notUnread: '消息已读',
  notRead: '只有已读消息可以删除',
  notTrash: '只有回收站中的消息可以还原',
};

/**
 * The templates the platform fills, seeded into t_message_model so administrators can reword them (or
 * disable a kind). `{name}` is replaced by the event's parameter of that name. An alarm's `{detail}` is
 * its description after a colon, or nothing when it has none (a door left unlocked has none), so the
 * text reads without a stray "："; `{remark}` is the bare description, for templates written with it.
 */
export const DEFAULT_TEMPLATES: Record<MessageKind, { fName: string; fMessage: string }> = {
  alarm: { fName: '新报警提醒', fMessage: '{house}于{time}发生{alarm}{detail}。请及时处理。' },
  import: { fName: '导入完成通知', fMessage: '{what}导入完成，共导入{count}条数据（{time}）。' },
  firmware: { fName: '固件升级结果', fMessage: '设备{device}升级固件{version}{result}（{time}）。{reason}' },
  feedback: { fName: '反馈答复通知', fMessage: '您于{time}提交的反馈“{feedback}”已答复：{answer}' },
};

/** Lists longer than this show their newest rows; the counts stay exact. */
export const LIST_LIMIT = 200;
const MAX_CONTENT = 2000;
const MAX_TITLE = 200;

export type { MessageEvent } from '../relay';

const timeZone = () => process.env.TZ || 'Asia/Shanghai';

function fill(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const v = params[key];
    if (v === null || v === undefined) return '';
    return v instanceof Date ? formatTime(v, timeZone()) : String(v);
  });
}

/**
 * The template of a kind: the first enabled one; none at all when every template of the kind is
 * disabled (the administrator switched those messages off); the built-in text when the kind has none.
 */
async function templateOf(db: DB, kind: MessageKind): Promise<{ fName: string; fMessage: string } | null> {
  const rows = await db.selectFrom('t_message_model').select(['fName', 'fMessage', 'fStatus']).where('fCode', '=', kind).orderBy('fId').execute();
  if (!rows.length) return DEFAULT_TEMPLATES[kind];
  const enabled = rows.find((r) => Number(r.fStatus) === 1);
  return enabled ? { fName: String(enabled.fName), fMessage: String(enabled.fMessage ?? DEFAULT_TEMPLATES[kind].fMessage) } : null;
}

/**
 * Writes one message of `kind` to each of `userIds` (unknown ids are skipped) and tells their open
 * consoles. Never throws: the event that caused the message has already happened, and a failed notice
 * must not undo or fail it. Answers how many messages were written.
 */
export async function sendMessage(db: DB, message: { userIds: (number | null | undefined)[]; kind: MessageKind; params: Record<string, unknown> }): Promise<number> {
  try {
    const wanted = [...new Set(message.userIds.filter((id): id is number => Number.isInteger(id) && (id as number) > 0))];
    if (!wanted.length) return 0;
    const template = await templateOf(db, message.kind);
    if (!template) return 0;
    const users = await db.selectFrom('t_sys_user').select('fId').where('fId', 'in', wanted).execute();
    if (!users.length) return 0;
    const title = fill(template.fName, message.params).slice(0, MAX_TITLE);
    const content = fill(template.fMessage, message.params).slice(0, MAX_CONTENT);
    const rows = await db
      .insertInto('t_message')
      .values(users.map((u) => ({ fUserId: u.fId, fKind: message.kind, fTitle: title, fContent: content, fStatus: MESSAGE_STATUS.unread })))
      .returning(['fId', 'fUserId'])
      .execute();
    // Every replica's event streams hear of it (server/relay.ts), the addressee's console among them.
    await publish(db, 'message', rows.map((r) => ({ userId: r.fUserId as number, msg_id: r.fId as number, title })));
    return rows.length;
  } catch (error) {
    console.warn(`message centre: ${(error as Error).message}`);
    return 0;
  }
}

/** Seeds one template per kind the platform sends, unless one of that kind exists (edited or disabled). */
export async function seedMessageTemplates(db: DB): Promise<void> {
  const present = new Set((await db.selectFrom('t_message_model').select('fCode').where('fCode', 'is not', null).execute()).map((r) => r.fCode as string));
  const missing = (Object.keys(DEFAULT_TEMPLATES) as MessageKind[]).filter((k) => !present.has(k));
  // Type 2 is the in-app message of the messagetype dictionary.
  if (missing.length) await db.insertInto('t_message_model').values(missing.map((k) => ({ ...DEFAULT_TEMPLATES[k], fCode: k, fTypeId: 2, fStatus: 1 }))).execute();
}

const LOG = {
  init: { key: 'message.init', 'zh-CN': '消息列表', 'zh-TW': '訊息列表', 'en-US': 'List messages' },
  content: { key: 'message.content', 'zh-CN': '消息内容', 'zh-TW': '訊息內容', 'en-US': 'Read message content' },
  hasRead: { key: 'message.hasRead', 'zh-CN': '消息标为已读', 'zh-TW': '訊息標為已讀', 'en-US': 'Mark message read' },
  remove: { key: 'message.removeReaded', 'zh-CN': '消息移入回收站', 'zh-TW': '訊息移入回收站', 'en-US': 'Move message to trash' },
  restore: { key: 'message.restore', 'zh-CN': '消息还原', 'zh-TW': '訊息還原', 'en-US': 'Restore message' },
};

function messageId(body: Record<string, unknown>): number {
  const raw = body.msg_id ?? body.msgId;
  if (raw === undefined || raw === null || raw === '') throw new Refusal(MESSAGE_CENTRE_MESSAGES.idRequired);
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0 || id > 2147483647) throw new Refusal(MESSAGE_CENTRE_MESSAGES.missing);
  return id;
}

/** The caller's own message; anyone else's reads as missing. */
async function ownMessage(db: DB, user: User, body: Record<string, unknown>) {
  const row = await db.selectFrom('t_message').selectAll().where('fId', '=', messageId(body)).where('fUserId', '=', user.fId).executeTakeFirst();
  if (!row) throw new Refusal(MESSAGE_CENTRE_MESSAGES.missing);
  return row;
}

/** Moves the caller's message from one list to another, or refuses with the state's message. */
async function move(db: DB, user: User, body: Record<string, unknown>, from: number, to: number, refusal: string) {
  const row = await ownMessage(db, user, body);
  if (Number(row.fStatus) !== from) throw new Refusal(refusal);
  const moved = await db
    .updateTable('t_message')
    .set({ fStatus: to, ...(from === MESSAGE_STATUS.unread ? { fReadTime: new Date() } : {}) })
    .where('fId', '=', row.fId as number)
    .where('fStatus', '=', from)
    .returning('fId')
    .executeTakeFirst();
  // Another tab moved it between the read and the update.
  if (!moved) throw new Refusal(refusal);
  return true;
}

export async function messageLists(db: DB, user: User, tz: string) {
  const counts = await db.selectFrom('t_message').select(['fStatus', (eb) => eb.fn.countAll<number>().as('n')]).where('fUserId', '=', user.fId).groupBy('fStatus').execute();
  const count = (s: number) => Number(counts.find((c) => Number(c.fStatus) === s)?.n ?? 0);
  const list = async (status: number) =>
    (
      await db
        .selectFrom('t_message')
        .select(['fId', 'fTitle', 'fCreateTime', 'fKind'])
        .where('fUserId', '=', user.fId)
        .where('fStatus', '=', status)
        .orderBy('fId', 'desc')
        .limit(LIST_LIMIT)
        .execute()
    ).map((r) => ({ msg_id: r.fId, title: r.fTitle, create_time: formatTime(new Date(r.fCreateTime as Date), tz), kind: r.fKind }));
  return {
    unread: await list(MESSAGE_STATUS.unread),
    readed: await list(MESSAGE_STATUS.read),
    trash: await list(MESSAGE_STATUS.trash),
    unreadCount: count(MESSAGE_STATUS.unread),
    readedCount: count(MESSAGE_STATUS.read),
    trashCount: count(MESSAGE_STATUS.trash),
  };
}

const MESSAGE_ITEM = S.object({ msg_id: { type: 'integer' }, title: S.string(), create_time: { type: 'string' }, kind: S.string() });
const MESSAGE_LISTS = S.object({
  unread: S.array(MESSAGE_ITEM), readed: S.array(MESSAGE_ITEM), trash: S.array(MESSAGE_ITEM),
  unreadCount: { type: 'integer' }, readedCount: { type: 'integer' }, trashCount: { type: 'integer' },
});
/** A move between the lists answers true (a refusal says why it could not move). */
const MOVED = { const: true };

const MESSAGE_BODY = S.object({ msg_id: S.id('the message'), msgId: S.id() });

/** Every logged-in user has a message centre: the calls need no code, only the caller's own rows. */
// Its calls need no device side (CallServices): the device side sends messages through this module.
export function registerMessageCentreRoutes(app: FastifyInstance, ctx: CallServices) {
  registerCall(app, ctx, {
    path: '/message/init',
    methods: ['GET', 'POST'],
    data: MESSAGE_LISTS,
    body: S.object({}),
    permission: null,
    logname: LOG.init,
    handler: async ({ user }) => messageLists(ctx.db, user!, ctx.timeZone),
  });
  // The content alone, as the contract's viewer reads it (data is the text); reading does not mark it.
  registerCall(app, ctx, {
    path: '/message/content',
    methods: ['GET', 'POST'],
    data: { type: 'string', description: "the message's text" },
    body: MESSAGE_BODY,
    permission: null,
    logname: LOG.content,
    handler: async ({ user, body }) => String((await ownMessage(ctx.db, user!, body)).fContent),
  });
  registerCall(app, ctx, {
    path: '/message/has_read',
    data: MOVED,
    body: MESSAGE_BODY,
    permission: null,
    write: true,
    logname: LOG.hasRead,
    handler: async ({ user, body }) => move(ctx.db, user!, body, MESSAGE_STATUS.unread, MESSAGE_STATUS.read, MESSAGE_CENTRE_MESSAGES.notUnread),
  });
  registerCall(app, ctx, {
    path: '/message/remove_readed',
    data: MOVED,
    body: MESSAGE_BODY,
    permission: null,
    write: true,
    logname: LOG.remove,
    handler: async ({ user, body }) => move(ctx.db, user!, body, MESSAGE_STATUS.read, MESSAGE_STATUS.trash, MESSAGE_CENTRE_MESSAGES.notRead),
  });
  registerCall(app, ctx, {
    path: '/message/restore',
    data: MOVED,
    body: MESSAGE_BODY,
    permission: null,
    write: true,
    logname: LOG.restore,
    handler: async ({ user, body }) => move(ctx.db, user!, body, MESSAGE_STATUS.trash, MESSAGE_STATUS.read, MESSAGE_CENTRE_MESSAGES.notTrash),
  });
}

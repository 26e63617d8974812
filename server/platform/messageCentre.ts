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
import { refuse } from '../http/envelope';
import { REASONS } from '../../contract/generated/reasons';
import { registerCall, type CallServices } from '../http/route';
import { formatTime } from '../crud/format';
import type { User } from '../crud/types';

export type MessageKind = 'alarm' | 'import' | 'firmware' | 'feedback' | 'intake';

export const MESSAGE_STATUS = { unread: 0, read: 1, trash: 2 } as const;

/**
 * The templates the platform fills, seeded into t_message_model so administrators can reword them (or
 * disable a kind): the catalogue's zh-CN texts (schemas/reasons/security.json, `messageCentre.<kind>.*`),
 * their placeholders left in. `{name}` is replaced by the event's parameter of that name. An alarm's
 * `{detail}` is its description after a colon (`messageCentre.alarm.detail`), or nothing when it has none
 * (a door left unlocked has none), so the text reads without a stray colon; `{remark}` is the bare
 * description, for templates written with it.
 */
const template = (title: keyof typeof REASONS, text: keyof typeof REASONS) => ({ fName: REASONS[title]['zh-CN'], fMessage: REASONS[text]['zh-CN'] });
export const DEFAULT_TEMPLATES: Record<MessageKind, { fName: string; fMessage: string }> = {
  alarm: template('messageCentre.alarm.title', 'messageCentre.alarm.text'),
  import: template('messageCentre.import.title', 'messageCentre.import.text'),
  firmware: template('messageCentre.firmware.title', 'messageCentre.firmware.text'),
  feedback: template('messageCentre.feedback.title', 'messageCentre.feedback.text'),
  intake: template('messageCentre.intake.title', 'messageCentre.intake.text'),
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


function messageId(body: Record<string, unknown>): number {
  const raw = body.msg_id ?? body.msgId;
  if (raw === undefined || raw === null || raw === '') throw refuse('messageCentre.idRequired');
  const id = Number(raw);
  // Also the answer for somebody else's message: whether it exists is none of the caller's business.
  if (!Number.isInteger(id) || id <= 0 || id > 2147483647) throw refuse('messageCentre.missing');
  return id;
}

/** The caller's own message; anyone else's reads as missing. */
async function ownMessage(db: DB, user: User, body: Record<string, unknown>) {
  const row = await db.selectFrom('t_message').selectAll().where('fId', '=', messageId(body)).where('fUserId', '=', user.fId).executeTakeFirst();
  if (!row) throw refuse('messageCentre.missing');
  return row;
}

/** Moves the caller's message from one list to another, or refuses with the state's message. */
async function move(db: DB, user: User, body: Record<string, unknown>, from: number, to: number, refusal: 'messageCentre.alreadyRead' | 'messageCentre.notRead' | 'messageCentre.notTrash') {
  const row = await ownMessage(db, user, body);
  if (Number(row.fStatus) !== from) throw refuse(refusal);
  const moved = await db
    .updateTable('t_message')
    .set({ fStatus: to, ...(from === MESSAGE_STATUS.unread ? { fReadTime: new Date() } : {}) })
    .where('fId', '=', row.fId as number)
    .where('fStatus', '=', from)
    .returning('fId')
    .executeTakeFirst();
  // Another tab moved it between the read and the update.
  if (!moved) throw refuse(refusal);
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

/**
 * Every logged-in user has a message centre: the calls need no code, only the caller's own rows. Their
 * paths, bodies and answers are declared in resources/calls/message.json.
 */
// Its calls need no device side (CallServices): the device side sends messages through this module.
export function registerMessageCentreRoutes(app: FastifyInstance, ctx: CallServices) {
  registerCall(app, ctx, {
    call: 'message.lists',
    handler: async ({ user }) => messageLists(ctx.db, user!, ctx.timeZone),
  });
  // The content alone, as the contract's viewer reads it (data is the text); reading does not mark it.
  registerCall(app, ctx, {
    call: 'message.content',
    handler: async ({ user, body }) => String((await ownMessage(ctx.db, user!, body)).fContent),
  });
  registerCall(app, ctx, {
    call: 'message.markRead',
    write: true,
    handler: async ({ user, body }) => move(ctx.db, user!, body, MESSAGE_STATUS.unread, MESSAGE_STATUS.read, 'messageCentre.alreadyRead'),
  });
  registerCall(app, ctx, {
    call: 'message.remove',
    write: true,
    handler: async ({ user, body }) => move(ctx.db, user!, body, MESSAGE_STATUS.read, MESSAGE_STATUS.trash, 'messageCentre.notRead'),
  });
  registerCall(app, ctx, {
    call: 'message.restore',
    write: true,
    handler: async ({ user, body }) => move(ctx.db, user!, body, MESSAGE_STATUS.trash, MESSAGE_STATUS.read, 'messageCentre.notTrash'),
  });
}

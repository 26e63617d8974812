/**
 * Alarms of the rental houses (t_alarm): who sees which, the names and labels a list shows, sign-off
 * one at a time or in bulk, and the login summary of what is still unsigned.
 *
 * Scope: administrators see every alarm. Staff see the alarms of the rental houses in their
 * jurisdiction (server/auth/jurisdiction.ts: the regions and streets set on their user); an agent
 * sees those and the alarms raised by the devices it owns (t_device.fUserId): the locks and access
 * controls it installed. Anyone without a jurisdiction sees none.
 */
import type { ExpressionBuilder } from 'kysely';
import { answered, languageOfRequest, reason, refuse, textOf } from '../http/envelope';
import { Answer } from '../http/route';
import { isAdmin } from '../crud/types';
import { label } from '../crud/enums';
import type { CallContext, Query, Services, User } from '../crud/types';
import { entity, scoped } from '../crud/engine';
import { withinJurisdiction } from '../auth/jurisdiction';
import { maskPhone } from '../../contract/personal';
import { isPicture } from '../../contract/picture';
import { handlingNote, refusalFor, signOne, signRows, type SignRefusals } from '../platform';
import { BATCH_MAX } from '../../contract/signOff';

type Row = Record<string, unknown>;

/** The spec's login summary groups (001 §4), in the order the summary shows them. */
export const SUMMARY_GROUPS: { type: string; alarmTypes: number[] }[] = [
  { type: 'device', alarmTypes: [1, 2, 5, 6] },
  { type: 'lock', alarmTypes: [3, 4] },
  { type: 'collect', alarmTypes: [14] },
  { type: 'time', alarmTypes: [15] },
  { type: 'roomCount', alarmTypes: [17] },
  { type: 'person', alarmTypes: [13] },
  { type: 'card', alarmTypes: [18] },
];

/** An alarm's sign-off refusals (a one-touch alert's too). */
export const ALARM_REFUSALS: SignRefusals = { idRequired: 'alarm.idRequired', alreadySigned: 'alarm.alreadySigned' };

export function scope(query: Query, user: User): Query {
  if (isAdmin(user)) return query;
  const j = user.jurisdiction;
  if (user.fAdmin !== 2) return query.where((eb) => withinJurisdiction(eb, 't_alarm', j));
  const own = (eb: ExpressionBuilder<any, any>) => eb('t_alarm.fDeviceId', 'in', eb.selectFrom('t_device').select('t_device.fId').where('t_device.fUserId', '=', user.fId));
  return query.where((eb) => (j ? eb.or([own(eb), withinJurisdiction(eb, 't_alarm', j)]) : own(eb)));
}

/** Names, labels and the nested objects of the legacy answer (tUserAlarm, tUserHandle, tDevice names). */
export async function afterRead(rows: Row[], ctx: Services, related: Promise<void>) {
  const userIds = [...new Set(rows.flatMap((r) => [r.fUserAlarmId, r.fHandleUserId]).filter((v) => v !== null && v !== undefined))] as number[];
  const users = userIds.length ? await ctx.db.selectFrom('t_sys_user').select(['fId', 'fChineseName', 'fPhone']).where('fId', 'in', userIds).execute() : [];
  // The house, room and device the names below come from.
  await related;
  const byId = new Map(users.map((u) => [u.fId, u]));
  for (const r of rows) {
    const alarmUser = byId.get(r.fUserAlarmId as number);
    const handler = byId.get(r.fHandleUserId as number);
    const house = r.tRentalHouse as Row | null;
    const room = r.tRentalRoom as Row | null;
    const device = r.tDevice as Row | null;
    r.tUserAlarm = alarmUser ? { fId: alarmUser.fId, chineseName: alarmUser.fChineseName, phone: maskPhone(alarmUser.fPhone) || null } : null;
    r.tUserHandle = handler ? { fId: handler.fId, chineseName: handler.fChineseName } : null;
    r.fUserAlarmName = alarmUser?.fChineseName ?? null;
    r.fHandleUserName = handler?.fChineseName ?? null;
    r.fHouseName = house?.fHouseName ?? null;
    r.fRoomName = room?.fRoom ?? null;
    r.fStatusName = label('signStatus', r.fStatus);
    r.fAlarmTypeName = label('alarmType', r.fAlarmType);
    r.fDeviceTypeName = label('alarmDeviceType', r.fDeviceType);
    r.fDeviceName = device?.fName ?? null;
    // Only what the lists show of the device: not its owner, password or readings.
    r.tDevice = device ? { fId: device.fId, fNumber: device.fNumber, fName: device.fName, fDeviceName: device.fName, fDeviceTypeName: r.fDeviceTypeName } : null;
  }
}

/** /biz/t-alarm/signing {fId, fHandleContent, fRemark?, fPhotoUrl?}: status 1, handler the caller, time now. */
export async function signing(ctx: CallContext) {
  // The legacy dialog sends the row's photo and description back. A photo is stored only when it is a
  // picture a caller may name (an uploaded name or an http(s) address, contract/picture.ts); the
  // camera's own snapshot sent back as it was read (inline data) leaves the stored photo as it is.
  const given = typeof ctx.body.fPhotoUrl === 'string' ? ctx.body.fPhotoUrl.trim() : '';
  const photo = given && given.length <= 500 && isPicture(given) ? { fPhotoUrl: given } : {};
  return signOne(ctx, 'alarm', ALARM_REFUSALS, photo);
}

/** /biz/t-alarm/signingBatch {ids, fHandleContent}: one note for several alarms; each row's result. */
export async function signingBatch(ctx: CallContext) {
  const raw = Array.isArray(ctx.body.ids) ? ctx.body.ids : [];
  const ids = [...new Set(raw.map(Number).filter((n) => Number.isInteger(n) && n > 0))];
  if (!ids.length) throw refuse('alarm.idsRequired');
  if (ids.length > BATCH_MAX) throw refuse('alarm.tooMany', { max: BATCH_MAX });
  const done = await signRows(ctx, 'alarm', ids, { fHandleContent: handlingNote(ctx.body) });
  // Each row's outcome: `message` in the legacy words, `reason` by code in the caller's language.
  const language = ctx.request ? languageOfRequest(ctx.request) : 'zh-CN';
  const results = [];
  for (const id of ids) {
    const why = done.has(id) ? reason('alarm.signing.done') : await refusalFor(ctx, 'alarm', id, ALARM_REFUSALS.alreadySigned);
    results.push({ fId: id, success: done.has(id), message: textOf(why), reason: answered(why, language) });
  }
  return new Answer({ results, signed: done.size, failed: ids.length - done.size }, reason('alarm.batchSigned', { signed: done.size, failed: ids.length - done.size }));
}

/** /biz/t-alarm/alarmTypeCount: unsigned alarms in the caller's scope, by the login summary's groups. */
export async function alarmTypeCount(ctx: CallContext) {
  // Every unsigned alarm is counted as it is written (migration 030), which is an administrator's
  // scope; an agent's few devices' alarms are counted here, through the index of unsigned alarms, and a
  // jurisdiction's through the unsigned alarms' indexes by street and by region (schemas/alarm).
  const rows = (
    isAdmin(ctx.user)
      ? await ctx.db.selectFrom('t_alarm_unsigned_count').select(['fAlarmType', 'fCount as n']).execute()
      : await scoped(ctx, entity('alarm'), ctx.user)
          .clearSelect()
          .select(['t_alarm.fAlarmType', (eb: any) => eb.fn.countAll().as('n')])
          .where('t_alarm.fStatus', '=', 0)
          .groupBy('t_alarm.fAlarmType')
          .execute()
  ) as unknown as { fAlarmType: number; n: number | string }[];
  const count = new Map(rows.map((r) => [r.fAlarmType, Number(r.n)]));
  return SUMMARY_GROUPS.map((g) => ({ type: g.type, alarmTypes: g.alarmTypes, num: g.alarmTypes.reduce((s, t) => s + (count.get(t) ?? 0), 0) }));
}

/**
 * Rooms of a place. A room is visible when its place is; it takes its place's owner. A room that still
 * holds devices is not deleted: unbinding them first keeps the deletion from silently moving devices
 * out of the place.
 */
import { refuse } from '../http/envelope';
import type { CallContext, Query, Services, User } from '../crud/types';
import { present } from '../crud/engine';
import { deviceCounts, releaseDeviceLinks, type DeviceLinks } from '../crud/deviceLinks';
import { scope as placeScope } from './place';

type Row = Record<string, unknown>;

/** The devices filed under each room. */
const ROOM_DEVICES: DeviceLinks = { table: 't_sys_user_room_device', holder: 'fRoomId' };

/** The ids of the places the user sees, as a subquery. */
export const visiblePlaces = (db: Services['db'], user: User) => placeScope(db.selectFrom('t_sys_user_home').select('t_sys_user_home.fId') as Query, user);

export function scope(query: Query, user: User): Query {
  return query.where((eb) => eb('t_sys_user_room.fHomeId', 'in', placeScope(eb.selectFrom('t_sys_user_home').select('t_sys_user_home.fId') as Query, user)));
}

export async function beforeSave(values: Row, ctx: CallContext, existing?: Row) {
  const homeId = Number(values.fHomeId ?? existing?.fHomeId);
  const place = Number.isInteger(homeId) && homeId > 0
    ? await visiblePlaces(ctx.db, ctx.user).clearSelect().select(['t_sys_user_home.fId', 't_sys_user_home.fUserId']).where('t_sys_user_home.fId', '=', homeId).executeTakeFirst()
    : undefined;
  if (!place) throw refuse('room.placeMissing');
  if (existing && homeId !== Number(existing.fHomeId)) throw refuse('room.placeChanged');
  values.fUserId = place.fUserId ?? null;
  if (values.fType !== undefined && values.fType !== null) {
    const type = await ctx.db.selectFrom('t_sys_dic').select('fId').where('fKey', '=', 'Room_Type').where('fId', '=', values.fType as number).executeTakeFirst();
    if (!type) throw refuse('room.typeInvalid');
  }
}

export async function beforeDelete(row: Row, ctx: CallContext) {
  await releaseDeviceLinks(ctx.db, ROOM_DEVICES, row.fId as number, 'room.hasDevices');
}

/** deviceCount, and the type's dictionary entry as `type` ({ fId, fContent }) the way the legacy list reads it. */
export async function afterRead(rows: Row[], ctx: Services) {
  const ids = rows.map((r) => r.fId as number);
  if (!ids.length) return;
  const [byRoom, types] = await Promise.all([
    deviceCounts(ctx.db, ROOM_DEVICES, ids),
    ctx.db.selectFrom('t_sys_dic').select(['fId', 'fValue', 'fContent']).where('fKey', '=', 'Room_Type').execute(),
  ]);
  const typeBy = new Map(types.map((t) => [Number(t.fId), t]));
  for (const r of rows) {
    r.deviceCount = byRoom.get(Number(r.fId)) ?? 0;
    r.type = r.fType === null || r.fType === undefined ? null : typeBy.get(Number(r.fType)) ?? null;
  }
}

/** `{ fUserId }`: every room of that user's places (the user drawer's asset list), with the place name. */
export async function userRooms(ctx: CallContext) {
  const userId = Number(ctx.body.fUserId ?? (ctx.body.condition as Row | undefined)?.fUserId);
  if (!Number.isInteger(userId) || userId <= 0) return [];
  const rows = await scope(ctx.db.selectFrom('t_sys_user_room').selectAll('t_sys_user_room') as Query, ctx.user)
    .innerJoin('t_sys_user_home', 't_sys_user_home.fId', 't_sys_user_room.fHomeId')
    .select('t_sys_user_home.fName as homeName')
    .where('t_sys_user_home.fUserId', '=', userId)
    .orderBy('t_sys_user_room.fHomeId')
    .orderBy('t_sys_user_room.fId')
    .execute();
  return present(ctx, ctx.entity, rows);
}

/**
 * Places (homes): each belongs to one user or agent, who sees only its own; administrators see all.
 * A place that still has rooms is not deleted: the rooms hold device bindings a click must not lose,
 * so they are removed (after unbinding) first.
 */
import { refuse } from '../http/envelope';
import { isAdmin } from '../crud/types';
import type { CallContext, Query, Services, User } from '../crud/types';

type Row = Record<string, unknown>;

export function scope(query: Query, user: User): Query {
  if (isAdmin(user)) return query;
  return query.where('t_sys_user_home.fUserId', '=', user.fId);
}

/**
 * The district is picked from the area tree: its code must be an area, and the name stored is that
 * area's own, whatever name the request carried; a name without a code changes nothing.
 */
async function districtOf(values: Row, ctx: CallContext) {
  if (!('fCityCode' in values)) {
    delete values.fCityName;
    return;
  }
  if (values.fCityCode === null) {
    values.fCityName = null;
    return;
  }
  const id = Number(values.fCityCode);
  const area = Number.isInteger(id) && id > 0 ? await ctx.db.selectFrom('t_area_info').select('fAreaName').where('fAreaId', '=', id).executeTakeFirst() : undefined;
  if (!area) throw refuse('place.areaMissing');
  values.fCityCode = String(id);
  values.fCityName = area.fAreaName;
}

/** An administrator's place without an owner is the platform's own (fUserId null), as with groups. */
export async function beforeSave(values: Row, ctx: CallContext, existing?: Row) {
  await districtOf(values, ctx);
  if (!isAdmin(ctx.user)) {
    if (!existing) values.fUserId = ctx.user.fId;
    return;
  }
  if (values.fUserId !== undefined && values.fUserId !== null) {
    const owner = await ctx.db.selectFrom('t_sys_user').select('fId').where('fId', '=', values.fUserId as number).executeTakeFirst();
    if (!owner) throw refuse('place.ownerMissing');
  }
}

export async function afterSave(row: Row, ctx: CallContext, created: boolean) {
  // Rooms carry their place's owner so a room list per user needs no join.
  if (!created) await ctx.db.updateTable('t_sys_user_room').set({ fUserId: row.fUserId as number | null }).where('fHomeId', '=', row.fId as number).execute();
}

export async function beforeDelete(row: Row, ctx: CallContext) {
  const room = await ctx.db.selectFrom('t_sys_user_room').select('fId').where('fHomeId', '=', row.fId as number).executeTakeFirst();
  if (room) throw refuse('place.hasRooms');
  await ctx.db.deleteFrom('t_sys_user_room_device').where('fHomeId', '=', row.fId as number).execute();
}

/** roomCount, deviceCount and ownerName; bindings of devices deleted since do not count. */
export async function afterRead(rows: Row[], ctx: Services) {
  const ids = rows.map((r) => r.fId as number);
  if (!ids.length) return;
  const ownerIds = [...new Set(rows.map((r) => r.fUserId).filter((v) => v !== null && v !== undefined))] as number[];
  // Three reads that do not depend on each other, side by side.
  const [rooms, devices, owners] = await Promise.all([
    ctx.db
      .selectFrom('t_sys_user_room')
      .select(['fHomeId', (eb) => eb.fn.countAll<number>().as('n')])
      .where('fHomeId', 'in', ids)
      .groupBy('fHomeId')
      .execute(),
    ctx.db
      .selectFrom('t_sys_user_room_device as rd')
      .innerJoin('t_device as d', 'd.fId', 'rd.fDeviceId')
      .innerJoin('t_sys_user_room as r', 'r.fId', 'rd.fRoomId')
      .select(['rd.fHomeId', (eb) => eb.fn.count<number>('rd.fDeviceId').distinct().as('n')])
      .where('rd.fHomeId', 'in', ids)
      .groupBy('rd.fHomeId')
      .execute(),
    ownerIds.length ? ctx.db.selectFrom('t_sys_user').select(['fId', 'fChineseName', 'fPhone']).where('fId', 'in', ownerIds).execute() : [],
  ]);
  const ownerBy = new Map(owners.map((o) => [Number(o.fId), o.fChineseName || o.fPhone]));
  const roomsBy = new Map(rooms.map((c) => [Number(c.fHomeId), Number(c.n)]));
  const devicesBy = new Map(devices.map((c) => [Number(c.fHomeId), Number(c.n)]));
  for (const r of rows) {
    r.roomCount = roomsBy.get(Number(r.fId)) ?? 0;
    r.deviceCount = devicesBy.get(Number(r.fId)) ?? 0;
    r.ownerName = r.fUserId === null || r.fUserId === undefined ? null : ownerBy.get(Number(r.fUserId)) ?? null;
  }
}

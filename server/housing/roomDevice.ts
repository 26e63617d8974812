/**
 * Which devices sit in which room. A device sits in at most one room of a place: binding it to another
 * room of the same place moves it. Binding needs the room in the caller's scope and the device among
 * the ones the caller sees, so nobody files a device they cannot see; lists show only such devices.
 */
import { refuse } from '../http/envelope';
import type { CallContext, Query, User } from '../crud/types';
import { entity, pageAnswer, pageOf, present, scoped } from '../crud/engine';
import { pageRequest } from '../crud/query';
import { devicesMatching, hasKeyword, matchingKeyword } from '../devices';
import { scope as placeScope } from './place';
import { batchRows, isId } from '../http/guard';

type Row = Record<string, unknown>;

export function scope(query: Query, user: User): Query {
  return query.where((eb) => eb('t_sys_user_room_device.fHomeId', 'in', placeScope(eb.selectFrom('t_sys_user_home').select('t_sys_user_home.fId') as Query, user)));
}

const conditionOf = (ctx: CallContext) => (ctx.body.condition ?? {}) as Row;
const positive = (v: unknown) => {
  const n = Number(v);
  return isId(n) ? n : undefined;
};

async function requireRoom(ctx: CallContext, roomId: unknown): Promise<{ fId: number; fHomeId: number }> {
  const id = positive(roomId);
  const room = id ? await scoped(ctx, entity('room'), ctx.user).where('t_sys_user_room.fId', '=', id).executeTakeFirst() : undefined;
  if (!room) throw refuse('room.missing');
  return { fId: Number(room.fId), fHomeId: Number(room.fHomeId) };
}

/** A page of the list, newest first, 10 rows unless asked otherwise. */
function page(ctx: CallContext, query: Query, order: string, searching: boolean) {
  const req = pageRequest({ ...ctx.entity, pageSize: 10 }, ctx.body);
  return pageOf(ctx, query, req, [{ column: order, asc: false }], { searching });
}

/** Links, each with its device (and the device's product) presented the way the device list shows it. */
async function withDevices(ctx: CallContext, rows: Row[]) {
  const records = await present(ctx, ctx.entity, rows);
  const devices = await present(ctx, entity('device'), records.map((r) => r.device as Row).filter(Boolean));
  const byId = new Map(devices.map((d) => [d.fId, d]));
  for (const r of records) r.device = byId.get(r.fDeviceId) ?? r.device;
  return records;
}

function links(ctx: CallContext, keyword: unknown): Query {
  const devices = devicesMatching(ctx, ctx.user, keyword).clearSelect().select('t_device.fId');
  return scope(ctx.db.selectFrom('t_sys_user_room_device').innerJoin('t_device', 't_device.fId', 't_sys_user_room_device.fDeviceId').selectAll('t_sys_user_room_device') as Query, ctx.user)
    .where('t_sys_user_room_device.fDeviceId', 'in', devices);
}

/** The room's devices (condition fRoomId, keyword), paged. */
export async function selectedDevices(ctx: CallContext) {
  const c = conditionOf(ctx);
  const room = await requireRoom(ctx, c.fRoomId ?? c.roomId);
  const p = await page(ctx, links(ctx, c.keyword).where('t_sys_user_room_device.fRoomId', '=', room.fId), 't_sys_user_room_device.fId', hasKeyword(c.keyword));
  return pageAnswer(p, await withDevices(ctx, p.rows));
}

/** Devices the caller sees that no room of the place holds yet: the bind picker. */
export async function unselectedDevices(ctx: CallContext) {
  const c = conditionOf(ctx);
  const room = await requireRoom(ctx, c.fRoomId ?? c.roomId);
  const placed = ctx.db.selectFrom('t_sys_user_room_device').select('t_sys_user_room_device.fDeviceId').where('t_sys_user_room_device.fHomeId', '=', room.fHomeId);
  const p = await page(ctx, devicesMatching(ctx, ctx.user, c.keyword).where('t_device.fId', 'not in', placed), 't_device.fId', hasKeyword(c.keyword));
  return pageAnswer(p, await present(ctx, entity('device'), p.rows));
}

/** Every link the caller sees (condition roomId, deviceId, deviceName, userId — the place owner), paged. */
export async function pageList(ctx: CallContext) {
  const c = conditionOf(ctx);
  let q = links(ctx, undefined);
  const roomId = positive(c.roomId ?? c.fRoomId);
  const deviceId = positive(c.deviceId ?? c.fDeviceId);
  const userId = positive(c.userId ?? c.fUserId);
  const deviceName = String(c.deviceName ?? '').trim();
  if (roomId) q = q.where('t_sys_user_room_device.fRoomId', '=', roomId);
  if (deviceId) q = q.where('t_sys_user_room_device.fDeviceId', '=', deviceId);
  q = matchingKeyword(q, deviceName, 2);
  if (userId) q = q.where('t_sys_user_room_device.fHomeId', 'in', ctx.db.selectFrom('t_sys_user_home').select('t_sys_user_home.fId').where('t_sys_user_home.fUserId', '=', userId));
  const p = await page(ctx, q, 't_sys_user_room_device.fId', hasKeyword(deviceName));
  return pageAnswer(p, await withDevices(ctx, p.rows));
}

/** `[{ fId | fDeviceId, fHomeId, fRoomId }]` (device rows with the target room): files each device in the room. */
export async function bindDevices(ctx: CallContext) {
  const items = batchRows(ctx.body, 'room.bindNone');
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    let added = 0;
    let moved = 0;
    for (const item of items) {
      const room = await requireRoom(tctx, item.fRoomId);
      if (item.fHomeId !== undefined && item.fHomeId !== null && Number(item.fHomeId) !== room.fHomeId) throw refuse('room.elsewhere');
      const deviceId = positive(item.fDeviceId ?? item.fId);
      const device = deviceId ? await scoped(tctx, entity('device'), ctx.user).where('t_device.fId', '=', deviceId).executeTakeFirst() : undefined;
      if (!device) throw refuse('room.deviceMissing');
      const existing = await trx.selectFrom('t_sys_user_room_device').select(['fId', 'fRoomId']).where('fHomeId', '=', room.fHomeId).where('fDeviceId', '=', deviceId!).executeTakeFirst();
      if (existing) {
        if (Number(existing.fRoomId) === room.fId) continue;
        await trx.updateTable('t_sys_user_room_device').set({ fRoomId: room.fId }).where('fId', '=', existing.fId).execute();
        moved++;
        continue;
      }
      await trx.insertInto('t_sys_user_room_device').values({ fHomeId: room.fHomeId, fRoomId: room.fId, fDeviceId: deviceId! }).execute();
      added++;
    }
    return { added, moved };
  });
}

/** Link rows (`fId`, or `fDeviceId` with `fHomeId`) sent back with fRoomId null: each leaves its room. */
export async function unbindRoomDevices(ctx: CallContext) {
  const items = batchRows(ctx.body, 'room.unbindNone');
  return ctx.db.transaction().execute(async (trx) => {
    let removed = 0;
    for (const item of items) {
      let q = scope(trx.selectFrom('t_sys_user_room_device').select('t_sys_user_room_device.fId') as Query, ctx.user);
      const linkId = positive(item.fId);
      if (linkId && item.fDeviceId === undefined) q = q.where('t_sys_user_room_device.fId', '=', linkId);
      else if (linkId && positive(item.fDeviceId)) q = q.where('t_sys_user_room_device.fId', '=', linkId).where('t_sys_user_room_device.fDeviceId', '=', Number(item.fDeviceId));
      else q = q.where('t_sys_user_room_device.fHomeId', '=', positive(item.fHomeId) ?? 0).where('t_sys_user_room_device.fDeviceId', '=', positive(item.fDeviceId) ?? 0);
      const link = await q.executeTakeFirst();
      if (!link) throw refuse('room.bindingMissing');
      await trx.deleteFrom('t_sys_user_room_device').where('fId', '=', link.fId as number).execute();
      removed++;
    }
    return { removed };
  });
}

/**
 * Demo assets of a few tenants: each gets a place named after the house they rent, two rooms, and some
 * of the demo devices filed in them, so the tenant drawer's asset tab has something to show. The devices
 * are the demo's own (no new device rows: the device lists and counters stay as they were), each in one
 * tenant room only. Runs after the district and the devices are seeded, from the same fixed seed.
 */
import type { DB } from '../index';
import { random } from './random';

const TENANTS = 5;

export async function seedTenantAssets(db: DB): Promise<void> {
  const rnd = random(20261124);
  const tenants = await db
    .selectFrom('t_tenant_house as l')
    .innerJoin('t_house_info as h', 'h.fHouseId', 'l.fHouseId')
    .innerJoin('t_rental_room as r', 'r.fId', 'l.fRoomId')
    .select(['l.fUserId', 'h.fHouseName', 'h.fAreaId', 'r.fRoom'])
    .where('l.fStatus', '=', 2)
    .orderBy('l.fId')
    .limit(TENANTS)
    .execute();
  const devices = await db.selectFrom('t_device').select('fId').orderBy('fId').execute();
  const types = await db.selectFrom('t_sys_dic').select('fId').where('fKey', '=', 'Room_Type').orderBy('fSort').execute();
  if (!tenants.length || !devices.length) return;
  let next = 0;
  for (const t of tenants) {
    const home = await db
      .insertInto('t_sys_user_home')
      .values({ fName: `${t.fHouseName}${t.fRoom}`, fUserId: t.fUserId, fCityCode: String(t.fAreaId ?? ''), fCityName: t.fAreaId === 440104 ? '越秀区' : '天河区' })
      .returning('fId')
      .executeTakeFirstOrThrow();
    for (const [i, name] of ['卧室', '客厅'].entries()) {
      const room = await db
        .insertInto('t_sys_user_room')
        .values({ fName: name, fHomeId: home.fId, fUserId: t.fUserId, fType: types[i]?.fId ?? null })
        .returning('fId')
        .executeTakeFirstOrThrow();
      const count = rnd.int(1, 2);
      for (let k = 0; k < count && next < devices.length; k++) {
        await db.insertInto('t_sys_user_room_device').values({ fHomeId: home.fId, fRoomId: room.fId, fDeviceId: devices[next++].fId }).execute();
      }
    }
  }
}

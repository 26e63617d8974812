/**
 * Demo security devices and alarm history: door locks in rental rooms and an access control at the
 * door of some rental houses (t_device rows of two products, bound to houses and rooms through
 * t_house_device), a few hundred alarms of every type over the last 60 days and some one-touch
 * alerts. Drawn from the seeded random source, so every installation has the same history.
 */
import type { DB } from '../db';
import { random, type Random } from '../db/demo/random';
import { describeAlarm } from './alarmDescriptions';

export const SECURITY_PRODUCTS = [
  { fNumber: 'P-LOCK', fName: '智能门锁', fCategoryId: 1, fProtocol: 1, fDeviceType: 5, fCommunicationType: 'NB-IoT', fStatus: 1 },
  { fNumber: 'P-ACCESS', fName: '人脸门禁', fCategoryId: 1, fProtocol: 1, fDeviceType: 5, fCommunicationType: '4G', fStatus: 1 },
];
/** How many rental houses get an access control (and locks in two of their rooms). */
const EQUIPPED_HOUSES = 10;
const HISTORY = 400;
const DAYS = 60;

const NOTES = ['已电话联系租客，确认无异常', '民警已上门核查', '房东已处理', '误报，设备已复位', '已通知社区网格员跟进', '租客已补登记信息'];
/** Which alarm types each kind of device raises (alarmDeviceType 1 access control, 2 door lock). */
export const TYPES_BY_DEVICE: Record<number, number[]> = { 1: [1, 5, 6, 11, 13, 14, 15, 17, 18], 2: [2, 3, 4, 5, 6] };

/** A tiny picture for the alarm photo dialog: the camera's snapshot placeholder, with no file to serve. */
export function snapshot(label: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="400"><rect width="300" height="400" fill="#37474f"/><circle cx="150" cy="150" r="60" fill="#90a4ae"/><rect x="70" y="230" width="160" height="120" rx="40" fill="#90a4ae"/><text x="150" y="385" font-size="20" fill="#fff" text-anchor="middle">${label}</text></svg>`;
  return 'data:image/svg+xml;base64,' + Buffer.from(svg).toString('base64');
}

/** A demo alarm's description: the production words, with a drawn head count where one is said. */
const describeDemo = (type: number, rnd: Random) => describeAlarm(type, rnd.int(4, 9));

export async function seedAlarms(db: DB, now = new Date()): Promise<void> {
  if (await db.selectFrom('t_house_device').select('fId').limit(1).executeTakeFirst()) return;
  const rnd = random(20261124);
  const agent = await db.selectFrom('t_sys_user').select('fId').where('fAdmin', '=', 2).orderBy('fId').executeTakeFirst();
  const admin = await db.selectFrom('t_sys_user').select('fId').where('fAdmin', '=', 1).orderBy('fId').executeTakeFirst();
  const houses = await db.selectFrom('t_house_info').select(['fHouseId', 'fAreaId', 'fStreetId', 'fCommunityId']).where('fRental', '=', 1).orderBy('fHouseId').limit(EQUIPPED_HOUSES).execute();
  if (!houses.length) return;
  const products = await db.insertInto('t_product').values(SECURITY_PRODUCTS).onConflict((oc) => oc.column('fNumber').doNothing()).returning(['fId', 'fNumber']).execute();
  const productId = (n: string) => products.find((p) => p.fNumber === n)?.fId;
  if (!productId('P-LOCK') || !productId('P-ACCESS')) return;

  // The installations belong to the agent who put them in: its alarm lists show them. Their numbers
  // (AC-H01, LK-H01-1) say which house they are in and share no digits run with the switches' numbers.
  const bindings: { device: Record<string, unknown>; fHouseId: number; fRoomId: number | null; fDeviceType: number }[] = [];
  let lock = 0;
  for (const [i, h] of houses.entries()) {
    bindings.push({ device: { fNumber: `AC-H${String(i + 1).padStart(2, '0')}`, fName: `门禁${i + 1}`, fProductId: productId('P-ACCESS'), fTypeId: 5 }, fHouseId: h.fHouseId, fRoomId: null, fDeviceType: 1 });
    const rooms = await db.selectFrom('t_rental_room').select('fId').where('fHouseId', '=', h.fHouseId).orderBy('fId').limit(2).execute();
    for (const r of rooms) {
      lock++;
      bindings.push({ device: { fNumber: `LK-H${String(i + 1).padStart(2, '0')}-${rooms.indexOf(r) + 1}`, fName: `门锁${lock}`, fProductId: productId('P-LOCK'), fTypeId: 5 }, fHouseId: h.fHouseId, fRoomId: r.fId, fDeviceType: 2 });
    }
  }
  const devices = await db
    .insertInto('t_device')
    .values(bindings.map((b) => ({ ...b.device, fUserId: agent?.fId ?? null, fStatus: 1, fVerify: 1, tOnline: 0, fRegisteredDate: now })))
    .returning(['fId'])
    .execute();
  const mapped = bindings.map((b, i) => ({ fDeviceId: devices[i].fId as number, fHouseId: b.fHouseId, fRoomId: b.fRoomId, fDeviceType: b.fDeviceType }));
  await db.insertInto('t_house_device').values(mapped).execute();

  // Who lives where: an alarm names a tenant of its room (or house) most of the time.
  const leases = await db.selectFrom('t_tenant_house').select(['fUserId', 'fHouseId', 'fRoomId']).where('fHouseId', 'in', houses.map((h) => h.fHouseId)).execute();
  const houseOf = new Map(houses.map((h) => [h.fHouseId, h]));
  const alarms: Record<string, unknown>[] = [];
  for (let i = 0; i < HISTORY; i++) {
    const b = rnd.pick(mapped);
    const type = rnd.pick(TYPES_BY_DEVICE[b.fDeviceType]);
    const h = houseOf.get(b.fHouseId)!;
    const tenants = leases.filter((l) => l.fHouseId === b.fHouseId && (!b.fRoomId || l.fRoomId === b.fRoomId));
    const roomId = b.fRoomId ?? (tenants.length ? rnd.pick(tenants).fRoomId : null);
    // Time-based alarms are often raised by someone who never verified: no name ('unverified').
    const person = tenants.length && !(type === 15 && rnd.chance(0.4)) ? rnd.pick(tenants).fUserId : null;
    const time = new Date(now.getTime() - rnd.next() * DAYS * 86_400_000);
    // Time-based alarms are raised in the night hours they watch (00:00–05:00 in Guangzhou, UTC+8).
    if (type === 15) time.setUTCHours(16 + rnd.int(0, 4));
    if (time > now) time.setUTCDate(time.getUTCDate() - 1);
    const signed = time.getTime() < now.getTime() - 2 * 86_400_000 ? rnd.chance(0.85) : rnd.chance(0.3);
    alarms.push({
      fAlarmType: type, fAlarmTime: time, fIntime: new Date(time.getTime() + rnd.int(1, 30) * 1000), fStatus: signed ? 1 : 0,
      fRemark: describeDemo(type, rnd), fPhotoUrl: rnd.chance(0.5) ? snapshot(`#${i + 1}`) : null,
      fHouseId: b.fHouseId, fRoomId: roomId, fUserAlarmId: person, fDeviceId: b.fDeviceId, fDeviceType: b.fDeviceType,
      fAreaId: h.fAreaId, fStreetId: h.fStreetId, fCommunityId: h.fCommunityId,
      ...(signed ? { fHandleUserId: admin?.fId ?? null, fHandleContent: rnd.pick(NOTES), fHandleTime: new Date(time.getTime() + rnd.int(10, 600) * 60_000) } : {}),
    });
  }
  alarms.sort((a, b) => (a.fAlarmTime as Date).getTime() - (b.fAlarmTime as Date).getTime());
  for (let i = 0; i < alarms.length; i += 200) await db.insertInto('t_alarm').values(alarms.slice(i, i + 200)).execute();

  // One-touch alerts from people around the district's streets.
  const people = await db.selectFrom('t_sys_user').select(['fId']).where('fUserType', '=', 2).orderBy('fId').limit(400).execute();
  // Some alerts come from app users who never verified their identity (no ID number): 'not verified'.
  // (Staff in charge of a jurisdiction are on the other side of the alerts.)
  const unverified = await db.selectFrom('t_sys_user').select(['fId']).where('fIdcard', 'is', null).where('fAdmin', '=', 0).where('fAreaIds', 'is', null).where('streets', 'is', null).orderBy('fId').limit(5).execute();
  const streets = await db.selectFrom('t_house_info').select(['fLongitude', 'fLatitude', 'fAddress']).where('fRental', '=', 1).orderBy('fHouseId').execute();
  const touches: Record<string, unknown>[] = [];
  for (let i = 0; i < 40 && people.length && streets.length; i++) {
    const at = rnd.pick(streets);
    const time = new Date(now.getTime() - rnd.next() * DAYS * 86_400_000);
    const signed = rnd.chance(0.6);
    touches.push({
      fUserId: unverified.length && rnd.chance(0.2) ? rnd.pick(unverified).fId : rnd.pick(people).fId, fLongitude: Math.round(((at.fLongitude as number) + (rnd.next() - 0.5) * 0.004) * 1e6) / 1e6,
      fLatitude: Math.round(((at.fLatitude as number) + (rnd.next() - 0.5) * 0.004) * 1e6) / 1e6, fAddress: `${at.fAddress}附近`, fIntime: time,
      // The note is picked by position, not by the generator, so the rest of the demo stays as it was.
      fStatus: signed ? 1 : 0, ...(signed ? { fHandleUserId: admin?.fId ?? null, fHandleContent: NOTES[i % NOTES.length], fHandleTime: new Date(time.getTime() + 600_000) } : {}),
    });
  }
  if (touches.length) await db.insertInto('t_touch_alarm').values(touches).execute();
}

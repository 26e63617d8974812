/**
 * The demo district: streets, police stations, schools, communities, buildings, rental houses and
 * rooms in two districts of the seeded region tree, and a population of platform users of type 2
 * (tenants and visitors) with their leases. Generated from a fixed seed, so it is the same everywhere.
 */
import { sql } from 'kysely';
import type { DB } from '../index';
import { hashPassword } from '../../auth/passwords';
import { idNumber, mobile, personName, random, type Random } from './random';
import { bulkInsert } from './bulk';

/** How many people (fUserType 2) the demo has; the relation graph wants thousands. */
export const DEMO_PEOPLE = 5000;

const STREETS = [
  { fStreetId: 44010601, fStreetName: '石牌街', fAreaId: 440106, lat: 23.1335, lng: 113.3469 },
  { fStreetId: 44010602, fStreetName: '五山街', fAreaId: 440106, lat: 23.1562, lng: 113.3508 },
  { fStreetId: 44010603, fStreetName: '棠下街', fAreaId: 440106, lat: 23.1327, lng: 113.3780 },
  { fStreetId: 44010401, fStreetName: '北京街', fAreaId: 440104, lat: 23.1250, lng: 113.2690 },
  { fStreetId: 44010402, fStreetName: '农林街', fAreaId: 440104, lat: 23.1310, lng: 113.2930 },
];
const COMMUNITY_NAMES = ['东村', '西村', '南苑', '北苑', '新村', '花园'];
const WORK_UNITS = ['天河城百货', '华南理工大学', '广州地铁', '岗顶电脑城', '顺丰速运', '美团配送', '个体经营', '建设银行天河支行', '中山大学附属医院', '自由职业'];
const LANES = ['东一巷', '东二巷', '西街', '南街', '北横路', '新街'];

function chunks<T>(rows: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

async function insertAll(db: DB, table: string, rows: Record<string, unknown>[], returning: string[] = []) {
  const out: Record<string, unknown>[] = [];
  for (const part of chunks(rows)) {
    const q = db.insertInto(table).values(part);
    if (returning.length) out.push(...(await q.returning(returning).execute()));
    else await q.execute();
  }
  return out;
}

function birth(rnd: Random): Date {
  return new Date(Date.UTC(rnd.int(1960, 2004), rnd.int(0, 11), rnd.int(1, 28)));
}

/** Only into an empty address tree: a district someone has entered is never touched. */
export async function seedDistrict(db: DB, now = new Date()): Promise<void> {
  if (await db.selectFrom('t_street_info').select('fId').limit(1).executeTakeFirst()) return;
  const rnd = random(20261123);

  await insertAll(db, 't_street_info', STREETS.map(({ fStreetId, fStreetName, fAreaId }) => ({ fStreetId, fStreetName, fAreaId })));
  await insertAll(db, 't_police_sta_info', STREETS.map((s, i) => ({
    fPoliceStaId: 9000 + i + 1, fPoliceStaName: `${s.fStreetName.replace('街', '')}派出所`, fPoliceStaAcr: s.fStreetName.replace('街', ''),
    fPoliceStaPhone: `020-8${String(5550000 + i * 1111)}`, fAreaId: s.fAreaId,
  })));
  await insertAll(db, 't_school', [
    { fSchoolName: '天河区第一小学', fAddress: '天河区石牌东路18号', fAreaId: 440106 },
    { fSchoolName: '五山中学', fAddress: '天河区五山路101号', fAreaId: 440106 },
    { fSchoolName: '越秀区北京街小学', fAddress: '越秀区北京路52号', fAreaId: 440104 },
  ]);

  // Communities, two buildings each, two rental houses in every building.
  const houses: Record<string, unknown>[] = [];
  for (const s of STREETS) {
    const names = [rnd.pick(COMMUNITY_NAMES), rnd.pick(COMMUNITY_NAMES)];
    if (names[0] === names[1]) names[1] = COMMUNITY_NAMES[(COMMUNITY_NAMES.indexOf(names[0]) + 1) % COMMUNITY_NAMES.length];
    for (const [ci, n] of names.entries()) {
      const lat = s.lat + (ci ? 0.004 : -0.003);
      const lng = s.lng + (ci ? -0.004 : 0.003);
      const [community] = await insertAll(db, 't_community', [{
        fName: `${s.fStreetName.replace('街', '')}${n}社区`, fAddress: `${s.fStreetName}${n}`, fBuildtime: `${rnd.int(1988, 2015)}-06-01`,
        fLatitude: lat, fLongitude: lng, fStreet: s.fStreetId, fUnitcode: `${s.fStreetId}${ci + 1}`,
      }], ['id']);
      for (let b = 1; b <= 2; b++) {
        const [building] = await insertAll(db, 't_build_info', [{ fBuildingnum: `${b}栋`, fCommunityid: community.id, fFloor: rnd.int(4, 9), fHousesNum: rnd.int(8, 24), fType: 1 }], ['id']);
        for (let h = 1; h <= 2; h++) {
          const no = rnd.int(1, 88);
          const lane = rnd.pick(LANES);
          const landlord = personName(rnd);
          houses.push({
            fHouseName: `${s.fStreetName.replace('街', '')}${lane}${no}号`, fDoornum: `${no}号`,
            fAddress: `广州市${s.fAreaId === 440106 ? '天河区' : '越秀区'}${s.fStreetName}${lane}${no}号`,
            fAreaId: s.fAreaId, fStreetId: s.fStreetId, fStreetName: s.fStreetName, fCommunityId: community.id, fBuildId: building.id,
            fLandlordName: landlord, fLandlordPhone: mobile(rnd, 10000000 + houses.length),
            fLatitude: lat + (rnd.next() - 0.5) * 0.003, fLongitude: lng + (rnd.next() - 0.5) * 0.003, fRental: 1, fStatus: 1,
          });
        }
      }
    }
  }
  const houseRows = await insertAll(db, 't_house_info', houses, ['fHouseId']);
  const rooms: Record<string, unknown>[] = [];
  for (const h of houseRows) {
    const count = rnd.int(3, 6);
    for (let r = 1; r <= count; r++) rooms.push({ fHouseId: h.fHouseId, fRoom: `${rnd.int(1, 3)}0${r}`, fCapacity: rnd.int(1, 4), fStatus: 1 });
  }
  const roomRows = (await insertAll(db, 't_rental_room', rooms, ['fId', 'fHouseId', 'fCapacity'])) as { fId: number; fHouseId: number; fCapacity: number }[];

  // The population: nobody knows their password, so no demo tenant can sign in to the console.
  const unusable = await hashPassword(`demo-${now.getTime()}-${Math.random()}`);
  const people: Record<string, unknown>[] = [];
  for (let i = 0; i < DEMO_PEOPLE; i++) {
    const female = rnd.chance(0.48);
    const region = rnd.pick([440106, 440104, 430102, 360102, 450103, 510104]);
    people.push({
      fChineseName: personName(rnd), fPhone: mobile(rnd, 20000000 + i), fPassword: unusable, fAdmin: 0, fUserType: 2,
      fStatus: rnd.chance(0.96) ? 1 : 0, fGender: female ? '0' : '1', fIdcard: idNumber(rnd, region, birth(rnd), female),
      fWorkUnit: rnd.pick(WORK_UNITS), fWorkAddress: `广州市${rnd.pick(['天河区', '越秀区', '海珠区'])}${rnd.pick(LANES)}${rnd.int(1, 200)}号`,
      fCreateTime: new Date(now.getTime() - rnd.int(30, 900) * 86400000),
      fLastloginDate: rnd.chance(0.8) ? new Date(now.getTime() - rnd.int(0, 30) * 86400000 - rnd.int(0, 86399) * 1000) : null,
    });
  }
  const userColumns: [string, string][] = [
    ['fChineseName', 'text[]'], ['fPhone', 'text[]'], ['fPassword', 'text[]'], ['fAdmin', 'int[]'], ['fUserType', 'int[]'], ['fStatus', 'int[]'], ['fGender', 'text[]'],
    ['fIdcard', 'text[]'], ['fWorkUnit', 'text[]'], ['fWorkAddress', 'text[]'], ['fCreateTime', 'timestamptz[]'], ['fLastloginDate', 'timestamptz[]'],
  ];
  const users = (await bulkInsert(db, 't_sys_user', userColumns, people, ['fId', 'fChineseName', 'fIdcard', 'fPhone', 'fGender'])) as {
    fId: number; fChineseName: string; fIdcard: string; fPhone: string; fGender: string;
  }[];

  // Leases: each room holds up to its capacity of current tenants, some short-term; earlier tenants
  // have returned. The first people in the list are the tenants; the rest are visitors.
  const leases: Record<string, unknown>[] = [];
  const persons: Record<string, unknown>[] = [];
  const day = 86400000;
  let next = 0;
  const occupied = new Map<number, number>();
  for (const room of roomRows) {
    const current = rnd.int(0, room.fCapacity);
    for (let k = 0; k < current + 1 && next < users.length; k++) {
      const u = users[next++];
      const returned = k === current; // one earlier tenant per room
      const short = !returned && rnd.chance(0.15);
      const start = new Date(now.getTime() - rnd.int(returned ? 400 : 10, returned ? 800 : 380) * day);
      const end = returned ? new Date(start.getTime() + rnd.int(60, 300) * day) : new Date(now.getTime() + rnd.int(short ? 1 : 30, short ? 20 : 365) * day);
      leases.push({ fUserId: u.fId, fHouseId: room.fHouseId, fRoomId: room.fId, fShortTerm: short ? 1 : 0, fStartTime: start, fEndTime: end, fStatus: returned ? 3 : 2 });
      if (!returned) occupied.set(room.fId, (occupied.get(room.fId) ?? 0) + 1);
      persons.push({ fName: u.fChineseName, fIdcard: u.fIdcard, fPhonenum: u.fPhone, fSex: u.fGender, fLivstatus: short ? 2 : 1, fStatus: 1, fTmpLive: short ? 1 : 0, fHouseId: room.fHouseId, fUserId: u.fId, fNation: '汉族', fCensusReg: '广东省广州市' });
    }
  }
  await insertAll(db, 't_tenant_house', leases);
  await insertAll(db, 't_person_info', persons);
  // Occupied rooms and each house's head count: one statement each (a statement per row took seconds).
  await sql`update t_rental_room set f_status = 2 where f_id = any(${[...occupied.keys()]}::int[])`.execute(db);
  const perHouse = new Map<number, number>(houseRows.map((h) => [h.fHouseId as number, 0]));
  for (const r of roomRows) perHouse.set(r.fHouseId, (perHouse.get(r.fHouseId) ?? 0) + (occupied.get(r.fId) ?? 0));
  await sql`update t_house_info h set f_total_person = v.n from unnest(${[...perHouse.keys()]}::int[], ${[...perHouse.values()]}::int[]) as v(id, n) where h.f_house_id = v.id`.execute(db);
}

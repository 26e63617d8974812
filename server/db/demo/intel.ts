/**
 * Person-intelligence demo data on top of the demo district's people and leases: phone books (the
 * address-book edges of the call-relation graph), unlock records of the tenants, location trails and
 * installed apps. Seeded from a fixed number, so a phone in a test or a benchmark figure means the
 * same rows everywhere. Bulk inserts (bulk.ts) keep it cheap on PGlite.
 */
import type { DB } from '../index';
import { mobile, personName, random, type Random } from './random';
import { bulkInsert } from './bulk';

/** Contacts per person; with co-residents and housemates the graph has well over 20,000 relations. */
const CONTACTS = { min: 2, max: 7 };
/** Numbers that belong to nobody on the platform (couriers, shops, family back home). */
const OUTSIDERS = 600;
const LOCK_TYPES = [5, 27, 25, 1, 22, 17];
const NICKNAMES = ['房东', '师傅', '老板', '快递', '同事', '老乡', '表哥', '阿姨', '外卖', '中介'];
const APPS = [
  { fAppName: '微信', fPackage: 'com.tencent.mm' }, { fAppName: '支付宝', fPackage: 'com.eg.android.AlipayGphone' },
  { fAppName: '抖音', fPackage: 'com.ss.android.ugc.aweme' }, { fAppName: '美团', fPackage: 'com.sankuai.meituan' },
  { fAppName: '淘宝', fPackage: 'com.taobao.taobao' }, { fAppName: '高德地图', fPackage: 'com.autonavi.minimap' },
  { fAppName: '滴滴出行', fPackage: 'com.sdu.didi.psnger' }, { fAppName: '拼多多', fPackage: 'com.xunmeng.pinduoduo' },
  { fAppName: 'QQ', fPackage: 'com.tencent.mobileqq' }, { fAppName: '', fPackage: 'com.example.unknown.tool' },
  { fAppName: '快手', fPackage: 'com.smile.gifmaker' }, { fAppName: '', fPackage: 'org.telegram.messenger' },
];
const PLACES = ['天河城', '岗顶地铁站', '华南理工大学北门', '石牌桥', '体育西路', '北京路步行街', '农林下路', '五山地铁站', '棠下村口', '天河客运站'];

const pickSome = <T,>(rnd: Random, items: readonly T[], n: number) => Array.from({ length: n }, () => rnd.pick(items));

/** Only when no phone book exists yet (the district seed runs only into an empty database too). */
export async function seedIntel(db: DB, now = new Date()): Promise<void> {
  if (await db.selectFrom('t_address_book').select('fId').limit(1).executeTakeFirst()) return;
  const rnd = random(20261124);
  const people = await db.selectFrom('t_sys_user').select(['fId', 'fPhone', 'fChineseName']).where('fUserType', '=', 2).orderBy('fId').execute();
  if (!people.length) return;
  const leases = await db.selectFrom('t_tenant_house').select(['fUserId', 'fHouseId', 'fRoomId', 'fStatus', 'fStartTime', 'fEndTime']).execute();
  const houses = await db.selectFrom('t_house_info').select(['fHouseId', 'fAddress', 'fLongitude', 'fLatitude']).execute();
  const houseById = new Map(houses.map((h) => [h.fHouseId, h]));
  const day = 86400000;

  // Phone books: mostly people nearby in the list (a social circle), housemates, a few strangers.
  const byHouse = new Map<number, number[]>();
  const indexOf = new Map(people.map((p, i) => [p.fId, i]));
  for (const l of leases) {
    const idx = indexOf.get(l.fUserId);
    if (idx !== undefined) byHouse.set(l.fHouseId, [...(byHouse.get(l.fHouseId) ?? []), idx]);
  }
  const houseOf = new Map<number, number[]>();
  for (const members of byHouse.values()) for (const i of members) houseOf.set(i, members);
  const outsiders = Array.from({ length: OUTSIDERS }, (_, i) => mobile(rnd, 60000000 + i));
  const books: Record<string, unknown>[] = [];
  for (const [i, p] of people.entries()) {
    const seen = new Set<string>([p.fPhone]);
    const count = rnd.int(CONTACTS.min, CONTACTS.max);
    for (let k = 0; k < count; k++) {
      const roll = rnd.next();
      let number: string;
      let name: string;
      const mates = houseOf.get(i);
      if (roll < 0.15) {
        number = rnd.pick(outsiders);
        name = personName(rnd).slice(0, 1) + rnd.pick(NICKNAMES);
      } else {
        const j = roll < 0.3 && mates ? rnd.pick(mates) : Math.min(people.length - 1, Math.max(0, i + rnd.int(-40, 40)));
        number = people[j].fPhone;
        name = rnd.chance(0.7) ? people[j].fChineseName : people[j].fChineseName.slice(0, 1) + rnd.pick(NICKNAMES);
      }
      if (seen.has(number)) continue;
      seen.add(number);
      books.push({ fUserId: p.fId, fName: name, fNumber: number });
    }
  }
  await bulkInsert(db, 't_address_book', [['fUserId', 'int[]'], ['fName', 'text[]'], ['fNumber', 'text[]']], books);

  // Unlock records: every tenant opens the door of the house they rent, over the lease's last 60 days.
  const locks: Record<string, unknown>[] = [];
  for (const l of leases) {
    const end = Math.min(now.getTime(), new Date(l.fEndTime as unknown as string).getTime());
    const start = Math.max(end - 60 * day, new Date(l.fStartTime as unknown as string).getTime());
    const n = l.fStatus === 2 ? rnd.int(8, 30) : rnd.int(0, 5);
    const preferred = rnd.pick(LOCK_TYPES);
    for (let k = 0; k < n && end > start; k++) {
      locks.push({ fUserId: l.fUserId, fHouseId: l.fHouseId, fLockTime: new Date(start + rnd.next() * (end - start)), fLockType: rnd.chance(0.7) ? preferred : rnd.pick(LOCK_TYPES) });
    }
  }
  await bulkInsert(db, 't_lock_record', [['fUserId', 'int[]'], ['fHouseId', 'int[]'], ['fLockTime', 'timestamptz[]'], ['fLockType', 'int[]']], locks);

  // Location trails: tenants near their house, others anywhere in the district; some without an address.
  const leaseOf = new Map(leases.map((l) => [l.fUserId, l]));
  const trail: Record<string, unknown>[] = [];
  for (const p of people) {
    const lease = leaseOf.get(p.fId);
    const n = lease ? rnd.int(3, 8) : rnd.chance(0.4) ? rnd.int(1, 3) : 0;
    const home = lease ? houseById.get(lease.fHouseId) : undefined;
    for (let k = 0; k < n; k++) {
      const atHome = home && rnd.chance(0.5);
      trail.push({
        fUserId: p.fId,
        fAddress: rnd.chance(0.08) ? null : atHome ? home.fAddress : `广州市${rnd.pick(PLACES)}`,
        fLongitude: (home?.fLongitude ?? 113.33) + (rnd.next() - 0.5) * 0.05,
        fLatitude: (home?.fLatitude ?? 23.13) + (rnd.next() - 0.5) * 0.05,
        fCtime: new Date(now.getTime() - rnd.int(0, 30 * 24 * 60) * 60000),
      });
    }
  }
  await bulkInsert(db, 't_location_record', [['fUserId', 'int[]'], ['fAddress', 'text[]'], ['fLongitude', 'float8[]'], ['fLatitude', 'float8[]'], ['fCtime', 'timestamptz[]']], trail);

  // Installed apps; a few without a name (the profile shows the package then).
  const apps: Record<string, unknown>[] = [];
  for (const p of people) {
    const chosen = new Set(pickSome(rnd, APPS, rnd.int(0, 5)));
    for (const a of chosen) apps.push({ fUserId: p.fId, ...a, fAppName: a.fAppName || null });
  }
  await bulkInsert(db, 't_user_app', [['fUserId', 'int[]'], ['fAppName', 'text[]'], ['fPackage', 'text[]']], apps);
}

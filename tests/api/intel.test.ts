import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, OFFICER, backends, startServer, type TestServer } from './harness';
import { maskIdcard, maskPhone } from '../../contract/personal';
import { phoneHandles } from '../../server/security/intel';

const MESSAGES = {
  empty: '请输入搜索条件',
  phone: '请输入正确的手机号',
  length: '请输入正确的手机号或身份证号',
  idcard: '请输入正确的身份证号',
  relations: '请至少选择一个关系类型',
  none: '暂无信息',
};

describe.each(backends)('person intelligence on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  /** A current tenant of the demo district, with a phone book and co-tenants. */
  let who: { fId: number; fPhone: string; fIdcard: string; fChineseName: string };
  /** Every phone and ID number the demo stores (people and phone books): none may leave in full. */
  let seeded: Set<string>;

  /**
   * The full phones and ID numbers of the demo found in an answer: every run of 11 digits, and every
   * 15- or 18-character ID, checked against what is stored.
   */
  const leaked = (answer: unknown) => {
    const json = JSON.stringify(answer);
    const found = [...json.matchAll(/(?<![\dXx])(\d{17}[\dXx]|\d{15})(?![\dXx])|(?<!\d)(\d{11})(?!\d)/g)].map((m) => (m[1] ?? m[2]).toUpperCase());
    return found.filter((v) => seeded.has(v));
  };

  beforeAll(async () => {
    s = await startServer(backend);
    [admin, agent] = [await s.login(ADMIN), await s.login(AGENT)];
    [who] = await s.sql(`
      select u.f_id, u.f_phone, u.f_idcard, u.f_chinese_name from t_tenant_house t join t_sys_user u on u.f_id = t.f_user_id
      where t.f_status = 2 and exists (select 1 from t_address_book b where b.f_user_id = u.f_id)
        and exists (select 1 from t_tenant_house o where o.f_room_id = t.f_room_id and o.f_user_id <> t.f_user_id and o.f_status = 2)
      order by t.f_id limit 1`);
    const people = await s.sql(`select f_phone, f_idcard from t_sys_user`);
    const books = await s.sql(`select distinct f_number from t_address_book`);
    seeded = new Set([...people.flatMap((r) => [r.fPhone, r.fIdcard?.toUpperCase()]), ...books.map((r) => r.fNumber)].filter((v): v is string => typeof v === 'string' && v.length >= 11));
  }, 120_000);
  afterAll(() => s?.close());

  it('seeds a population with more than 20,000 relations', async () => {
    const [{ n }] = await s.sql(`select count(*)::int as n from t_address_book`);
    expect(n).toBeGreaterThan(18000);
    const [{ locks }] = await s.sql(`select count(*)::int as locks from t_lock_record`);
    expect(locks).toBeGreaterThan(1000);
    const full = await s.call('/biz/relation/graph', { phone: who.fPhone, relations: [1, 2, 3], depth: 100 }, admin);
    expect(full.body.success).toBe(true);
    expect(full.body.data.relationshipList.length).toBeGreaterThanOrEqual(20000);
    // The scan finds what it looks for, and the whole population's graph holds none of it.
    expect(leaked({ a: `x${who.fPhone}`, b: who.fIdcard.toLowerCase() })).toEqual([who.fPhone, who.fIdcard.toUpperCase()]);
    expect(leaked(full.body)).toEqual([]);
    const phones = full.body.data.nodeList.filter((n: { nodetype: string }) => n.nodetype === 'phone');
    expect(new Set(phones.map((n: { id: string }) => n.id)).size).toBe(phones.length);
  }, 60_000);

  it('searches by phone or ID number with every validation message', async () => {
    const search = (body: object) => s.call('/biz/hologram/search', body, admin);
    expect((await search({ keyword: '' })).body).toMatchObject({ success: false, message: MESSAGES.empty });
    expect((await search({ keyword: '12345678901' })).body.message).toBe(MESSAGES.phone);
    expect((await search({ keyword: '1234' })).body.message).toBe(MESSAGES.length);
    expect((await search({ keyword: '44010619900101123Y' })).body.message).toBe(MESSAGES.idcard);
    expect((await search({ phone: '13912345670' })).body).toMatchObject({ success: false, message: MESSAGES.none });
    const byPhone = await search({ phone: who.fPhone });
    expect(byPhone.body).toMatchObject({ success: true, data: { userId: who.fId, chineseName: who.fChineseName, phone: maskPhone(who.fPhone), idcard: maskIdcard(who.fIdcard) } });
    expect(leaked(byPhone.body)).toEqual([]);
    expect(byPhone.body.data).toHaveProperty('workUnit');
    expect(byPhone.body.data).toHaveProperty('lastloginDate');
    const byId = await search({ idcard: who.fIdcard.toLowerCase() });
    expect(byId.body.data.userId).toBe(who.fId);
    expect(leaked(byId.body)).toEqual([]);
  });

  it('says why a search is refused by code, in the language the caller asks in', async () => {
    const inLanguage = async (path: string, body: unknown, language: string) =>
      (await fetch(s.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'accept-language': language, authorization: admin }, body: JSON.stringify(body) })).json();
    expect(await inLanguage('/biz/hologram/search', { keyword: '1234' }, 'en-US')).toMatchObject({ code: 400, message: MESSAGES.length, reason: { code: 'intel.termInvalid', text: 'Please enter a valid mobile or ID number' } });
    expect(await inLanguage('/biz/hologram/search', { phone: '13912345670' }, 'zh-TW')).toMatchObject({ code: 404, message: MESSAGES.none, reason: { code: 'intel.noInformation', text: '暫無資訊' } });
    expect((await inLanguage('/biz/relation/graph', { phone: who.fPhone, relations: [] }, 'en-US')).reason).toMatchObject({ code: 'intel.relationsRequired', text: 'Choose at least one relation type' });
    expect((await inLanguage('/biz/t-tenant-house/userLeaseRecord', {}, 'en-US')).reason).toMatchObject({ code: 'intel.personRequired', text: 'The person is required' });
  });

  it('answers the profile panels', async () => {
    const info = await s.call('/system/t-sys-user/getUserInfo', { userId: who.fId }, admin);
    expect(info.body.data).toMatchObject({ chineseName: who.fChineseName, phone: maskPhone(who.fPhone), idcard: maskIdcard(who.fIdcard) });
    expect(leaked(info.body)).toEqual([]);
    expect((await s.call('/system/t-sys-user/getUserInfo', { phone: '123' }, admin)).body.message).toBe(MESSAGES.phone);
    expect((await s.call('/system/t-sys-user/getUserInfo', { userId: 99999999 }, admin)).body.message).toBe(MESSAGES.none);
    // The user page's call on the same path still answers the account.
    expect((await s.call('/system/t-sys-user/getUserInfo', { id: who.fId }, admin)).body.data.fPhone).toBe(who.fPhone);
    const detail = await s.call('/system/t-sys-user/getUserData', { phone: who.fPhone }, admin);
    expect(detail.body.data).toMatchObject({ userId: who.fId, phone: maskPhone(who.fPhone), idcard: maskIdcard(who.fIdcard) });
    expect(detail.body.data.phonebook.length).toBeGreaterThan(0);
    // Each phone-book number masked, with the handle that names it to the other lookups.
    const [entry] = await s.sql(`select f_name, f_number from t_address_book where f_user_id = ${who.fId} order by f_id limit 1`);
    expect(detail.body.data.phonebook[0]).toMatchObject({ name: entry.fName, number: maskPhone(entry.fNumber), node: expect.stringMatching(/^p\.[\w-]+$/) });
    expect(leaked(detail.body)).toEqual([]);

    const leases = await s.call('/biz/t-tenant-house/userLeaseRecord', { fUserId: who.fId }, admin);
    const all = [...leases.body.data.shortTenant, ...leases.body.data.tenant];
    expect(all.length).toBeGreaterThan(0);
    expect(all[0]).toMatchObject({ fStatus: expect.any(Number), tRentalHouse: { fStreetName: expect.any(String), fHouseName: expect.any(String) } });
    expect(all[0].fStartTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await s.call('/biz/t-tenant-house/userLeaseRecord', {}, admin)).body.message).toBe('人员不能为空');

    const locks = await s.call('/biz/t-lock-record/pageList', { current: 1, size: 50, condition: { fUserId: who.fId, startTime: '2000-01-01 00:00:00', fType: 1 } }, admin);
    expect(locks.body.data.records.length).toBeGreaterThan(0);
    expect(locks.body.data.size).toBe(50);
    expect([5, 27, 25, 1, 22, 17]).toContain(locks.body.data.records[0].fLockType);
    expect(locks.body.data.records[0].tRentalHouse.fHouseName).toBeTruthy();
    const future = await s.call('/biz/t-lock-record/pageList', { current: 1, size: 50, condition: { fUserId: who.fId, startTime: '2999-01-01 00:00:00', fType: 1 } }, admin);
    expect(future.body.data.records).toEqual([]);

    const trail = await s.call('/biz/t-location-record/userLocationRecord', { fUserId: who.fId }, admin);
    expect(trail.body.data.length).toBeGreaterThan(0);
    expect(trail.body.data[0]).toHaveProperty('fCtime');
    const apps = await s.call('/biz/t-user-app/userAppList', { id: who.fId }, admin);
    expect(Array.isArray(apps.body.data)).toBe(true);

    const related = await s.call('/biz/t-address-book/addressBookRelation', { phone: who.fPhone }, admin);
    const tags = new Set(related.body.data.list.map((r: { tag: string }) => r.tag));
    expect(tags.has('address')).toBe(true);
    expect(tags.has('tother')).toBe(true);
    expect(related.body.data.houses.length).toBeGreaterThan(0);
    for (const r of related.body.data.list) expect(r).toMatchObject({ number: expect.stringMatching(/\*/), node: expect.stringMatching(/^p\./) });
    expect(leaked(related.body)).toEqual([]);
    // The profile asks by user id: the same people.
    expect((await s.call('/biz/t-address-book/addressBookRelation', { userId: who.fId }, admin)).body.data).toEqual(related.body.data);
  });

  it('lists each related person once per tag: mutual phone-book entries are one person, both ways', async () => {
    const [other] = await s.sql(`select f_id, f_phone from t_sys_user where f_id <> ${who.fId} and f_phone ~ '^1[3-9][0-9]{9}$' order by f_id desc limit 1`);
    // Each in the other's phone book.
    await s.sql(`insert into t_address_book (f_user_id, f_name, f_number)
      select a.f_id, b.f_chinese_name, b.f_phone from t_sys_user a, t_sys_user b where (a.f_id, b.f_id) in ((${who.fId}, ${other.fId}), (${other.fId}, ${who.fId}))`);
    const related = await s.call('/biz/t-address-book/addressBookRelation', { phone: who.fPhone }, admin);
    const list = related.body.data.list as { number: string; node: string; tag: string; direction?: string }[];
    const keys = list.map((r) => `${r.tag}:${r.node}`);
    expect(new Set(keys).size).toBe(keys.length);
    // The other's handle, as a lookup of their phone names it (the graph's centre).
    const otherNode = (await s.call('/biz/relation/expand', { phone: other.fPhone, relations: [1] }, admin)).body.data.center;
    expect(list.filter((r) => r.node === otherNode && r.tag === 'address')).toMatchObject([{ direction: 'both', number: maskPhone(other.fPhone) }]);
    expect(leaked(related.body)).toEqual([]);
  });

  it('draws the relation graph of a seeded phone and expands a node', async () => {
    const graph = (body: object) => s.call('/biz/relation/graph', body, admin);
    expect((await graph({ phone: '', relations: [1] })).body.message).toBe(MESSAGES.empty);
    expect((await graph({ phone: who.fPhone, relations: [] })).body.message).toBe(MESSAGES.relations);
    expect((await graph({ phone: '10000000000', relations: [1] })).body.message).toBe(MESSAGES.phone);
    expect((await graph({ idcard: '1234567890123456', relations: [1] })).body.message).toBe(MESSAGES.length);
    expect((await graph({ idcard: '110101199001011234', relations: [1] })).body.message).toBe(MESSAGES.none);

    const { body } = await graph({ phone: who.fPhone, relations: [1, 2, 3] });
    expect(body.success).toBe(true);
    expect(leaked(body)).toEqual([]);
    const { nodeList, relationshipList, houses, center } = body.data;
    const ids = new Set(nodeList.map((n: { id: string }) => n.id));
    // The start phone's node: named by its handle, its number masked, owned by its person.
    expect(center).toMatch(/^p\.[\w-]+$/);
    expect(nodeList.find((n: any) => n.id === center)).toMatchObject({ nodetype: 'phone', properties: { number: maskPhone(who.fPhone), userId: who.fId, owner: `u${who.fId}` } });
    expect(nodeList.find((n: any) => n.id === `u${who.fId}`)).toMatchObject({ nodetype: 'person', properties: { number: maskPhone(who.fPhone), userId: who.fId } });
    for (const n of nodeList) {
      expect(n).toMatchObject({ id: expect.any(String), nodetype: expect.stringMatching(/^(person|phone)$/), properties: { name: expect.any(String), number: expect.any(String) } });
      expect(n.id).toMatch(n.nodetype === 'phone' ? /^p\./ : /^u\d+$/);
    }
    for (const e of relationshipList) {
      expect(['address', 'tother', 'totherHouse']).toContain(e.properties.type);
      expect(ids.has(e.startNodeId) && ids.has(e.endNodeId)).toBe(true);
    }
    expect(relationshipList.some((e: any) => e.properties.type === 'tother')).toBe(true);
    expect(houses[0]).toMatchObject({ areaName: expect.any(String), streetName: expect.any(String), houseName: expect.any(String), roomNum: expect.any(String) });

    // Only the phone book: no co-resident edges.
    const book = await graph({ idcard: who.fIdcard, relations: [1] });
    expect(book.body.data.relationshipList.every((e: any) => e.properties.type === 'address')).toBe(true);
    expect(book.body.data.center).toBe(center);
    expect(leaked(book.body)).toEqual([]);
    // By user id (the profile's link) and by the start's handle: the same graph.
    expect((await graph({ userId: who.fId, relations: [1, 2, 3] })).body.data).toEqual(body.data);
    expect((await graph({ node: center, relations: [1, 2, 3] })).body.data).toEqual(body.data);

    // A contact of the phone book: expanded by its handle as by its number, the same neighbours.
    const [entry] = await s.sql(`select f_number from t_address_book where f_user_id = ${who.fId} order by f_id limit 1`);
    const byPhone = await s.call('/biz/relation/expand', { phone: entry.fNumber, relations: [1, 2, 3] }, admin);
    const contact = byPhone.body.data.center as string;
    expect(relationshipList.some((e: any) => e.properties.type === 'address' && e.startNodeId === center && e.endNodeId === contact)).toBe(true);
    const expanded = await s.call('/biz/relation/expand', { node: contact, relations: [1, 2, 3] }, admin);
    expect(expanded.body.success).toBe(true);
    expect(expanded.body.data).toEqual(byPhone.body.data);
    expect(expanded.body.data.nodeList.some((n: any) => n.id === contact)).toBe(true);
    expect(expanded.body.data.nodeList.some((n: any) => n.id === center)).toBe(true);
    expect(expanded.body.data.relationshipList.some((e: any) => e.startNodeId === contact || e.endNodeId === contact)).toBe(true);
    expect(leaked(expanded.body)).toEqual([]);
    // The drawer's lookups by the handle: the contact's detail (when a user) and related people.
    const related = await s.call('/biz/t-address-book/addressBookRelation', { node: contact }, admin);
    expect(related.body.data).toEqual((await s.call('/biz/t-address-book/addressBookRelation', { phone: entry.fNumber }, admin)).body.data);
    expect(leaked(related.body)).toEqual([]);
    const detail = await s.call('/system/t-sys-user/getUserData', { node: center }, admin);
    expect(detail.body.data).toMatchObject({ userId: who.fId, phone: maskPhone(who.fPhone) });
    expect(leaked(detail.body)).toEqual([]);
  });

  it('refuses a handle this server did not seal, and a phone named twice', async () => {
    const center = (await s.call('/biz/relation/graph', { phone: who.fPhone, relations: [1] }, admin)).body.data.center as string;
    const flipped = center.slice(0, 10) + (center[10] === 'A' ? 'B' : 'A') + center.slice(11);
    const otherKey = phoneHandles(randomBytes(32), randomBytes(32)).seal(who.fPhone);
    const forged = ['p.' + randomBytes(40).toString('base64url'), flipped, otherKey, center.slice(2), 'p.', center.slice(0, -4)];
    const calls: [string, object][] = [
      ['/biz/relation/expand', { relations: [1] }],
      ['/biz/relation/graph', { relations: [1] }],
      ['/biz/t-address-book/addressBookRelation', {}],
      ['/system/t-sys-user/getUserData', {}],
      ['/system/t-sys-user/getUserInfo', {}],
    ];
    for (const [path, body] of calls) {
      for (const node of forged) expect((await s.call(path, { ...body, node }, admin)).body, `${path} ${node}`).toMatchObject({ success: false, message: MESSAGES.phone });
      expect((await s.call(path, { ...body, node: center }, admin)).body.success, path).toBe(true);
      expect((await s.call(path, { ...body, node: center, phone: who.fPhone }, admin)).body.success, path).toBe(false);
    }
  });

  it('opens a handle only for a person the caller may look up', async () => {
    const officer = await s.login(OFFICER);
    // A tenant of the officer's jurisdiction, and a person outside it (the administrator's own phone).
    const tenants = await s.call('/system/t-sys-user/pageList', { current: 1, size: 1, condition: { userType: 2 } }, officer);
    const tenant = tenants.body.data.records[0].fId as number;
    const mine = await s.call('/biz/relation/graph', { userId: tenant, relations: [1, 2, 3] }, officer);
    expect(mine.body.success).toBe(true);
    expect(leaked(mine.body)).toEqual([]);
    const inside = mine.body.data.center as string;
    expect((await s.call('/biz/relation/expand', { node: inside, relations: [1, 2, 3] }, officer)).body.success).toBe(true);
    expect((await s.call('/system/t-sys-user/getUserData', { node: inside }, officer)).body.data.userId).toBe(tenant);
    expect((await s.call('/biz/t-address-book/addressBookRelation', { node: inside }, officer)).body.success).toBe(true);

    const outside = (await s.call('/biz/relation/expand', { phone: ADMIN.phone, relations: [1] }, admin)).body.data.center as string;
    const [{ fId: adminId }] = await s.sql(`select f_id from t_sys_user where f_phone = '${ADMIN.phone}'`);
    for (const [path, body] of [
      ['/biz/relation/expand', { node: outside, relations: [1, 2, 3] }],
      ['/biz/relation/graph', { node: outside, relations: [1, 2, 3] }],
      ['/biz/t-address-book/addressBookRelation', { node: outside }],
      ['/system/t-sys-user/getUserData', { node: outside }],
      ['/biz/t-address-book/addressBookRelation', { userId: adminId }],
      ['/biz/relation/graph', { userId: adminId, relations: [1] }],
    ] as const) {
      expect((await s.call(path, body, officer)).body, path).toMatchObject({ success: false, message: MESSAGES.none });
    }
  });

  it('logs every lookup with the phone and ID number masked', async () => {
    await s.call('/biz/hologram/search', { idcard: who.fIdcard }, admin);
    const rows = await s.sql(`select logname, message, user_name, ip, succeed from t_sys_log where logname like 'intel.%' order by id`);
    expect(rows.length).toBeGreaterThan(8);
    const names = new Set(rows.map((r) => r.logname));
    for (const n of ['search', 'profile', 'leases', 'locks', 'locations', 'apps', 'related', 'graph', 'expand', 'person']) expect(names.has(`intel.${n}`)).toBe(true);
    const all = rows.map((r) => r.message).join('\n');
    expect(all).not.toContain(who.fPhone);
    expect(all).not.toContain(who.fIdcard);
    // No full number of anyone, the phones opened from handles included; nor a handle.
    expect(leaked(all)).toEqual([]);
    expect(all).not.toMatch(/p\.[\w-]{20,}/);
    expect(all).toContain(`${who.fPhone.slice(0, 3)}****${who.fPhone.slice(7)}`);
    expect(all).toContain(`${who.fIdcard.slice(0, 6)}********${who.fIdcard.slice(14)}`);
    const last = rows[rows.length - 1];
    expect(last).toMatchObject({ logname: 'intel.search', userName: '系****', succeed: 1 }); // the operator's name is masked too
    expect(last.ip).toBeTruthy();
    // A refused search is logged too, as a failure.
    expect(rows.some((r) => r.succeed === 0)).toBe(true);
  });

  it('refuses every call without hologram:sch (HTTP 401)', async () => {
    const calls: [string, object][] = [
      ['/biz/hologram/search', { phone: who.fPhone }],
      ['/system/t-sys-user/getUserInfo', { userId: who.fId }],
      ['/system/t-sys-user/getUserData', { phone: who.fPhone }],
      ['/biz/t-tenant-house/userLeaseRecord', { fUserId: who.fId }],
      ['/biz/t-lock-record/pageList', { current: 1, size: 50, condition: { fUserId: who.fId, fType: 1 } }],
      ['/biz/t-location-record/userLocationRecord', { fUserId: who.fId }],
      ['/biz/t-user-app/userAppList', { id: who.fId }],
      ['/biz/t-address-book/addressBookRelation', { phone: who.fPhone }],
      ['/biz/relation/graph', { phone: who.fPhone, relations: [1, 2, 3] }],
      ['/biz/relation/expand', { phone: who.fPhone, relations: [1] }],
    ];
    for (const [path, body] of calls) {
      const res = await s.call(path, body, agent);
      expect(res.status, path).toBe(401);
    }
    const before = await s.sql(`select count(*)::int as n from t_sys_log where message like '%${who.fPhone}%'`);
    expect(before[0].n).toBe(0);
  });
});

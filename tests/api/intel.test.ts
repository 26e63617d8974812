import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, backends, startServer, type TestServer } from './harness';
import { maskIdcard } from '../../adapters/personal';

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

  beforeAll(async () => {
    s = await startServer(backend);
    [admin, agent] = [await s.login(ADMIN), await s.login(AGENT)];
    [who] = await s.sql(`
      select u.f_id, u.f_phone, u.f_idcard, u.f_chinese_name from t_tenant_house t join t_sys_user u on u.f_id = t.f_user_id
      where t.f_status = 2 and exists (select 1 from t_address_book b where b.f_user_id = u.f_id)
        and exists (select 1 from t_tenant_house o where o.f_room_id = t.f_room_id and o.f_user_id <> t.f_user_id and o.f_status = 2)
      order by t.f_id limit 1`);
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
  }, 60_000);

  it('searches by phone or ID number with every validation message', async () => {
    const search = (body: object) => s.call('/biz/hologram/search', body, admin);
    expect((await search({ keyword: '' })).body).toMatchObject({ success: false, message: MESSAGES.empty });
    expect((await search({ keyword: '12345678901' })).body.message).toBe(MESSAGES.phone);
    expect((await search({ keyword: '1234' })).body.message).toBe(MESSAGES.length);
    expect((await search({ keyword: '44010619900101123Y' })).body.message).toBe(MESSAGES.idcard);
    expect((await search({ phone: '13912345670' })).body).toMatchObject({ success: false, message: MESSAGES.none });
    const byPhone = await search({ phone: who.fPhone });
    expect(byPhone.body).toMatchObject({ success: true, data: { userId: who.fId, chineseName: who.fChineseName, phone: who.fPhone, idcard: maskIdcard(who.fIdcard) } });
    expect(byPhone.body.data).toHaveProperty('workUnit');
    expect(byPhone.body.data).toHaveProperty('lastloginDate');
    const byId = await search({ idcard: who.fIdcard.toLowerCase() });
    expect(byId.body.data.userId).toBe(who.fId);
  });

  it('answers the profile panels', async () => {
    const info = await s.call('/system/t-sys-user/getUserInfo', { userId: who.fId }, admin);
    expect(info.body.data).toMatchObject({ chineseName: who.fChineseName, phone: who.fPhone, idcard: maskIdcard(who.fIdcard) });
    expect((await s.call('/system/t-sys-user/getUserInfo', { phone: '123' }, admin)).body.message).toBe(MESSAGES.phone);
    expect((await s.call('/system/t-sys-user/getUserInfo', { userId: 99999999 }, admin)).body.message).toBe(MESSAGES.none);
    // The user page's call on the same path still answers the account.
    expect((await s.call('/system/t-sys-user/getUserInfo', { id: who.fId }, admin)).body.data.fPhone).toBe(who.fPhone);
    const detail = await s.call('/system/t-sys-user/getUserData', { phone: who.fPhone }, admin);
    expect(detail.body.data.phonebook.length).toBeGreaterThan(0);
    expect(detail.body.data.phonebook[0]).toHaveProperty('number');

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
  });

  it('lists each related person once per tag: mutual phone-book entries are one person, both ways', async () => {
    const [other] = await s.sql(`select f_id, f_phone from t_sys_user where f_id <> ${who.fId} and f_phone ~ '^1[3-9][0-9]{9}$' order by f_id desc limit 1`);
    // Each in the other's phone book.
    await s.sql(`insert into t_address_book (f_user_id, f_name, f_number)
      select a.f_id, b.f_chinese_name, b.f_phone from t_sys_user a, t_sys_user b where (a.f_id, b.f_id) in ((${who.fId}, ${other.fId}), (${other.fId}, ${who.fId}))`);
    const related = await s.call('/biz/t-address-book/addressBookRelation', { phone: who.fPhone }, admin);
    const list = related.body.data.list as { number: string; tag: string; direction?: string }[];
    const keys = list.map((r) => `${r.tag}:${r.number}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(list.filter((r) => r.number === other.fPhone && r.tag === 'address')).toMatchObject([{ direction: 'both' }]);
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
    const { nodeList, relationshipList, houses } = body.data;
    const ids = new Set(nodeList.map((n: { id: string }) => n.id));
    expect(ids.has(who.fPhone)).toBe(true);
    expect(ids.has(`u${who.fId}`)).toBe(true);
    for (const n of nodeList) expect(n).toMatchObject({ id: expect.any(String), nodetype: expect.stringMatching(/^(person|phone)$/), properties: { name: expect.any(String), number: expect.any(String) } });
    for (const e of relationshipList) {
      expect(['address', 'tother', 'totherHouse']).toContain(e.properties.type);
      expect(ids.has(e.startNodeId) && ids.has(e.endNodeId)).toBe(true);
    }
    expect(relationshipList.some((e: any) => e.properties.type === 'tother')).toBe(true);
    expect(houses[0]).toMatchObject({ areaName: expect.any(String), streetName: expect.any(String), houseName: expect.any(String), roomNum: expect.any(String) });

    // Only the phone book: no co-resident edges.
    const book = await graph({ idcard: who.fIdcard, relations: [1] });
    expect(book.body.data.relationshipList.every((e: any) => e.properties.type === 'address')).toBe(true);

    const contact = relationshipList.find((e: any) => e.properties.type === 'address' && e.startNodeId === who.fPhone).endNodeId;
    const expanded = await s.call('/biz/relation/expand', { phone: contact, relations: [1, 2, 3] }, admin);
    expect(expanded.body.success).toBe(true);
    expect(expanded.body.data.nodeList.some((n: any) => n.id === contact)).toBe(true);
    expect(expanded.body.data.relationshipList.some((e: any) => e.startNodeId === contact || e.endNodeId === contact)).toBe(true);
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

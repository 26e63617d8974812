import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer } from './harness';
import { searchingText } from '../../server/crud/query';
import { scope } from '../../server/devices/device';
import type { Query, User } from '../../server/crud/types';

describe.each(backends)('devices on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let user: string;
  let productId: number;
  beforeAll(async () => {
    s = await startServer(backend);
    [admin, agent, user] = [await s.login(ADMIN), await s.login(AGENT), await s.login(USER)];
    [{ fId: productId }] = await s.sql(`select f_id from t_product where f_number = 'P-4G-SW'`);
  });
  afterAll(() => s?.close());

  it('lists with paging, product filter and keyword by number or name', async () => {
    const page = await s.call('/biz/t-device/devices', { current: 1, size: 5 }, admin);
    expect(page.body.data.records).toHaveLength(5);
    // 22 switches and gateways, and the 30 door locks and access controls of the rental houses.
    expect(page.body.data.total).toBe(52);
    expect(page.body.data.records[0].tProduct.fName).toBeTruthy();
    const byProduct = await s.call('/biz/t-device/devices', { condition: { product_id: productId } }, admin);
    expect(byProduct.body.data.total).toBe(4);
    const byNumber = await s.call('/biz/t-device/devices', { condition: { keyword: '000003', select_type: 1 } }, admin);
    expect(byNumber.body.data.records.map((d: any) => d.fNumber)).toEqual(['DEV000003']);
    const byNameOnly = await s.call('/biz/t-device/devices', { condition: { keyword: '000003', select_type: 2 } }, admin);
    expect(byNameOnly.body.data.total).toBe(0);
    const either = await s.call('/biz/t-device/devices', { condition: { keyword: '演示设备1' } }, admin);
    expect(either.body.data.total).toBeGreaterThan(1);
  });

  it("tells the planner what a text search's ilike costs, in the search's own transaction only", async () => {
    const setting = () => s.db.selectNoFrom(sql<string>`current_setting('cpu_operator_cost')`.as('c'));
    expect(await searchingText(s.db, setting())).toEqual([{ c: '0.025' }]);
    expect((await setting().execute())[0].c).toBe('0.0025');
    // The list takes that way when a text filter is given, and answers the same.
    const byNumber = await s.call('/biz/t-device/devices', { condition: { keyword: 'dev00000', select_type: 1 }, size: 20 }, admin);
    expect(byNumber.body.data.total).toBe(9);
    expect(byNumber.body.data.records.map((d: any) => d.fNumber)).toEqual(Array.from({ length: 9 }, (_, i) => `DEV00000${9 - i}`));
  });

  it('counts all, online, offline and not activated, per product too', async () => {
    await s.sql(`update t_device set t_online = 1 where f_number in ('DEV000001', 'DEV000002')`);
    const all = await s.call('/biz/t-device/total?productId=', {}, admin);
    expect(all.body.data).toEqual({ allCount: 52, onlineCount: 2, onlineNotCount: 50, noCount: 6 });
    const one = await s.call(`/biz/t-device/total?productId=${productId}`, {}, admin);
    expect(one.body.data.allCount).toBe(4);
    // The administrator's counters are kept; each agrees with a count of the devices, per product too,
    // after an activation and with a state no device list names (none).
    await s.sql(`update t_device set f_status = null where f_number = 'DEV000003'`);
    const [inactive] = await s.sql(`select f_id from t_device where f_status = 0 order by f_id limit 1`);
    expect((await s.call('/biz/t-device/activation', { fId: inactive.fId }, admin)).body.success).toBe(true);
    for (const where of ['true', `f_product_id = ${productId}`]) {
      const [counted] = await s.sql(`select count(*)::int as "allCount", (count(*) filter (where t_online = 1))::int as "onlineCount",
        (count(*) filter (where coalesce(t_online, 0) = 0))::int as "onlineNotCount", (count(*) filter (where coalesce(f_status, 0) = 0))::int as "noCount" from t_device where ${where}`);
      const answered = await s.call(`/biz/t-device/total`, where === 'true' ? {} : { productId }, admin);
      expect(answered.body.data).toEqual(counted);
    }
  });

  it('answers the list total from the device counters exactly as a count, for every filter combination', async () => {
    await s.sql(`update t_device set t_online = 1 where f_number in ('DEV000001', 'DEV000005')`);
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'true'],
      [{ product_id: productId }, `f_product_id = ${productId}`],
      [{ online: 1 }, 't_online = 1'],
      [{ online: 0 }, 't_online = 0'],
      [{ product_id: productId, online: 1 }, `f_product_id = ${productId} and t_online = 1`],
      [{ product_id: productId, online: '0' }, `f_product_id = ${productId} and t_online = 0`],
      [{ status: 1, online: 1 }, 'f_status = 1 and t_online = 1'],
      [{ status: 0 }, 'f_status = 0'],
      [{ product_id: productId, status: '1' }, `f_product_id = ${productId} and f_status = 1`],
      [{ keyword: 'DEV', online: 1 }, "(f_number ilike '%DEV%' or f_name ilike '%DEV%') and t_online = 1"],
    ];
    for (const [condition, where] of cases) {
      const [{ n }] = await s.sql(`select count(*)::int as n from t_device where ${where}`);
      const page = await s.call('/biz/t-device/devices', { current: 1, size: 5, condition }, admin);
      expect([condition, page.body.data.total]).toEqual([condition, n]);
    }
    // An agent's total is its own devices, counted.
    const [{ mine }] = await s.sql(`select count(*)::int as mine from t_device d join t_sys_user u on u.f_id = d.f_user_id where u.f_phone = '${AGENT.phone}'`);
    expect((await s.call('/biz/t-device/devices', { current: 1, size: 5 }, agent)).body.data.total).toBe(mine);
  });

  it('scopes rows: administrator all, agent its own, ordinary user its own and shared ones', async () => {
    await s.call('/biz/t-device/addorupdate', { fNumber: 'ADMIN-ONLY', fProductId: productId }, admin);
    const count = async (token: string) => (await s.call('/biz/t-device/devices', { size: 100 }, token)).body.data.total;
    expect(await count(admin)).toBe(53);
    expect(await count(agent)).toBe(52);
    expect(await count(user)).toBe(5);
    const [hidden] = await s.sql(`select f_id from t_device where f_number = 'ADMIN-ONLY'`);
    expect((await s.call('/biz/t-device/device', { fId: hidden.fId }, agent)).body.success).toBe(false);
    expect((await s.call('/biz/t-device/total', {}, user)).body.data.allCount).toBe(5);
  });

  it("finds an ordinary user's shared devices once, not by testing every device against them", async () => {
    const [u] = await s.sql(`select f_id from t_sys_user where f_phone = '${USER.phone}'`);
    const compiled = scope(s.db.selectFrom('t_device').select('t_device.fId') as Query, { fId: u.fId, fAdmin: 0 } as User).compile();
    const plan = (await s.db.executeQuery<Record<string, string>>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]))).rows.map((r) => Object.values(r)[0]).join('\n');
    // `in (…)` inside the scope's `or` was a SubPlan run against each row of t_device; the array is an
    // InitPlan worked out once, which the primary key's index then answers.
    expect(plan).toContain('InitPlan');
    expect(plan).not.toContain('SubPlan');
  });

  it('validates with the spec messages', async () => {
    expect((await s.call('/biz/t-device/addorupdate', { fProductId: productId }, admin)).body.message).toBe('设备编号不能为空');
    expect((await s.call('/biz/t-device/addorupdate', { fNumber: 'X1' }, admin)).body.message).toBe('所属产品不能为空');
    expect((await s.call('/biz/t-device/addorupdate', { fNumber: 'DEV000001', fProductId: productId }, admin)).body.message).toBe('设备编号已存在');
    expect((await s.call('/biz/t-device/addorupdate', { fNumber: 'X2', fProductId: 99999 }, admin)).body.message).toBe('所属产品不存在');
  });

  it('keeps product, number, IMEI and ICCID on edit and takes the type from the product', async () => {
    const created = await s.call('/biz/t-device/addorupdate', { fNumber: 'EDIT-1', fProductId: productId, fImei: '860000000000001', fIccid: '8986000000000000001' }, agent);
    expect(created.body).toMatchObject({ success: true, message: '设备保存成功' });
    expect(created.body.data.fTypeId).toBe(3);
    expect(created.body.data.fUserId).toBeGreaterThan(0);
    const [other] = await s.sql(`select f_id from t_product where f_number = 'P-GW-WIFI'`);
    const edited = await s.call('/biz/t-device/addorupdate', { fId: created.body.data.fId, fNumber: 'CHANGED', fProductId: other.fId, fImei: 'x', fIccid: 'y', fName: '新名字' }, agent);
    expect(edited.body.data).toMatchObject({ fNumber: 'EDIT-1', fProductId: productId, fImei: '860000000000001', fIccid: '8986000000000000001', fName: '新名字' });
  });

  it('activates and deregisters, then deletes', async () => {
    const created = await s.call('/biz/t-device/addorupdate', { fNumber: 'LIFE-1', fProductId: productId }, admin);
    const fId = created.body.data.fId;
    expect(created.body.data.fStatus).toBe(0);
    expect((await s.call('/biz/t-device/able-device', { fId }, admin)).body.message).toBe('设备激活成功');
    expect((await s.call('/biz/t-device/device', { fId }, admin)).body.data.fStatus).toBe(1);
    expect((await s.call('/biz/t-device/disable-device', { fId }, admin)).body.message).toBe('设备注销成功');
    expect((await s.call('/biz/t-device/device', { fId }, admin)).body.data.fStatus).toBe(0);
    const activated = await s.call('/biz/t-device/activation', { fId }, admin);
    expect(activated.body.success).toBe(true);
    const row = (await s.call('/biz/t-device/device', { fId }, admin)).body.data;
    expect(row).toMatchObject({ fStatus: 1, fVerify: 1 });
    expect(row.fRegisteredDate).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await s.call('/biz/t-device/del', { fId }, admin)).body.message).toBe('设备删除成功');
    expect((await s.call('/biz/t-device/device', { fId }, admin)).body.success).toBe(false);
  });

  it('refuses the ordinary user what its role lacks', async () => {
    const [mine] = await s.sql(`select d.f_id from t_device d join t_user_device u on u.f_device_id = d.f_id limit 1`);
    const del = await s.call('/biz/t-device/del', { fId: mine.fId }, user);
    expect(del.status).toBe(401);
    expect((await s.call('/biz/t-device/able-device', { fId: mine.fId }, user)).status).toBe(401);
  });

  it('answers dictionary lookups', async () => {
    const { body } = await s.call('/system/t-sys-dic/getdic', { key: 'Product_Category' }, user);
    expect(body.data.map((d: any) => d.fContent)).toContain('智能开关');
  });
});

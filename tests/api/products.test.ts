import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer } from './harness';

const valid = { fNumber: 'P-TEST-1', fName: '测试产品', fCategoryId: 1, fProtocol: 1, fDeviceType: 3 };

describe.each(backends)('products on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login(ADMIN);
  });
  afterAll(() => s?.close());

  it('pages 12 by default with device counts', async () => {
    for (let i = 0; i < 10; i++) await s.call('/biz/t-product/addorupdate', { ...valid, fNumber: `P-PAGE-${i}` }, admin);
    const { body } = await s.call('/biz/t-product/products', { current: 1 }, admin);
    expect(body.data.size).toBe(12);
    expect(body.data.records).toHaveLength(12);
    expect(body.data.total).toBe(18);
    const second = await s.call('/biz/t-product/products', { current: 2 }, admin);
    expect(second.body.data.records).toHaveLength(6);
    const seeded = second.body.data.records.find((p: any) => p.fNumber === 'P-SW-485') ?? body.data.records.find((p: any) => p.fNumber === 'P-SW-485');
    expect(seeded.deviceCount).toBe(4);
  });

  it('filters by the declared conditions and ignores unknown ones', async () => {
    const byName = await s.call('/biz/t-product/products', { condition: { name: '网关' } }, admin);
    expect(byName.body.data.records.map((p: any) => p.fNumber).sort()).toEqual(['P-GW-4G', 'P-GW-WIFI']);
    const byType = await s.call('/biz/t-product/products', { condition: { deviceType: 6 } }, admin);
    expect(byType.body.data.records.map((p: any) => p.fNumber)).toEqual(['P-RG-MCCB']);
    const injected = await s.call('/biz/t-product/products', { condition: { "fName' or 1=1 --": 'x' }, orders: [{ column: 'f_password', asc: true }] }, admin);
    expect(injected.body.data.total).toBe(18);
  });

  it('refuses missing fields with the spec messages and saves nothing', async () => {
    const cases: [string, string][] = [
      ['fNumber', '设备编号不能为空'],
      ['fName', '设备名称不能为空'],
      ['fCategoryId', '品类不能为空'],
      ['fProtocol', '传输协议不能为空'],
      ['fDeviceType', '产品类型不能为空'],
    ];
    for (const [field, message] of cases) {
      const { status, body } = await s.call('/biz/t-product/addorupdate', { ...valid, fNumber: 'P-NEW', [field]: '' }, admin);
      expect(status).toBe(200);
      // The refusal names its field and rule, so a console shows it under the field in its language.
      expect(body).toMatchObject({ success: false, message, data: { field, rule: 'required' } });
    }
    expect((await s.call('/biz/t-product/addorupdate', { ...valid, fDeviceType: 9 }, admin)).body).toMatchObject({ success: false, data: { field: 'fDeviceType', rule: 'enum' } });
    const [{ n }] = await s.sql(`select count(*)::int as n from t_product where f_number = 'P-NEW'`);
    expect(n).toBe(0);
  });

  it('creates, refuses a duplicate number, updates and changes the publish status', async () => {
    const created = await s.call('/biz/t-product/addorupdate', valid, admin);
    expect(created.body).toMatchObject({ success: true, message: '产品保存成功' });
    const id = created.body.data.fId;
    expect(created.body.data.fStatus).toBe(0);
    expect((await s.call('/biz/t-product/addorupdate', valid, admin)).body).toMatchObject({ success: false, message: '产品编号已存在', data: { field: 'fNumber', rule: 'unique' } });
    const updated = await s.call('/biz/t-product/addorupdate', { ...created.body.data, fName: '改名产品' }, admin);
    expect(updated.body.data.fName).toBe('改名产品');
    expect((await s.call('/biz/t-product/status', { fId: id, fStatus: 1 }, admin)).body.message).toBe('产品状态修改成功');
    expect((await s.call('/biz/t-product/status', { fId: id, fStatus: 7 }, admin)).body.success).toBe(false);
    const listed = await s.call('/biz/t-product/products', { current: 1, size: 12, condition: { number: valid.fNumber } }, admin);
    expect(listed.body.data.records[0]).toMatchObject({ fId: id, fStatus: 1 });
    // The product selects' call answers the fields they show and nothing else.
    const all = await s.call('/biz/t-product/allproducts', {}, admin);
    expect(all.body.data.find((p: any) => p.fId === id)).toEqual({ fId: id, fNumber: valid.fNumber, fName: '改名产品', fDeviceType: valid.fDeviceType });
  });

  it('takes send and receive libraries of their own type, and functions that exist; refuses others and keeps the product as it was', async () => {
    const libraries = await s.sql(`select f_id, f_type from t_product_json where f_json_parent_id is null order by f_id`);
    const send = libraries.filter((l: any) => l.fType === 2).map((l: any) => l.fId);
    const receive = libraries.filter((l: any) => l.fType === 1).map((l: any) => l.fId);
    expect(send.length).toBeGreaterThan(1);
    expect(receive.length).toBeGreaterThan(0);
    const saved = await s.call('/biz/t-product/addorupdate', { ...valid, fNumber: 'P-LIB-1', fSendJsonIds: `${send[0]}, ${send[1]}`, fReceiveJsonIds: String(receive[0]) }, admin);
    expect(saved.body).toMatchObject({ code: 200, success: true });
    const [row] = await s.sql(`select f_id, f_send_json_ids, f_receive_json_ids from t_product where f_number = 'P-LIB-1'`);
    expect(row).toMatchObject({ fSendJsonIds: `${send[0]},${send[1]}`, fReceiveJsonIds: String(receive[0]) });

    const refused: [Record<string, unknown>, string, string][] = [
      // A receive library among the send ones, a library that does not exist, a list that is not one of ids.
      [{ fSendJsonIds: `${send[0]},${receive[0]}` }, '下发指令不存在', 'ref'],
      [{ fReceiveJsonIds: '999999' }, '上报指令不存在', 'ref'],
      [{ fSendJsonIds: `${send[0]},abc` }, '下发指令格式不正确', 'format'],
      [{ fFunctionIds: '999999' }, '产品功能不存在', 'ref'],
    ];
    for (const [change, message, rule] of refused) {
      const answer = await s.call('/biz/t-product/addorupdate', { ...valid, fId: row.fId, fNumber: 'P-LIB-1', ...change }, admin);
      expect(answer.body).toMatchObject({ success: false, message, data: { field: Object.keys(change)[0], rule } });
    }
    const [after] = await s.sql(`select f_send_json_ids, f_receive_json_ids, f_function_ids from t_product where f_id = ${row.fId}`);
    expect(after).toEqual({ fSendJsonIds: `${send[0]},${send[1]}`, fReceiveJsonIds: String(receive[0]), fFunctionIds: null });
    // Emptied, the lists are cleared.
    expect((await s.call('/biz/t-product/addorupdate', { ...valid, fId: row.fId, fNumber: 'P-LIB-1', fSendJsonIds: '', fReceiveJsonIds: '' }, admin)).body.success).toBe(true);
    expect((await s.sql(`select f_send_json_ids, f_receive_json_ids from t_product where f_id = ${row.fId}`))[0]).toEqual({ fSendJsonIds: null, fReceiveJsonIds: null });
    await s.call('/biz/t-product/del', { fId: row.fId }, admin);
  });

  it('refuses to delete a product with devices, deletes one without', async () => {
    const [withDevices] = await s.sql(`select f_id from t_product where f_number = 'P-SW-485'`);
    expect((await s.call('/biz/t-product/del', { fId: withDevices.fId }, admin)).body).toMatchObject({ success: false, message: '该产品下存在设备，无法删除' });
    const created = await s.call('/biz/t-product/addorupdate', { ...valid, fNumber: 'P-DEL' }, admin);
    expect((await s.call('/biz/t-product/del', { fId: created.body.data.fId }, admin)).body).toMatchObject({ success: true, message: '产品删除成功' });
  });

  it('lets the ordinary user and the agent read but not change products (HTTP 401)', async () => {
    for (const account of [USER, AGENT]) {
      const token = await s.login(account);
      expect((await s.call('/biz/t-product/products', {}, token)).body.success).toBe(true);
      const del = await s.call('/biz/t-product/del', { fId: 1 }, token);
      expect(del.status).toBe(401);
      expect(del.body.code).toBe(401);
      expect((await s.call('/biz/t-product/addorupdate', valid, token)).status).toBe(401);
    }
  });

  it('records every write in the operation log', async () => {
    const rows = await s.sql(`select logname, succeed from t_sys_log where logname like 'product.%'`);
    expect(rows.some((r) => r.logname === 'product.save' && r.succeed === 1)).toBe(true);
    expect(rows.some((r) => r.logname === 'product.delete' && r.succeed === 0)).toBe(true);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer, until } from './harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(backends)('description libraries and product commands on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let user: string;
  const id: Record<string, number> = {};
  const lib: Record<string, number> = {};

  beforeAll(async () => {
    s = await startServer(backend, { simulate: true, telemetryMs: 1000 });
    [admin, agent, user] = [await s.login(ADMIN), await s.login(AGENT), await s.login(USER)];
    for (const r of await s.sql(`select f_id, f_number from t_device`)) id[r.fNumber] = r.fId;
    for (const r of await s.sql(`select f_id, f_bid from t_product_json`)) lib[r.fBid] = r.fId;
    await until(async () => (await s.call('/biz/t-device/total', {}, admin)).body.data.onlineCount === 22, 20_000);
  }, 60_000);
  afterAll(() => s?.close());

  const config = async (deviceNumber: string, token = admin) => s.call('/biz/t-product-json/send', { fId: id[deviceNumber], fIsApp: 0, fReload: 0 }, token);
  const send = (deviceNumber: string, productJson: Record<string, unknown>, isSearch = false, token = admin) =>
    s.call('/api/emq/send', { productJson, gateWayId: id[deviceNumber], isSearch }, token);

  it('links the demo products to the demo libraries', async () => {
    const rows = await s.sql(`select f_number, f_send_json_ids, f_receive_json_ids from t_product order by f_id`);
    const byNumber = Object.fromEntries(rows.map((r) => [r.fNumber, r]));
    expect(byNumber['P-GW-WIFI'].fSendJsonIds).toBe([lib.switch, lib.lock, lib['set-threshold'], lib.refresh].join(','));
    expect(byNumber['P-GW-WIFI'].fReceiveJsonIds).toBe([lib.telemetry, lib['read-threshold']].join(','));
    expect(byNumber['P-4G-SW'].fSendJsonIds).toBe([lib.switch, lib.lock, lib.refresh].join(','));
    const page = await s.call('/biz/t-product-json/pagelist', { current: 1, size: 9999, condition: { fType: 2 } }, admin);
    expect(page.body.data.records.map((r: any) => r.fName)).toEqual(['开关控制', '设备锁', '刷新', '阈值设置']);
    const threshold = page.body.data.records.find((r: any) => r.fBid === 'set-threshold');
    expect(threshold.fSearchJsonId).toBe(lib['read-threshold']);
    expect(threshold.productNames.split(',')).toEqual(['WiFi智能网关', '4G智能网关', '塑壳断路器']);
  });

  it('keeps libraries with the spec messages: create, search, edit, delete', async () => {
    expect((await s.call('/biz/t-product-json/addorupdate', { fType: 2, fBid: 101 }, admin)).body.message).toBe('描述库名称不能为空');
    expect((await s.call('/biz/t-product-json/addorupdate', { fName: '测试', fType: 2 }, admin)).body.message).toBe('Bid不能为空');
    const created = await s.call('/biz/t-product-json/addorupdate', { fName: '网关上下线', fType: 2, fBid: 102, fDes: '测试库', fSearchJsonId: lib.switch }, admin);
    expect(created.body).toMatchObject({ success: false, message: '查询描述库必须是接收类型' });
    const ok = await s.call('/biz/t-product-json/addorupdate', { fName: '网关上下线', fType: 2, fBid: 102, fDes: '测试库', fSearchJsonId: lib['read-threshold'] }, admin);
    expect(ok.body).toMatchObject({ success: true, message: '描述库保存成功' });
    expect(ok.body.data).toMatchObject({ fBid: '102', fType: 2, fSearchJsonId: lib['read-threshold'], productNames: '' });
    const fId = ok.body.data.fId;
    const byBid = await s.call('/biz/t-product-json/pagelist', { size: 9999, condition: { fBid: '102' } }, admin);
    expect(byBid.body.data.records.map((r: any) => r.fId)).toEqual([fId]);
    const byRemark = await s.call('/biz/t-product-json/pagelist', { size: 9999, condition: { fName: '测试库' } }, admin);
    expect(byRemark.body.data.total).toBe(1);
    const all = await s.call('/biz/t-product-json/list', {}, admin);
    expect(all.body.data.length).toBeGreaterThanOrEqual(7);
    const receive = await s.call('/biz/t-product-json/addorupdate', { fId, fType: 1 }, admin);
    expect(receive.body.data.fSearchJsonId).toBeNull();

    const field = { fProductJsonId: fId, fJsonKey: 'value', fJsonName: '开关', fDataType: 1, fValueType: 'switch', fFunctionType: 'switch' };
    expect((await s.call('/biz/t-product-json-conf/addorupdate', { ...field, fJsonKey: '' }, admin)).body.message).toBe('标识符不能为空');
    expect((await s.call('/biz/t-product-json-conf/addorupdate', { ...field, fJsonName: '' }, admin)).body.message).toBe('功能点名称不能为空');
    expect((await s.call('/biz/t-product-json-conf/addorupdate', { ...field, fDataType: null }, admin)).body.message).toBe('数据类型不能为空');
    expect((await s.call('/biz/t-product-json-conf/addorupdate', { ...field, fValueType: '' }, admin)).body.message).toBe('值类型不能为空');
    expect((await s.call('/biz/t-product-json-conf/addorupdate', { ...field, fDataType: 7 }, admin)).body.message).toBe('数据类型为实体/实体数组时，下级描述库不能为空');
    expect((await s.call('/biz/t-product-json-conf/addorupdate', { ...field, fJsonDes: 'x'.repeat(1001) }, admin)).body.message).toBe('说明不能超过1000个字符');
    const saved = await s.call('/biz/t-product-json-conf/addorupdate', { ...field, productJsonConfSwitches: [{ fName: '开关' }] }, admin);
    expect(saved.body).toMatchObject({ success: true, message: '字段保存成功' });
    expect(saved.body.data.productJsonConfSwitches).toEqual([
      { fName: '开关', fOpenValue: '1', fCloseValue: '0', fOpenReadValue: null, fCloseReadValue: null, fProductJsonConfId: saved.body.data.fId },
    ]);
    expect(saved.body.data.valueTypeName).toBe('开关状态');
    expect((await s.call('/biz/t-product-json-conf/addorupdate', field, admin)).body.message).toBe('该描述库中已存在相同标识符');
    const fields = await s.call('/biz/t-product-json-conf/pagelist', { current: 1, size: 10, condition: { fProductJsonId: fId, keyword: '开' } }, admin);
    expect(fields.body.data.total).toBe(1);
    const removedField = await s.call('/biz/t-product-json-conf/del', { fId: saved.body.data.fId }, admin);
    expect(removedField.body).toMatchObject({ success: true, message: '字段删除成功' });

    const inUse = await s.call('/biz/t-product-json/del', { fId: lib.switch }, admin);
    expect(inUse.body).toMatchObject({ success: false, message: '该描述库已被产品「485智能开关」使用，无法删除' });
    expect((await s.call('/biz/t-product-json/del', { fId }, admin)).body).toMatchObject({ success: true, message: '描述库删除成功' });
  });

  it('gates the library screens and the commands by permission code', async () => {
    expect((await s.call('/biz/t-product-json/pagelist', {}, agent)).status).toBe(401);
    expect((await s.call('/biz/t-product-json-conf/addorupdate', {}, user)).status).toBe(401);
    expect((await config('DEV000009', agent)).body.success).toBe(true);
    // The ordinary user sees only its own and shared devices.
    expect((await config('DEV000009', user)).body).toMatchObject({ success: false, message: '设备不存在或无权操作' });
  });

  it('answers the command configuration of a device', async () => {
    const gateway = await config('DEV000005');
    expect(gateway.body.success).toBe(true);
    expect(gateway.body.data.map((e: any) => e.fName)).toEqual(['开关控制', '设备锁', '阈值设置', '刷新']);
    const threshold = gateway.body.data[2];
    expect(threshold).toMatchObject({ fId: lib['set-threshold'], fSearchJsonId: lib['read-threshold'] });
    const byKey = Object.fromEntries(threshold.productJsonConfs.map((c: any) => [c.fJsonKey, c]));
    expect(byKey.time).toMatchObject({ fJsonName: '上报间隔', fDataType: 1, fDefaultValue: '3600', productJsonSub: null });
    expect(byKey.alm.productJsonConfSwitches).toEqual([{ fName: '告警使能', fOpenValue: '1', fCloseValue: '0', fOpenReadValue: null, fCloseReadValue: null, defaultValue: '1' }]);
    expect(Object.keys(byKey)).toEqual(expect.arrayContaining(['bid', 'mid', 'ClientID']));
    const plain = await config('DEV000009');
    expect(plain.body.data.map((e: any) => e.fBid)).toEqual(['switch', 'lock', 'refresh']);
    expect(plain.body.data[0].productJsonConfs.find((c: any) => c.fJsonKey === 'value').productJsonConfSwitches[0]).toMatchObject({ fOpenValue: '1', fCloseValue: '0' });
  });

  it('switches a simulated device through the switch library, acknowledged', async () => {
    const off = await send('DEV000010', { fId: lib.switch, value: 0 });
    expect(off.body).toMatchObject({ success: true, message: '开关控制命令发送成功' });
    expect(off.body.data.productJson).toMatchObject({ fId: lib.switch, value: 0 });
    expect(s.devices.simulator!.device('DEV000010')!.switch).toBe(0);
    const [row] = await s.sql(`select f_state, f_bid, f_name, f_source, f_payload from t_device_command where f_device_id = ${id.DEV000010} order by f_id desc limit 1`);
    expect(row).toMatchObject({ fState: 'acknowledged', fBid: 'switch', fName: '开关控制', fSource: 'console' });
    expect(JSON.parse(row.fPayload)).toEqual({ bid: 'switch', value: 0 });
    await sleep(3100);
    // A switch widget's true is the field's open value.
    const on = await send('DEV000010', { fId: lib.switch, value: true });
    expect(on.body.data.productJson.value).toBe(1);
    expect(s.devices.simulator!.device('DEV000010')!.switch).toBe(1);
  });

  it('reaches a gateway child and locks it', async () => {
    const r = await send('DEV000002', { fId: lib.lock, value: 1 });
    expect(r.body).toMatchObject({ success: true, message: '设备锁命令发送成功', data: { productJson: { value: 1 } } });
    expect(s.devices.simulator!.device('DEV000002')!.lock).toBe(1);
  });

  it('sets thresholds with their defaults and reads them back with the query library', async () => {
    const set = await send('DEV000006', { fId: lib['set-threshold'], tHi: 90, iMut: '20000' });
    expect(set.body).toMatchObject({ success: true, message: '阈值设置命令发送成功' });
    expect(s.devices.simulator!.device('DEV000006')!.thresholds).toMatchObject({ tHi: 90, iMut: 20000, time: 3600, buad: 115200 });
    await sleep(3100);
    s.devices.simulator!.device('DEV000006')!.thresholds!.tMut = 7;
    const read = await send('DEV000006', { fId: lib['set-threshold'] }, true);
    expect(read.body).toMatchObject({ success: true, message: '阈值查询命令发送成功' });
    expect(read.body.data.productJson).toMatchObject({ fId: lib['set-threshold'], tHi: 90, iMut: 20000, tMut: 7, alm: 1, buad: 115200 });
    expect(read.body.data.productJson).not.toHaveProperty('bid');
    const [row] = await s.sql(`select f_bid, f_name from t_device_command where f_device_id = ${id.DEV000006} order by f_id desc limit 1`);
    expect(row).toMatchObject({ fBid: 'read-threshold', fName: '阈值查询' });
  });

  it('passes on what the device refuses, and refuses what the product does not offer', async () => {
    const bad = await send('DEV000007', { fId: lib['set-threshold'], tHi: 500 });
    expect(bad.body.success).toBe(false);
    expect(bad.body.message).toMatch(/参数超出范围/);
    await sleep(3100);
    expect((await send('DEV000007', { fId: lib['set-threshold'], tHi: 'abc' })).body.message).toBe('温度上限必须是整数');
    expect((await send('DEV000009', { fId: lib['set-threshold'] })).body.message).toBe('该设备的产品没有此指令');
    expect((await send('DEV000009', { fId: lib.switch }, true)).body.message).toBe('该指令没有查询功能');
    expect((await send('DEV000009', {})).body.message).toBe('请选择需要发送的指令');
  });

  it('refuses an offline device, a second click within 3 s, and a command while one is in flight', async () => {
    await s.devices.simulator!.setOnline('DEV000011', false);
    await until(async () => (await s.sql(`select t_online from t_device where f_number = 'DEV000011'`))[0].tOnline === 0);
    expect((await send('DEV000011', { fId: lib.switch, value: 0 })).body).toMatchObject({ success: false, message: '设备离线' });
    await s.devices.simulator!.setOnline('DEV000011', true);

    expect((await send('DEV000013', { fId: lib.refresh })).body).toMatchObject({ success: true, message: '刷新命令发送成功' });
    expect((await send('DEV000013', { fId: lib.refresh })).body).toMatchObject({ success: false, message: '点击太频繁，休息一下' });

    s.devices.simulator!.device('DEV000014')!.ackDelayMs = 1500;
    const slow = send('DEV000014', { fId: lib.switch, value: 0 });
    await sleep(300);
    expect((await send('DEV000014', { fId: lib.switch, value: 1 }, false, agent)).body).toMatchObject({ success: false, message: '信息发送中,请勿重复发送...' });
    expect((await slow).body.success).toBe(true);
  });
});

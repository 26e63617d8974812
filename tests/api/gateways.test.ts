import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer, until } from './harness';
import { HUGE_LIST } from '../../server/crud/query';

describe.each(backends)('gateways and alarm-cabinet thresholds on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let user: string;
  const id: Record<string, number> = {};

  beforeAll(async () => {
    s = await startServer(backend, { simulate: true, telemetryMs: 60_000 });
    [admin, agent, user] = [await s.login(ADMIN), await s.login(AGENT), await s.login(USER)];
    for (const r of await s.sql(`select f_id, f_number from t_device`)) id[r.fNumber] = r.fId;
  }, 60_000);
  afterAll(() => s?.close());

  it('lists gateway cards of types 2 and 4, 8 a page, with their first children', async () => {
    const page = await s.call('/biz/t-device/devicesmore', { current: 1, size: 8, condition: { keyword: '', select_type: 1, type_id: 2 } }, agent);
    expect(page.body).toMatchObject({ success: true });
    expect(page.body.data).toMatchObject({ total: 8, size: 8, pages: 1 });
    const types = new Set(page.body.data.records.map((r: any) => r.fTypeId));
    expect([...types].sort()).toEqual([2, 4]);
    const first = page.body.data.records.find((r: any) => r.fId === id.DEV000005);
    expect(first).toMatchObject({ gatewayDeviceLength: 4, tProduct: { fNumber: 'P-GW-WIFI' } });
    expect(first.tProduct).toHaveProperty('fImageName');
    expect(first).toHaveProperty('tOnline');
    expect(first.tGatewayDevices.map((d: any) => d.fNumber)).toEqual(['DEV000001', 'DEV000002', 'DEV000003', 'DEV000004']);
    const byNumber = await s.call('/biz/t-device/devicesmore', { current: 1, size: 8, condition: { keyword: 'DEV000006', select_type: 1 } }, agent);
    expect(byNumber.body.data.records.map((r: any) => r.fNumber)).toEqual(['DEV000006']);
    const byName = await s.call('/biz/t-device/devicesmore', { condition: { keyword: '演示设备6', select_type: 2 } }, agent);
    expect(byName.body.data.records.map((r: any) => r.fNumber)).toEqual(['DEV000006']);
    // The ordinary user sees only the gateway shared with it.
    const shared = await s.call('/biz/t-device/devicesmore', { current: 1, size: 8, condition: {} }, user);
    expect(shared.body.data.records.map((r: any) => r.fNumber)).toEqual(['DEV000005']);
  });

  it('pages the children of a gateway, 4 a page', async () => {
    const children = await s.call('/biz/t-gateway-device/devicesbygatewayid', { current: 1, size: 4, condition: { gateway_id: id.DEV000005 } }, agent);
    expect(children.body.data).toMatchObject({ total: 4, size: 4, pages: 1 });
    expect(children.body.data.records[0]).toMatchObject({ fNumber: 'DEV000001', fGatewayId: id.DEV000005 });
    const none = await s.call('/biz/t-gateway-device/devicesbygatewayid', { condition: { gateway_id: id.DEV000001 } }, agent);
    expect(none.body).toMatchObject({ success: false, message: '查询失败：网关不存在或无权操作' });
  });

  it('binds children: picker, messages, rules and codes', async () => {
    const [{ fId: productId }] = await s.sql(`select f_id from t_product where f_number = 'P-SW-485'`);
    for (let i = 1; i <= 3; i++) await s.call('/biz/t-device/addorupdate', { fNumber: `BUS-NEW-${i}`, fName: `新总线设备${i}`, fProductId: productId }, agent);
    for (const r of await s.sql(`select f_id, f_number from t_device where f_number like 'BUS-NEW-%'`)) id[r.fNumber] = r.fId;
    const picker = await s.call('/biz/t-device/devicesbygateway', { current: 1, size: 10, condition: { name: '', number: '', type_id: 1, group_id: '' } }, agent);
    expect(picker.body.data.records.map((d: any) => d.fNumber).sort()).toEqual(['BUS-NEW-1', 'BUS-NEW-2', 'BUS-NEW-3']);
    const byNumber = await s.call('/biz/t-device/devicesbygateway', { condition: { number: 'NEW-2', type_id: 1 } }, agent);
    expect(byNumber.body.data.total).toBe(1);

    expect((await s.call('/biz/t-gateway-device/add', [], agent)).body).toMatchObject({ success: false, message: '未选择网关子设备' });
    const gw = id.DEV000006;
    const add = await s.call('/biz/t-gateway-device/add', ['BUS-NEW-1', 'BUS-NEW-2', 'BUS-NEW-3'].map((n) => ({ fGatewayId: gw, fDeviceId: id[n] })), agent);
    expect(add.body).toMatchObject({ success: true, message: '网关子设备添加成功' });
    const again = await s.call('/biz/t-gateway-device/add', [{ fGatewayId: id.DEV000007, fDeviceId: id['BUS-NEW-1'] }], agent);
    expect(again.body).toMatchObject({ success: false, message: '网关子设备添加失败：设备BUS-NEW-1已绑定网关' });
    expect((await s.call('/biz/t-gateway-device/add', [{ fGatewayId: id.DEV000009, fDeviceId: id['BUS-NEW-1'] }], agent)).body.message).toBe('网关子设备添加失败：网关不存在或无权操作');
    expect((await s.call('/biz/t-gateway-device/add', [{ fGatewayId: gw, fDeviceId: id.DEV000007 }], agent)).body.message).toBe('网关子设备添加失败：网关不能作为子设备');
    expect((await s.call('/biz/t-device/devicesbygateway', { condition: { type_id: 1 } }, agent)).body.data.total).toBe(0);

    const cards = await s.call('/biz/t-device/devicesmore', { condition: { keyword: 'DEV000006', select_type: 1 } }, agent);
    expect(cards.body.data.records[0].gatewayDeviceLength).toBe(3);

    for (const path of ['/biz/t-gateway-device/add', '/biz/t-gateway-device/del', '/biz/t-device/devicesbygateway']) {
      const r = await s.call(path, [{ fGatewayId: gw, fDeviceId: id['BUS-NEW-1'] }], user);
      expect(r.status, path).toBe(401);
    }

    const del = await s.call('/biz/t-gateway-device/del', { fGatewayId: gw, fDeviceId: id['BUS-NEW-3'] }, agent);
    expect(del.body).toMatchObject({ success: true, message: '网关子设备解绑成功' });
    expect((await s.call('/biz/t-gateway-device/del', { fGatewayId: gw, fDeviceId: id['BUS-NEW-3'] }, agent)).body).toMatchObject({ success: false, message: '网关子设备解绑失败：绑定关系不存在' });
  });

  it('pages children above 4', async () => {
    // Four on DEV000005 already; a fifth makes a second page.
    await s.call('/biz/t-gateway-device/del', { fGatewayId: id.DEV000006, fDeviceId: id['BUS-NEW-2'] }, agent);
    await s.call('/biz/t-gateway-device/add', [{ fGatewayId: id.DEV000005, fDeviceId: id['BUS-NEW-2'] }], agent);
    const second = await s.call('/biz/t-gateway-device/devicesbygatewayid', { current: 2, size: 4, condition: { gateway_id: id.DEV000005 } }, agent);
    expect(second.body.data).toMatchObject({ total: 5, pages: 2 });
    expect(second.body.data.records.map((d: any) => d.fNumber)).toEqual(['BUS-NEW-2']);
  });

  it('sends a command to a newly bound child through its new gateway', async () => {
    await until(async () => (await s.sql(`select t_online from t_device where f_id = ${id.DEV000002}`))[0].tOnline === 1);
    // DEV000002 moves from DEV000005 to DEV000006; the simulated gateway still carries it on the old bus.
    expect((await s.call('/biz/t-gateway-device/del', { fGatewayId: id.DEV000005, fDeviceId: id.DEV000002 }, admin)).body.success).toBe(true);
    expect((await s.call('/biz/t-gateway-device/add', [{ fGatewayId: id.DEV000006, fDeviceId: id.DEV000002 }], admin)).body.success).toBe(true);
    const [{ last }] = await s.sql(`select coalesce(max(f_id), 0) as last from t_emq_message_publish`);
    const sent = await s.call('/app/device/send-switch', { deviceId: id.DEV000002, onOff: 0 }, admin);
    expect(sent.body.success).toBe(false);
    expect(sent.body.message).toBe('子设备不存在');
    // The log is written by the ingest's batches, a moment after the command went out.
    const down = await until(async () => (await s.sql(`select f_device_number, f_payload from t_emq_message_publish where f_id > ${Number(last)} and f_direction = 'down' and f_payload like '%DEV000002%' order by f_id desc limit 1`))[0]);
    expect(down.fDeviceNumber).toBe('DEV000006');
    expect(JSON.parse(down.fPayload).Children).toEqual(['DEV000002']);
    // Back on its own bus, the same command reaches the device.
    await s.call('/biz/t-gateway-device/del', { fGatewayId: id.DEV000006, fDeviceId: id.DEV000002 }, admin);
    await s.call('/biz/t-gateway-device/add', [{ fGatewayId: id.DEV000005, fDeviceId: id.DEV000002 }], admin);
    await new Promise((r) => setTimeout(r, 3100));
    const back = await s.call('/app/device/send-switch', { deviceId: id.DEV000002, onOff: 0 }, admin);
    expect(back.body.success).toBe(true);
    expect(s.devices.simulator!.device('DEV000002')!.switch).toBe(0);
  });

  it('keeps alarm-cabinet rows per device with their rules', async () => {
    const dev = id.DEV000009;
    const save = (body: object, token = agent) => s.call('/biz/t-device-alarm-cabinet/addorupdate', { fDeviceId: dev, fUnit: 'ppm', fGasEn: 'CO', ...body }, token);
    const created = await save({});
    expect(created.body).toMatchObject({ success: true, message: '保存成功' });
    expect(created.body.data).toMatchObject({ fSwitch: 1, fMin: 0, fMax: 100, fAlarmOne: 100, fAlarmTwo: 100, fState: 0, fUnit: 'ppm', fGasEn: 'CO' });
    expect(created.body.data.fBeginTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await save({ fUnit: '' })).body.message).toBe('请先选择单位');
    expect((await save({ fUnit: 'mg' })).body.message).toBe('请先选择单位');
    expect((await save({ fMin: 200, fMax: 100 })).body.message).toBe('最小值不能大于最大值');
    expect((await save({ fGasEn: '', fGasCh: '' })).body.message).toBe('气体名称不能都为空');
    expect((await save({ fSwitch: 11 })).body.message).toBe('通道应为1-10');
    expect((await save({ fSwitch: 0 })).body.message).toBe('通道应为1-10');
    expect((await save({ fMin: -1 })).body.message).toBe('最小值应为0-1000');
    expect((await save({ fMax: 1001 })).body.message).toBe('最大值应为1-1000');
    expect((await save({ fAlarmOne: 0 })).body.message).toBe('一级报警应为1-1000');
    expect((await save({ fAlarmTwo: 1001 })).body.message).toBe('二级报警应为1-1000');
    expect((await save({ fState: 2 })).body.message).toBe('状态不正确');
    const second = await save({ fSwitch: 2, fUnit: '%LEL', fGasEn: '', fGasCh: '甲烷', fMin: 10, fMax: 50 });
    expect(second.body.success).toBe(true);
    const updated = await s.call('/biz/t-device-alarm-cabinet/addorupdate', { fId: created.body.data.fId, fState: 1, fMin: 150 }, agent);
    expect(updated.body.message).toBe('最小值不能大于最大值');
    expect((await s.call('/biz/t-device-alarm-cabinet/addorupdate', { fId: created.body.data.fId, fState: 1 }, agent)).body.data.fState).toBe(1);

    const list = await s.call('/biz/t-device-alarm-cabinet/list', { fDeviceId: dev }, agent);
    expect(list.body.data.map((r: any) => [r.fSwitch, r.fUnit, r.fState])).toEqual([[1, 'ppm', 1], [2, '%LEL', 0]]);
    expect((await s.call('/biz/t-device-alarm-cabinet/list', { fDeviceId: dev }, user)).body.data).toEqual([]);
    // Scope through the device: the user cannot write, nor see a device not shared with it.
    expect((await s.call('/biz/t-device-alarm-cabinet/addorupdate', { fDeviceId: dev, fUnit: 'ppm', fGasEn: 'CO' }, user)).status).toBe(401);
    const [{ fId: productId }] = await s.sql(`select f_id from t_product where f_number = 'P-4G-SW'`);
    const hidden = (await s.call('/biz/t-device/addorupdate', { fNumber: 'CAB-HIDDEN', fProductId: productId }, admin)).body.data.fId;
    expect((await save({ fDeviceId: hidden })).body.message).toBe('设备不存在或无权操作');
    expect((await s.call('/biz/t-device-alarm-cabinet/list', { fDeviceId: hidden }, agent)).body.data).toEqual([]);

    const del = await s.call('/biz/t-device-alarm-cabinet/del', { fId: second.body.data.fId }, agent);
    expect(del.body).toMatchObject({ success: true, message: '删除成功' });
    expect((await s.call('/biz/t-device-alarm-cabinet/list', { fDeviceId: dev }, admin)).body.data).toHaveLength(1);
  });

  it('estimates the picker total past 10,000 bindable devices and still pages the first 10,000', async () => {
    const [{ fId: productId }] = await s.sql(`select f_id from t_product where f_number = 'P-SW-485'`);
    await s.sql(`insert into t_device (f_number, f_name, f_product_id, f_type_id, f_user_id)
      select 'MANY-' || g, '总线' || g, ${productId}, 1, null from generate_series(1, ${HUGE_LIST + 500}) g`);
    await s.sql('analyze t_device');
    const picker = (body: object) => s.call('/biz/t-device/devicesbygateway', { size: 10, ...body }, admin);
    const first = await picker({ current: 1, condition: { type_id: 1 } });
    expect(first.body.data).toMatchObject({ estimated: true, reachable: HUGE_LIST, pages: HUGE_LIST / 10 });
    expect(first.body.data.total).toBeGreaterThan(HUGE_LIST);
    expect(first.body.data.records).toHaveLength(10);
    expect((await picker({ current: HUGE_LIST / 10 + 1, condition: { type_id: 1 } })).body.message).toBe(`只能翻阅前${HUGE_LIST}条记录，请增加查询条件`);
    // A search is counted exactly again.
    const one = await picker({ current: 1, condition: { type_id: 1, number: 'MANY-1234' } });
    expect(one.body.data).toMatchObject({ total: 1 });
    expect(one.body.data.estimated).toBeUndefined();
    await s.sql(`delete from t_device where f_number like 'MANY-%'`);
  });
});

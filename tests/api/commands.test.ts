import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker } from '../../server/mqtt/broker';
import { ADMIN, AGENT, USER, deployments, startServer, type TestServer, until } from './harness';

describe.each(deployments)('device commands on $backend with the $broker broker', ({ backend, broker }) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  const id: Record<string, number> = {};
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    s = await startServer(backend, { simulate: true, telemetryMs: 300, broker });
    [admin, agent] = [await s.login(ADMIN), await s.login(AGENT)];
    for (const r of await s.sql(`select f_id, f_number from t_device`)) id[r.fNumber] = r.fId;
    await until(async () => (await s.call('/biz/t-device/total', {}, admin)).body.data.onlineCount === 22);
  }, 60_000);
  afterAll(() => s?.close());

  const state = async (number: string) => (await s.call('/biz/t-device/device', { fId: id[number] }, admin)).body.data;

  it('brings the simulated devices online, with telemetry and a message log', async () => {
    const d = await until(async () => {
      const row = await state('DEV000009');
      return row.fLastOnlineTime ? row : undefined;
    });
    expect(d.tOnline).toBe(1);
    const [{ n }] = await s.sql(`select count(*)::int as n from t_device_telemetry where f_device_id = ${id.DEV000009}`);
    expect(n).toBeGreaterThan(0);
    const [{ m }] = await s.sql(`select count(*)::int as m from t_emq_message_publish where f_device_number = 'DEV000009' and f_direction = 'up'`);
    expect(m).toBeGreaterThan(0);
  });

  it('switches a device off and on, acknowledged by the device', async () => {
    const off = await s.call('/app/device/send-switch', { deviceId: id.DEV000009, onOff: 0 }, admin);
    expect(off.body).toMatchObject({ success: true, message: '分闸命令发送成功' });
    expect(s.devices.simulator!.device('DEV000009')!.switch).toBe(0);
    expect((await state('DEV000009')).switchStatus).toBe(0);
    await sleep(3100);
    const on = await s.call('/app/device/send-switch', { deviceId: id.DEV000009, onOff: 1 }, admin);
    expect(on.body.message).toBe('合闸命令发送成功');
    expect(s.devices.simulator!.device('DEV000009')!.switch).toBe(1);
    const rows = await s.sql(`select f_state, f_bid from t_device_command where f_device_id = ${id.DEV000009} order by f_id`);
    expect(rows.map((r) => r.fState)).toEqual(['acknowledged', 'acknowledged']);
    const log = await s.call('/app/device/commands', { deviceId: id.DEV000009 }, admin);
    expect(log.body.data.records[0]).toMatchObject({ fState: 'acknowledged', fBid: 'switch', reason: { code: 'command.sent', text: on.body.message } });
    // The log words why a command ended in the caller's language, from the stored code.
    const english = await fetch(`${s.url}/app/device/commands`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: admin, 'accept-language': 'en-US' },
      body: JSON.stringify({ deviceId: id.DEV000009 }),
    }).then((r) => r.json());
    expect(english.data.records[0].reason.text).toMatch(/^[\x20-\x7e]+$/);
  });

  it('reaches a gateway child through its gateway', async () => {
    const r = await s.call('/app/device/send-switch', { deviceId: id.DEV000001, onOff: 0 }, admin);
    expect(r.body.success).toBe(true);
    expect(s.devices.simulator!.device('DEV000001')!.switch).toBe(0);
  });

  it('refuses a second click within 3 s and a command while one is in flight', async () => {
    expect((await s.call('/app/device/send-switch', { deviceId: id.DEV000010, onOff: 0 }, admin)).body.success).toBe(true);
    const again = await s.call('/app/device/send-switch', { deviceId: id.DEV000010, onOff: 1 }, admin);
    expect(again.body).toMatchObject({ success: false, message: '点击太频繁，休息一下' });
    // The device holds its acknowledgement until the second command has been answered, however slow the machine.
    let release!: () => void;
    s.devices.simulator!.device('DEV000011')!.ackHeld = new Promise<void>((resolve) => (release = resolve));
    const slow = s.call('/app/device/send-switch', { deviceId: id.DEV000011, onOff: 0 }, admin);
    await until(async () => (await s.sql(`select 1 from t_device_command where f_device_id = ${id.DEV000011} and f_state in ('pending', 'sent')`)).length > 0);
    const busy = await s.call('/app/device/send-switch', { deviceId: id.DEV000011, onOff: 1 }, agent);
    release();
    s.devices.simulator!.device('DEV000011')!.ackHeld = null;
    expect(busy.body).toMatchObject({ success: false, message: '信息发送中,请勿重复发送...' });
    expect((await slow).body.success).toBe(true);
  });

  it('refuses an offline device', async () => {
    await s.devices.simulator!.setOnline('DEV000012', false);
    // A loaded machine (the whole suite at once, on the embedded database) may take seconds to store it.
    await until(async () => (await state('DEV000012')).tOnline === 0, 30_000);
    const r = await s.call('/app/device/send-switch', { deviceId: id.DEV000012, onOff: 0 }, admin);
    expect(r.body).toMatchObject({ success: false, message: '设备离线' });
    await s.devices.simulator!.setOnline('DEV000012', true);
    await until(async () => (await state('DEV000012')).tOnline === 1, 30_000);
  }, 70_000);

  it('locks: the breaker is forced closed and switching is refused until unlocked', async () => {
    await s.call('/app/device/send-switch', { deviceId: id.DEV000013, onOff: 0 }, admin);
    await sleep(3100);
    const lock = await s.call('/app/device/send-lock', { deviceId: id.DEV000013, lock: 1 }, admin);
    expect(lock.body.message).toBe('锁定命令发送成功');
    expect(await state('DEV000013')).toMatchObject({ fLock: 1, switchStatus: 1 });
    await sleep(3100);
    const refused = await s.call('/app/device/send-switch', { deviceId: id.DEV000013, onOff: 0 }, admin);
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toContain('锁定');
    const [row] = await s.sql(`select f_state from t_device_command where f_device_id = ${id.DEV000013} order by f_id desc limit 1`);
    expect(row.fState).toBe('failed');
  });

  it('asks for the login password before gateway thresholds, and sends only changes', async () => {
    const gw = id.DEV000006;
    const read = await s.call('/app/device/gateway-device-threshold', { fId: gw }, admin);
    expect(read.body.data).toMatchObject({ time: 3600, iMut: 10000, tHi: 70, buad: 115200 });
    const thresholds = { ...read.body.data };
    expect((await s.call('/app/device/set-gateway-device-threshold', { deviceId: gw, ...thresholds, tHi: 80 }, admin)).body.message).toBe('登录密码不能为空');
    expect((await s.call('/check-password', { password: ADMIN.password }, admin)).body.success).toBe(true);
    expect((await s.call('/app/device/set-gateway-device-threshold', { deviceId: gw, ...thresholds }, admin)).body.message).toBe('未发现改动,无需更新');
    expect((await s.call('/app/device/set-gateway-device-threshold', { deviceId: gw, ...thresholds, tHi: 200 }, admin)).body.message).toContain('tHi 取值范围 50-150');
    const set = await s.call('/app/device/set-gateway-device-threshold', { deviceId: gw, ...thresholds, tHi: 80 }, admin);
    expect(set.body).toMatchObject({ success: true, message: '阈值设置命令发送成功' });
    await sleep(3100);
    expect((await s.call('/app/device/gateway-device-threshold', { fId: gw }, admin)).body.data.tHi).toBe(80);
    await sleep(3100);
    const sync = await s.call('/app/device/set-gateway-device-threshold', { deviceId: gw, cmd: 416 }, admin);
    expect(sync.body.message).toBe('时间同步命令发送成功');
  });

  it('drives the type-6 motor with its device password', async () => {
    await s.call('/check-password', { password: ADMIN.password }, admin);
    const rg = id.RG000021;
    expect((await s.call('/app/device6/send-onoff', { deviceId: rg, onOff: 0, password: '' }, admin)).body.message).toBe('设备密码不能为空');
    const wrong = await s.call('/app/device6/send-onoff', { deviceId: rg, onOff: 0, password: '9999' }, admin);
    expect(wrong.body).toMatchObject({ success: false, message: '设备密码错误' });
    await sleep(3100);
    const right = await s.call('/app/device6/send-onoff', { deviceId: rg, onOff: 0, password: '1234' }, admin);
    expect(right.body).toMatchObject({ success: true, message: '分闸命令发送成功' });
    expect(s.devices.simulator!.device('RG000021')!.switch).toBe(0);
    const params = await s.call('/app/device/get-device-conf-parameter', { deviceId: rg }, admin);
    expect(params.body.data).toMatchObject({ ov1: 260000, ov2: 280000 });
  });

  it('sends batch commands with the device-type rules', async () => {
    expect((await s.call('/biz/t-device/send', { fIds: [], fCmdType: 4 }, agent)).body.message).toBe('请先选择需要操作的设备');
    expect((await s.call('/biz/t-device/send', { fIds: [id.DEV000009], fCmdType: 2 }, agent)).body.message).toBe('没有需要操作的设备');
    const r = await s.call('/biz/t-device/send', { fIds: [id.DEV000014, id.DEV000015], fCmdType: 3 }, agent);
    expect(r.body.data.split('\n').sort()).toEqual(['DEV000014: 分闸命令发送成功', 'DEV000015: 分闸命令发送成功']);
    const user = await s.login(USER);
    expect((await s.call('/biz/t-device/send', { fIds: [id.DEV000001], fCmdType: 3 }, user)).status).toBe(401);
  });

  it('keeps the command scope: an ordinary user cannot switch a device it does not see', async () => {
    const user = await s.login(USER);
    const r = await s.call('/app/device/send-switch', { deviceId: id.DEV000020, onOff: 0 }, user);
    expect(r.body).toMatchObject({ success: false, message: '设备不存在或无权操作' });
  });

  it.skipIf(broker === 'external')('ends every command acknowledged or failed when the broker restarts mid-run', async () => {
    const port = s.devices.broker!.port;
    s.devices.simulator!.device('DEV000015')!.ackDelayMs = 2000;
    await sleep(3100);
    const pending = s.call('/app/device/send-switch', { deviceId: id.DEV000015, onOff: 1 }, admin);
    await sleep(300);
    await s.devices.broker!.close();
    const failed = await pending;
    expect(failed.body.success).toBe(false);
    const [row] = await s.sql(`select f_state from t_device_command where f_device_id = ${id.DEV000015} order by f_id desc limit 1`);
    expect(row.fState).toBe('failed');
    expect((await (await fetch(`${s.url}/api/mqtt/state`)).json()).code).toBe(700);
    expect((await s.call('/api/mqtt/state', {}, admin)).body.data.state).not.toBe('connected');
    s.devices.broker = await startBroker({ port });
    s.devices.simulator!.device('DEV000015')!.ackDelayMs = 0;
    await until(async () => (await s.call('/api/mqtt/state', {}, admin)).body.data.state === 'connected', 15_000);
    await until(async () => (await state('DEV000015')).tOnline === 1, 15_000);
    await sleep(3100);
    const after = await until(async () => {
      const r = await s.call('/app/device/send-switch', { deviceId: id.DEV000015, onOff: 1 }, admin);
      return r.body.success ? r : undefined;
    }, 15_000);
    expect(after.body.message).toBe('合闸命令发送成功');
  }, 60_000);
});

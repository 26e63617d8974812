import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, USER, deployments, startServer, type TestServer, until } from './harness';

/** The type-6 breaker's own calls, answered by the simulated breaker over MQTT. */
describe.each(deployments)('type-6 breaker calls on $backend with the $broker broker', ({ backend, broker }) => {
  let s: TestServer;
  let admin: string;
  const id: Record<string, number> = {};
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Commands of one user to one device are at least 3 s apart (spec 000 §4). */
  const throttle = () => sleep(3100);

  beforeAll(async () => {
    s = await startServer(backend, { simulate: true, telemetryMs: 300, broker });
    admin = await s.login(ADMIN);
    for (const r of await s.sql(`select f_id, f_number from t_device`)) id[r.fNumber] = r.fId;
    await until(async () => (await s.call('/biz/t-device/device', { fId: id.RG000021 }, admin)).body.data.tOnline === 1, 20_000);
  }, 60_000);
  afterAll(() => s?.close());

  const set = (body: Record<string, unknown>, token = admin) => s.call('/app/device6/set-gateway-device-threshold', { deviceId: id.RG000021, ...body }, token);

  it('reads the breaker’s samples, fresh ones when asked', async () => {
    const before = await s.call('/app/device6/device-elec', { fId: id.RG000021 }, admin);
    expect(before.body.success).toBe(true);
    expect(before.body.data.tableCols.map((c: any) => c.key)).toContain('voltage');
    const fresh = await s.call('/app/device6/device-elec', { fId: id.RG000021, isSendCmd: true }, admin);
    expect(fresh.body.data.table.length).toBeGreaterThan(0);
    const newest = fresh.body.data.table[0];
    expect(newest.voltage).toBeGreaterThan(150);
    expect(newest.fTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Any other device type is not a breaker.
    const other = await s.call('/app/device6/device-elec', { fId: id.DEV000009 }, admin);
    expect(other.body).toMatchObject({ success: false, message: '该设备不是塑壳断路器' });
  });

  it('pushes thresholds to the breaker after the login-password check, and only changes', async () => {
    await throttle();
    const current = (await s.call('/app/device/gateway-device-threshold', { fId: id.RG000021 }, admin)).body.data;
    expect(current).toMatchObject({ time: 3600, tHi: 70 });
    await s.sql(`update t_sys_user set f_password_checked_at = null where f_phone = '${ADMIN.phone}'`);
    expect((await set({ ...current, tHi: 90 })).body.message).toBe('登录密码不能为空');
    expect((await s.call('/check-password', { password: ADMIN.password }, admin)).body.success).toBe(true);
    expect((await set({ ...current })).body.message).toBe('未发现改动,无需更新');
    expect((await set({ ...current, tMut: 11 })).body.message).toContain('tMut');
    const pushed = await set({ ...current, tHi: 90 });
    expect(pushed.body).toMatchObject({ success: true, message: '阈值设置命令发送成功' });
    expect(s.devices.simulator!.device('RG000021')!.thresholds!.tHi).toBe(90);
    const [row] = await s.sql(`select f_state, f_bid from t_device_command where f_device_id = ${id.RG000021} order by f_id desc limit 1`);
    expect(row).toMatchObject({ fState: 'acknowledged', fBid: 'set-threshold' });
  });

  it('runs the abilities: password change with the device password, time sync', async () => {
    await throttle();
    expect((await set({ cmd: 414, data1: '1234', data2: '' })).body.message).toBe('设备密码不能为空');
    const wrong = await set({ cmd: 414, data1: '0000', data2: '4321' });
    expect(wrong.body.success).toBe(false);
    await throttle();
    const changed = await set({ cmd: 414, data1: '1234', data2: '4321' });
    expect(changed.body).toMatchObject({ success: true, message: '修改密码命令发送成功' });
    expect(s.devices.simulator!.device('RG000021')!.password).toBe('4321');
    await throttle();
    const motor = await s.call('/app/device6/send-onoff', { deviceId: id.RG000021, onOff: 1, password: '4321' }, admin);
    expect(motor.body).toMatchObject({ success: true, message: '合闸命令发送成功' });
    await throttle();
    expect((await set({ cmd: 416 })).body.message).toBe('时间同步命令发送成功');
  });

  it('takes only type-6 devices the user may see, under device:control', async () => {
    const gateway = await s.call('/app/device6/set-gateway-device-threshold', { deviceId: id.DEV000006, cmd: 416 }, admin);
    expect(gateway.body).toMatchObject({ success: false, message: '该设备不是塑壳断路器' });
    const user = await s.login(USER);
    const refused = await set({ cmd: 416 }, user);
    expect([401, 200]).toContain(refused.status);
    expect(refused.body.success).toBe(false);
    const [log] = await s.sql(`select logname from t_sys_log where logname = 'device6.threshold' limit 1`);
    expect(log).toBeDefined();
  });
});

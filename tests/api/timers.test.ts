import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScheduler, type Scheduler } from '../../server/devices/scheduler';
import { hhmm } from '../../server/devices/deviceTiming';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer, until } from './harness';

const TZ = 'Asia/Shanghai';
const TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

/** Weekday (1 Monday … 7 Sunday) of a "YYYY-MM-DD HH:mm:ss" answer. */
const weekdayOf = (time: string) => {
  const [y, m, d] = time.slice(0, 10).split('-').map(Number);
  const dow = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return dow === 0 ? 7 : dow;
};

describe.each(backends)('timers and switch schedules on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let user: string;
  const id: Record<string, number> = {};
  let adminOnlyDevice: number;

  const save = (body: unknown, token = admin) => s.call('/biz/t-device-timing/save', body, token);
  const count = async (where = 'true') => (await s.sql(`select count(*)::int as n from t_device_timing where ${where}`))[0].n as number;
  const timerRow = async (fId: number) => (await s.sql(`select * from t_device_timing where f_id = ${fId}`))[0];

  beforeAll(async () => {
    s = await startServer(backend, { simulate: true, telemetryMs: 60_000 });
    [admin, agent, user] = [await s.login(ADMIN), await s.login(AGENT), await s.login(USER)];
    for (const r of await s.sql(`select f_id, f_number from t_device`)) id[r.fNumber] = r.fId;
    const [{ fId: productId }] = await s.sql(`select f_id from t_product where f_number = 'P-4G-SW'`);
    adminOnlyDevice = (await s.call('/biz/t-device/addorupdate', { fNumber: 'TIMER-ADMIN-ONLY', fProductId: productId }, admin)).body.data.fId;
  }, 60_000);
  afterAll(() => s?.close());

  it('creates a timer with the defaults and computes its next run', async () => {
    const created = await save({ fDeviceId: id.DEV000009, fTime: '08:30', fValidType: 9 });
    expect(created.body).toMatchObject({ success: true, message: '保存成功' });
    expect(created.body.data).toMatchObject({ fDeviceId: id.DEV000009, fTime: '08:30', fValidType: 9, fState: 1, fOpt: 1, fReverse: 0, fReverseSecond: 60, fRunTime: null });
    expect(created.body.data.fUserId).toBeGreaterThan(0);
    expect(created.body.data.fRunNextTime).toMatch(/^\d{4}-\d\d-\d\d 08:30:00$/);
    expect(created.body.data.tDevice.fNumber).toBe('DEV000009');

    const wednesday = await save({ fDeviceId: id.DEV000009, fTime: '23:59', fValidType: 3, fOpt: 2 });
    expect(wednesday.body.data.fRunNextTime).toMatch(/ 23:59:00$/);
    expect(weekdayOf(wednesday.body.data.fRunNextTime)).toBe(3);

    const disabled = await save({ fDeviceId: id.DEV000009, fTime: '12:00', fValidType: 8, fState: 0 });
    expect(disabled.body.data.fRunNextTime).toBeNull();
  });

  it('validates with the spec messages and writes nothing', async () => {
    const before = await count();
    const message = async (body: object) => (await save({ fDeviceId: id.DEV000009, fTime: '08:00', fValidType: 9, ...body })).body.message;
    expect(await message({ fTime: undefined })).toBe('时间不能为空');
    expect(await message({ fTime: '' })).toBe('时间不能为空');
    expect(await message({ fTime: '24:00' })).toBe('时间格式应为 HH:mm');
    expect(await message({ fValidType: undefined })).toBe('时效不能为空');
    expect(await message({ fValidType: '' })).toBe('时效不能为空');
    expect(await message({ fValidType: 'x' })).toBe('时效不能为空');
    expect(await message({ fValidType: 0 })).toBe('时效不正确');
    expect(await message({ fValidType: 10 })).toBe('时效不正确');
    expect(await message({ fReverseSecond: 0 })).toBe('反转秒数最小为1');
    expect(await message({ fOpt: 3 })).toBe('动作不正确');
    expect(await message({ fState: 2 })).toBe('状态不正确');
    expect(await message({ fDeviceId: undefined })).toBe('设备不能为空');
    expect(await message({ fDeviceId: 999999 })).toBe('设备不存在或无权操作');
    // Gateways have no switch of their own.
    expect(await message({ fDeviceId: id.DEV000005 })).toBe('该设备不支持定时');
    const refused = await save({ fDeviceId: id.DEV000009, fValidType: 9 });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ code: 400, success: false });
    expect(await count()).toBe(before);
  });

  it('lists the timers of a device by time, with paging', async () => {
    const page = await s.call('/biz/t-device-timing/pagelist', { condition: { fDeviceId: id.DEV000009 }, current: 1, size: 2 }, admin);
    expect(page.body.data.total).toBe(3);
    expect(page.body.data.records.map((r: any) => r.fTime)).toEqual(['08:30', '12:00']);
    const second = await s.call('/biz/t-device-timing/pagelist', { condition: { fDeviceId: id.DEV000009 }, current: 2, size: 2 }, admin);
    expect(second.body.data.records.map((r: any) => r.fTime)).toEqual(['23:59']);
    expect(second.body.data.records[0].fRunNextTime).toMatch(TIME);
  });

  it('updates, toggles the state at once, and deletes', async () => {
    const { fId } = (await save({ fDeviceId: id.DEV000009, fTime: '06:00', fValidType: 9 })).body.data;
    const edited = await save({ fId, fTime: '06:45', fOpt: 2, fReverse: 1, fReverseSecond: 30 });
    expect(edited.body.data).toMatchObject({ fTime: '06:45', fOpt: 2, fReverse: 1, fReverseSecond: 30, fValidType: 9 });
    expect(edited.body.data.fRunNextTime).toMatch(/ 06:45:00$/);
    const off = await save({ fId, fState: 0 });
    expect(off.body.data).toMatchObject({ fState: 0, fTime: '06:45', fRunNextTime: null });
    const on = await save({ fId, fState: 1 });
    expect(on.body.data.fRunNextTime).toMatch(/ 06:45:00$/);
    // The device of a timer stays.
    expect((await save({ fId, fDeviceId: id.DEV000010 })).body.data.fDeviceId).toBe(id.DEV000009);
    const del = await s.call('/biz/t-device-timing/del', { fId }, admin);
    expect(del.body).toMatchObject({ success: true, message: '删除成功' });
    expect(await count(`f_id = ${fId}`)).toBe(0);
  });

  it('saves the rows of the edit form together, or none of them', async () => {
    const { fId } = (await save({ fDeviceId: id.DEV000009, fTime: '05:00', fValidType: 9 })).body.data;
    const both = await s.call('/biz/t-device-timing/saves', [
      { fId, fDeviceId: id.DEV000009, fTime: '05:10', fValidType: 1 },
      { fDeviceId: id.DEV000009, fTime: '05:20', fValidType: 2, fOpt: 2 },
    ], admin);
    expect(both.body).toMatchObject({ success: true, message: '保存成功' });
    expect(both.body.data).toHaveLength(2);
    expect(both.body.data[0]).toMatchObject({ fId, fTime: '05:10', fValidType: 1 });
    expect(weekdayOf(both.body.data[1].fRunNextTime)).toBe(2);

    const before = await count();
    const bad = await s.call('/biz/t-device-timing/saves', [
      { fDeviceId: id.DEV000009, fTime: '05:30', fValidType: 9 },
      { fDeviceId: id.DEV000009, fValidType: 9 },
    ], admin);
    expect(bad.body).toMatchObject({ success: false, message: '时间不能为空' });
    expect(await count()).toBe(before);
    expect((await s.call('/biz/t-device-timing/saves', [], admin)).body.message).toBe('定时不能为空');
  });

  it('keeps timers to the devices the user sees, and refuses missing codes with 401', async () => {
    const hidden = (await save({ fDeviceId: adminOnlyDevice, fTime: '10:00', fValidType: 9 })).body.data.fId;
    // The agent holds the codes but not the device.
    expect((await save({ fDeviceId: adminOnlyDevice, fTime: '10:00', fValidType: 9 }, agent)).body.message).toBe('设备不存在或无权操作');
    const foreign = await save({ fId: hidden, fTime: '11:00' }, agent);
    expect(foreign.body).toMatchObject({ success: false, code: 404 });
    expect((await s.call('/biz/t-device-timing/del', { fId: hidden }, agent)).body.success).toBe(false);
    expect((await s.call('/biz/t-device-timing/pagelist', { condition: { fDeviceId: adminOnlyDevice } }, agent)).body.data.total).toBe(0);
    expect((await timerRow(hidden)).fTime).toBe('10:00');
    const agentsOwn = await save({ fDeviceId: id.DEV000010, fTime: '10:00', fValidType: 9 }, agent);
    expect(agentsOwn.body.success).toBe(true);

    // The ordinary user may look, not change.
    for (const path of ['/biz/t-device-timing/save', '/biz/t-device-timing/saves', '/biz/t-device-timing/del', '/biz/t-device-timing/share-saves', '/biz/t-device-switch/addorupdate', '/biz/t-device-switch/del']) {
      const r = await s.call(path, { fId: hidden, fDeviceId: id.DEV000001, fTime: '10:00', fValidType: 9 }, user);
      expect(r.status, path).toBe(401);
      expect(r.body.message).toBe('没有操作权限');
    }
    const seen = await s.call('/biz/t-device-timing/pagelist', { size: 100 }, user);
    expect(seen.body.data.total).toBe(0);
    expect((await s.call('/biz/t-device-timing/pagelist', { condition: { fDeviceId: id.DEV000009 } }, user)).body.data.total).toBe(0);

    // Its own timers, on its own devices only.
    const own = await s.call('/biz/t-device-user-timing/save', { fDeviceId: id.DEV000001, fTime: '21:00', fValidType: 9 }, user);
    expect(own.body).toMatchObject({ success: true, message: '保存成功' });
    expect((await s.call('/biz/t-device-user-timing/save', { fDeviceId: id.DEV000009, fTime: '21:00', fValidType: 9 }, user)).body.message).toBe('设备不存在或无权操作');
    const updated = await s.call('/biz/t-device-user-timing/save', { fId: own.body.data.fId, fTime: '21:30' }, user);
    expect(updated.body.data.fTime).toBe('21:30');
    // A timer of the user's device that someone else made is not the user's own.
    const byAdmin = (await save({ fDeviceId: id.DEV000001, fTime: '22:00', fValidType: 9 })).body.data.fId;
    expect((await s.call('/biz/t-device-user-timing/save', { fId: byAdmin, fTime: '22:30' }, user)).body.success).toBe(false);
    const mine = await s.call('/biz/t-device-user-timing/pagelist', { current: 1, size: 10 }, user);
    expect(mine.body.data.records.map((r: any) => r.fId)).toEqual([own.body.data.fId]);
    expect((await s.call('/biz/t-device-timing/pagelist', { condition: { fDeviceId: id.DEV000001 } }, user)).body.data.total).toBe(2);
  });

  it('copies a timer to other devices the user may see', async () => {
    const source = (await save({ fDeviceId: id.DEV000009, fTime: '04:15', fValidType: 4, fOpt: 2, fReverse: 1, fReverseSecond: 90 }, agent)).body.data;
    const targets = [id.DEV000017, id.DEV000018, id.DEV000005, adminOnlyDevice, id.DEV000009];
    const shared = await s.call('/biz/t-device-timing/share-saves', { deviceIds: targets, deviceTimingId: source.fId }, agent);
    expect(shared.body.success).toBe(true);
    expect(shared.body.data.successMsg).toContain('2台设备');
    expect(shared.body.data.errorMsg).toContain('2台设备');
    const copies = await s.sql(`select * from t_device_timing where f_time = '04:15' order by f_device_id`);
    expect(copies.map((c) => c.fDeviceId)).toEqual([id.DEV000009, id.DEV000017, id.DEV000018].sort((a, b) => a - b));
    expect(copies.every((c) => c.fValidType === 4 && c.fOpt === 2 && c.fReverse === 1 && c.fReverseSecond === 90 && c.fRunNextTime)).toBe(true);
    // Syncing again updates the copies instead of doubling them.
    await s.call('/biz/t-device-timing/share-saves', { deviceIds: `${id.DEV000017},${id.DEV000018}`, deviceTimingId: source.fId }, agent);
    expect(await count(`f_time = '04:15'`)).toBe(3);
    expect((await s.call('/biz/t-device-timing/share-saves', { deviceIds: [], deviceTimingId: source.fId }, agent)).body.message).toBe('请选择需要同步的设备');
    const none = await s.call('/biz/t-device-timing/share-saves', { deviceIds: [adminOnlyDevice], deviceTimingId: source.fId }, agent);
    expect(none.body.success).toBe(false);
    expect(none.body.message).toContain('没有可同步的设备');
  });

  it('keeps switch schedules per device', async () => {
    const add = await s.call('/biz/t-device-switch/addorupdate', { fDeviceId: id.DEV000009, fBeginTime: '07:00', fSwitch: 1, fWhich: 2 }, agent);
    expect(add.body).toMatchObject({ success: true, message: '保存成功' });
    expect(add.body.data).toMatchObject({ fBeginTime: '07:00', fSwitch: 1, fWhich: 2, fIsExecute: 0 });
    const zeros = await s.call('/biz/t-device-switch/addorupdate', { fDeviceId: id.DEV000009, fBeginTime: '00:00', fSwitch: 0, fWhich: 1 }, agent);
    expect(zeros.body.success).toBe(true);
    expect((await s.call('/biz/t-device-switch/addorupdate', { fDeviceId: id.DEV000009, fBeginTime: '07:00', fWhich: 11 }, agent)).body.message).toBe('通道范围为1到10');
    expect((await s.call('/biz/t-device-switch/addorupdate', { fDeviceId: id.DEV000009, fBeginTime: '07:00', fWhich: 0 }, agent)).body.message).toBe('通道范围为1到10');
    expect((await s.call('/biz/t-device-switch/addorupdate', { fDeviceId: id.DEV000009, fWhich: 1 }, agent)).body.message).toBe('时间不能为空');
    expect((await s.call('/biz/t-device-switch/addorupdate', { fDeviceId: adminOnlyDevice, fBeginTime: '07:00', fWhich: 1 }, agent)).body.message).toBe('设备不存在或无权操作');
    const list = await s.call('/biz/t-device-switch/list', { fDeviceId: id.DEV000009 }, agent);
    expect(list.body.data.map((r: any) => r.fBeginTime)).toEqual(['00:00', '07:00']);
    expect((await s.call('/biz/t-device-switch/list', { fDeviceId: id.DEV000009 }, user)).body.data).toEqual([]);
    const edited = await s.call('/biz/t-device-switch/addorupdate', { fId: add.body.data.fId, fBeginTime: '07:30' }, agent);
    expect(edited.body.data).toMatchObject({ fBeginTime: '07:30', fSwitch: 1, fWhich: 2 });
    for (const row of list.body.data) {
      expect((await s.call('/biz/t-device-switch/del', { fId: row.fId }, agent)).body.message).toBe('删除成功');
    }
    expect((await s.call('/biz/t-device-switch/list', { fDeviceId: id.DEV000009 }, agent)).body.data).toEqual([]);
  });

  describe('firing', () => {
    let a: Scheduler;
    let b: Scheduler;
    const sim = (number: string) => s.devices.simulator!.device(number)!;
    const commands = (deviceId: number) => s.sql(`select f_state, f_name, f_source, f_payload from t_device_command where f_device_id = ${deviceId} and f_source = 'timer' order by f_id`);

    /** A daily timer for the coming minute, through the API; answers its id and the instant it is due. */
    async function timerForNextMinute(deviceId: number, extra: object = {}) {
      const next = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 60_000);
      const created = await save({ fDeviceId: deviceId, fTime: hhmm(next, TZ), fValidType: 9, fOpt: 2, ...extra });
      expect(created.body.success).toBe(true);
      const row = await timerRow(created.body.data.fId);
      return { fId: created.body.data.fId as number, at: new Date(row.fRunNextTime) };
    }

    beforeAll(async () => {
      // Only what these tests set up may fire.
      await s.sql(`update t_device_timing set f_state = 0, f_run_next_time = null`);
      await s.sql(`delete from t_device_switch`);
      const db = s.devices.live.db;
      a = createScheduler({ db, live: s.devices.live, timeZone: TZ, log: () => undefined });
      b = createScheduler({ db, live: s.devices.live, timeZone: TZ, log: () => undefined });
      await until(async () => {
        const rows = await s.sql(`select count(*)::int as n from t_device where t_online = 1 and f_number in ('DEV000010', 'DEV000011', 'DEV000017', 'DEV000018')`);
        return rows[0].n === 4;
      });
    }, 30_000);

    it('fires a timer set for the next minute once, even with two schedulers', async () => {
      expect(sim('DEV000010').switch).toBe(1);
      const { fId, at } = await timerForNextMinute(id.DEV000010);
      expect((await a.tick(new Date(at.getTime() - 1000))).fired).toEqual([]);
      const [ra, rb] = await Promise.all([a.tick(at), b.tick(at)]);
      const fired = [...ra.fired, ...rb.fired];
      expect(fired).toHaveLength(1);
      expect(fired[0]).toMatchObject({ kind: 'timer', id: fId, deviceId: id.DEV000010, value: 0 });
      expect(fired[0].outcome).toMatchObject({ ok: true, state: 'acknowledged', message: '定时命令发送成功' });
      expect(sim('DEV000010').switch).toBe(0);
      const [cmd] = await commands(id.DEV000010);
      expect(cmd).toMatchObject({ fState: 'acknowledged', fName: '定时', fSource: 'timer' });
      expect(JSON.parse(cmd.fPayload)).toMatchObject({ bid: 'switch', value: 0 });
      expect((await s.sql(`select switch_status from t_device where f_id = ${id.DEV000010}`))[0].switchStatus).toBe(0);

      const again = await Promise.all([a.tick(at), b.tick(new Date(at.getTime() + 30_000))]);
      expect(again.flatMap((r) => r.fired)).toEqual([]);
      expect(await commands(id.DEV000010)).toHaveLength(1);
      const row = await timerRow(fId);
      expect(new Date(row.fRunTime).getTime()).toBe(at.getTime());
      expect(new Date(row.fRunNextTime).getTime()).toBe(at.getTime() + 86_400_000);
      const listed = (await s.call('/biz/t-device-timing/pagelist', { condition: { fDeviceId: id.DEV000010 } }, admin)).body.data.records.find((r: any) => r.fId === fId);
      expect(listed.fRunTime).toMatch(TIME);
    });

    it('switches back after the reverse seconds', async () => {
      expect(sim('DEV000011').switch).toBe(1);
      const { fId, at } = await timerForNextMinute(id.DEV000011, { fReverse: 1, fReverseSecond: 2 });
      const first = await a.tick(at);
      expect(first.fired.map((f) => f.kind)).toEqual(['timer']);
      expect(sim('DEV000011').switch).toBe(0);
      expect(new Date((await timerRow(fId)).fReverseTime).getTime()).toBe(at.getTime() + 2000);
      expect((await a.tick(new Date(at.getTime() + 1000))).fired).toEqual([]);
      const [back, twice] = await Promise.all([a.tick(new Date(at.getTime() + 2000)), b.tick(new Date(at.getTime() + 2500))]);
      const reversed = [...back.fired, ...twice.fired];
      expect(reversed).toHaveLength(1);
      expect(reversed[0]).toMatchObject({ kind: 'reverse', id: fId, value: 1 });
      expect(sim('DEV000011').switch).toBe(1);
      expect((await commands(id.DEV000011)).map((c) => [c.fName, c.fState])).toEqual([
        ['定时', 'acknowledged'],
        ['定时反转', 'acknowledged'],
      ]);
      expect((await timerRow(fId)).fReverseTime).toBeNull();
    });

    it('disables a once-timer after it fires and skips one found too late', async () => {
      const once = await timerForNextMinute(id.DEV000018, { fValidType: 8, fOpt: 1 });
      const late = await timerForNextMinute(id.DEV000017);
      await s.sql(`update t_device_timing set f_run_next_time = f_run_next_time - interval '10 minutes' where f_id = ${late.fId}`);
      const report = await a.tick(once.at);
      expect(report.fired.map((f) => f.id)).toEqual([once.fId]);
      expect(report.skipped).toBe(1);
      expect(await timerRow(once.fId)).toMatchObject({ fState: 0, fRunNextTime: null });
      expect(new Date((await timerRow(late.fId)).fRunNextTime).getTime()).toBeGreaterThan(once.at.getTime());
      expect(await commands(id.DEV000017)).toHaveLength(0);
    });

    it('runs a switch schedule once a day at its time', async () => {
      const now = new Date();
      const created = await s.call('/biz/t-device-switch/addorupdate', { fDeviceId: id.DEV000017, fBeginTime: hhmm(now, TZ), fSwitch: 0, fWhich: 1 }, admin);
      expect(created.body.success).toBe(true);
      const [ra, rb] = await Promise.all([a.tick(now), b.tick(now)]);
      const fired = [...ra.fired, ...rb.fired];
      expect(fired).toHaveLength(1);
      expect(fired[0]).toMatchObject({ kind: 'schedule', value: 0, channel: 1 });
      expect(sim('DEV000017').switch).toBe(0);
      const [row] = (await s.call('/biz/t-device-switch/list', { fDeviceId: id.DEV000017 }, admin)).body.data;
      expect(row.fIsExecute).toBe(1);
      expect(row.fExecuteTime).toMatch(TIME);
      expect((await a.tick(new Date(now.getTime() + 60_000))).fired).toEqual([]);
      const [cmd] = await commands(id.DEV000017);
      expect(JSON.parse(cmd.fPayload)).toMatchObject({ bid: 'switch', value: 0, channel: 1 });
      await s.sql(`update t_device_timing set f_state = 0, f_run_next_time = null`);
      expect((await a.tick(new Date(now.getTime() + 86_400_000))).fired.map((f) => f.kind)).toEqual(['schedule']);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ADMIN, AGENT, OFFICER, USER, backends, startServer, type TestServer } from './harness';
import { rollUpEnergy } from '../../server/devices/energy';

// The harness runs the server in the default zone; the readings below are written with its offset.
const TZ = 'Asia/Shanghai';
const at = (local: string) => `'${local}+08'`;

describe.each(backends)('energy statistics and dashboard on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let user: string;
  /** A and B: agent-owned demo devices shared with the user (A) or not (F); X: the administrator's own. */
  let A: number;
  let B: number;
  let F: number;
  let X: number;
  const rollUp = (options: { now?: Date; since?: Date } = {}) => rollUpEnergy(s.devices.live.db, { timeZone: TZ, ...options });
  const readings = (device: number, rows: [string, number][]) =>
    s.sql(`insert into t_device_telemetry (f_device_id, f_time, energy, power) values ${rows.map(([t, e]) => `(${device}, ${at(t)}, ${e}, 100)`).join(', ')}`);

  beforeAll(async () => {
    s = await startServer(backend);
    [admin, agent, user] = [await s.login(ADMIN), await s.login(AGENT), await s.login(USER)];
    const ids = await s.sql(`select f_id, f_number from t_device where f_number in ('DEV000001', 'DEV000002', 'DEV000006') order by f_number`);
    [A, B, F] = ids.map((r) => r.fId);
    const [product] = await s.sql(`select f_id from t_product where f_number = 'P-4G-SW'`);
    const created = await s.call('/biz/t-device/addorupdate', { fNumber: 'STATS-ADMIN', fName: '管理员设备', fProductId: product.fId }, admin);
    X = created.body.data.fId;
  });
  afterAll(() => s?.close());

  it('rolls up hourly and daily consumption incrementally, through a counter reset', async () => {
    await readings(A, [
      ['2025-03-09 23:50:00', 100],
      ['2025-03-10 00:10:00', 101.5],
      ['2025-03-10 00:40:00', 102],
      ['2025-03-10 01:20:00', 104.25],
      // Command 415 cleared the meter.
      ['2025-03-10 01:30:00', 0],
    ]);
    await readings(B, [
      ['2025-03-10 00:00:00', 50],
      ['2025-03-10 12:00:00', 60],
      ['2025-03-11 00:30:00', 61],
    ]);
    await readings(X, [
      ['2025-03-10 05:00:00', 10],
      ['2025-03-10 06:00:00', 13],
    ]);
    const first = await rollUp({ now: new Date('2025-03-10T01:40:00+08:00') });
    expect(first).toMatchObject({ from: new Date('2025-03-09T23:00:00+08:00').toISOString(), to: new Date('2025-03-10T02:00:00+08:00').toISOString() });
    const hourA = async () => (await s.sql(`select to_char(f_hour at time zone '${TZ}', 'MM-DD HH24') as h, f_energy from t_device_energy_hour where f_device_id = ${A} order by f_hour`)).map((r) => [r.h, r.fEnergy]);
    expect(await hourA()).toEqual([
      ['03-09 23', 0],
      ['03-10 00', 2],
      ['03-10 01', 2.25],
    ]);

    await readings(A, [
      ['2025-03-10 01:50:00', 0.5],
      ['2025-03-10 03:05:00', 1.75],
      ['2025-03-11 10:00:00', 3.75],
    ]);
    await rollUp({ now: new Date('2025-03-11T12:00:00+08:00') });
    expect(await hourA()).toEqual([
      ['03-09 23', 0],
      ['03-10 00', 2],
      ['03-10 01', 2.75],
      ['03-10 03', 1.25],
      ['03-11 10', 2],
    ]);
    const days = await s.sql(`select f_device_id, to_char(f_day, 'YYYY-MM-DD') as d, f_energy from t_device_energy_day order by f_device_id, f_day`);
    expect(days.map((r) => [r.fDeviceId, r.d, r.fEnergy])).toEqual([
      [A, '2025-03-09', 0],
      [A, '2025-03-10', 6],
      [A, '2025-03-11', 2],
      [B, '2025-03-10', 10],
      [B, '2025-03-11', 1],
      [X, '2025-03-10', 3],
    ]);

    // Running again, from the mark or over everything, changes nothing.
    await rollUp();
    await rollUp({ since: new Date('2025-03-01T00:00:00+08:00') });
    const again = await s.sql(`select f_device_id, to_char(f_day, 'YYYY-MM-DD') as d, f_energy from t_device_energy_day order by f_device_id, f_day`);
    expect(again).toEqual(days);
    const [{ n }] = await s.sql(`select count(*) as n from t_device_energy_hour`);
    expect(Number(n)).toBe(5 + 3 + 2);
  });

  it('answers totals and chart series by day and by hour', async () => {
    const byDay = await s.call('/app/device/device-total', { deviceIds: [A, B], stime: '2025-03-09 00:00:00', etime: '2025-03-11 23:59:59', timeType: 1 }, admin);
    expect(byDay.body.success).toBe(true);
    expect(byDay.body.data).toEqual({
      total: [
        { name: '演示设备1', value: 8 },
        { name: '演示设备2', value: 11 },
        { name: '合计', value: 19 },
      ],
      chart: {
        categories: ['2025-03-09', '2025-03-10', '2025-03-11'],
        series: [
          { name: '演示设备1', data: [0, 6, 2] },
          { name: '演示设备2', data: [0, 10, 1] },
        ],
      },
    });
    const byHour = await s.call('/app/device/device-total', { deviceIds: String(A), stime: '2025-03-10 00:00:00', etime: '2025-03-10 03:59:59', timeType: 2 }, admin);
    expect(byHour.body.data.chart).toEqual({
      categories: ['2025-03-10 00:00', '2025-03-10 01:00', '2025-03-10 02:00', '2025-03-10 03:00'],
      series: [{ name: '演示设备1', data: [2, 2.75, 0, 1.25] }],
    });
    expect(byHour.body.data.total).toEqual([
      { name: '演示设备1', value: 6 },
      { name: '合计', value: 6 },
    ]);
  });

  it('refuses with the spec messages', async () => {
    const range = { stime: '2025-03-09 00:00:00', etime: '2025-03-11 23:59:59', timeType: 1 };
    expect((await s.call('/app/device/device-total', { ...range, deviceIds: [] }, admin)).body).toMatchObject({ success: false, code: 400, message: '请选择需要统计的设备' });
    expect((await s.call('/app/device/device-total', { deviceIds: [A], timeType: 1 }, admin)).body.message).toBe('请选择需要统计的时间范围');
    expect((await s.call('/app/device/device-total', { deviceIds: [A], stime: '2025-03-12 00:00:00', etime: '2025-03-11 00:00:00' }, admin)).body.message).toBe('请选择需要统计的时间范围');
    expect((await s.call('/app/device/download-device-total', { ...range }, admin)).body.message).toBe('请选择需要统计的设备');
    expect((await s.call('/app/device/device-total', { deviceIds: [A], ...range })).status).toBe(700);
  });

  it('counts only the devices in the caller scope', async () => {
    const range = { stime: '2025-03-10 00:00:00', etime: '2025-03-10 23:59:59', timeType: 1 };
    const names = (r: any) => r.body.data.chart.series.map((x: any) => x.name);
    expect(names(await s.call('/app/device/device-total', { ...range, deviceIds: [A, X] }, admin))).toEqual(['演示设备1', '管理员设备']);
    expect(names(await s.call('/app/device/device-total', { ...range, deviceIds: [A, X] }, agent))).toEqual(['演示设备1']);
    expect(names(await s.call('/app/device/device-total', { ...range, deviceIds: [A, B, F] }, user))).toEqual(['演示设备1', '演示设备2']);
    expect((await s.call('/app/device/device-total', { ...range, deviceIds: [X] }, user)).body.message).toBe('请选择需要统计的设备');
  });

  it('exports the figures as 数据统计.xlsx', async () => {
    const res = await fetch(s.url + '/app/device/download-device-total', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: agent },
      body: JSON.stringify({ deviceIds: [A, B], stime: '2025-03-09 00:00:00', etime: '2025-03-11 23:59:59', timeType: 1 }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const disposition = res.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment;/);
    expect(decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)![1])).toBe('数据统计.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const sheet = book.worksheets[0];
    const rows = sheet.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(rows).toEqual([
      ['日期', '演示设备1 (kWh)', '演示设备2 (kWh)', '合计 (kWh)'],
      ['2025-03-09', 0, 0, 0],
      ['2025-03-10', 6, 10, 16],
      ['2025-03-11', 2, 1, 3],
      ['合计', 8, 11, 19],
    ]);
  });

  it('needs the statistics permission', async () => {
    await s.sql(`delete from t_sys_role_menu where menu_id = (select id from t_sys_permission_menu where permissions = 'statistics:list') and role_id = (select id from t_sys_role where alias = 'user')`);
    const refused = await s.call('/app/device/device-total', { deviceIds: [A], stime: '2025-03-10 00:00:00', etime: '2025-03-10 23:59:59' }, user);
    expect(refused.status).toBe(401);
    const file = await fetch(s.url + '/app/device/download-device-total', { method: 'POST', headers: { 'content-type': 'application/json', authorization: user }, body: '{}' });
    expect(file.status).toBe(401);
    await s.sql(`insert into t_sys_role_menu (role_id, menu_id) select r.id, m.id from t_sys_role r, t_sys_permission_menu m where r.alias = 'user' and m.permissions = 'statistics:list'`);
  });

  describe('dashboard', () => {
    const data = async (path: string, token: string, body: unknown = {}) => {
      const r = await s.call(path, body, token);
      expect(r.body.success).toBe(true);
      return r.body.data.data;
    };

    beforeAll(async () => {
      await s.sql(`update t_device set t_online = case when f_number in ('DEV000001', 'DEV000002', 'DEV000009') then 1 else 0 end`);
      const msg = (device: number, direction: string, when = 'now()') =>
        `(${device}, 'N${device}', 'P', '${direction}', 't', '{}', ${when})`;
      await s.sql(`insert into t_emq_message_publish (f_device_id, f_device_number, f_product_number, f_direction, f_topic, f_payload, f_intime) values
        ${[msg(A, 'up'), msg(A, 'up'), msg(A, 'down'), msg(X, 'up'), msg(A, 'up', "now() - interval '40 days'")].join(', ')}`);
      const alarm = (device: number, active: number, deal: number, when = 'now()') => `(${device}, 'overcurrent', 'current', 90, 80, 'alarm', ${active}, ${deal}, ${when})`;
      await s.sql(`insert into t_device_alarm (f_device_id, f_kind, f_field, f_value, f_limit, f_level, f_active, f_deal, f_intime) values
        ${[alarm(A, 1, 0), alarm(A, 1, 1), alarm(A, 0, 0), alarm(X, 1, 0), alarm(A, 1, 0, "now() - interval '40 days'")].join(', ')}`);
    });

    it('counts devices online per product type, in scope', async () => {
      const [{ all, online }] = await s.sql(`select count(*) as all, count(*) filter (where t_online = 1) as online from t_device`);
      const total = await data('/api/home/total-device', admin);
      expect(total).toMatchObject({ allCount: Number(all), onlineCount: Number(online), offlineCount: Number(all) - Number(online) });
      expect(total.onlineCount).toBe(3);
      const types = await s.sql(`select f_type_id as t, count(*) as n, count(*) filter (where t_online = 1) as o from t_device group by 1`);
      for (const t of types) expect(total[`device${t.t}`]).toMatchObject({ deviceCount: Number(t.n), deviceOnlineCount: Number(t.o) });
      expect(total.device1.name).toBe('485设备');
      expect((await data('/api/home/total-device', agent)).allCount).toBe(Number(all) - 1);
      expect(await data('/api/home/total-device', user)).toMatchObject({ allCount: 5, onlineCount: 2, offlineCount: 3 });
      const more = await data('/api/home/total-device-online-more', admin);
      expect(more.series[0].data.reduce((a: number, b: number) => a + b, 0)).toBe(Number(all));
      expect(more.series[1].data.reduce((a: number, b: number) => a + b, 0)).toBe(3);
      expect(more.categories).toHaveLength(more.series[0].data.length);
    });

    it('keeps its device counters equal to a count of the devices, whoever writes them', async () => {
      const recount = `select coalesce(f_product_id, 0) as p, coalesce(f_type_id, 0) as t, coalesce(t_online, -1) as o, coalesce(f_status, -1) as s, count(*)::int as n from t_device group by 1, 2, 3, 4`;
      const counters = `select f_product_id as p, f_type_id as t, f_online as o, f_status as s, f_count::int as n from t_device_count where f_count <> 0`;
      const same = async () => {
        const key = (r: any) => `${r.p}/${r.t}/${r.o}/${r.s}`;
        const sorted = (rows: any[]) => rows.map((r) => `${key(r)}=${r.n}`).sort();
        expect(sorted(await s.sql(counters))).toEqual(sorted(await s.sql(recount)));
      };
      await same();
      const [product] = await s.sql(`select f_id from t_product where f_number = 'P-4G-SW'`);
      const before = (await data('/api/home/total-device', admin)).allCount;
      // Through the console, then plain SQL: a new device, an online flip of several, a move to
      // another product, a device without a type, a delete.
      const created = await s.call('/biz/t-device/addorupdate', { fNumber: 'COUNT-1', fName: '计数设备', fProductId: product.fId }, admin);
      expect((await data('/api/home/total-device', admin)).allCount).toBe(before + 1);
      await s.sql(`update t_device set t_online = 1 - coalesce(t_online, 0) where f_id in (${A}, ${B}, ${created.body.data.fId})`);
      await s.sql(`insert into t_device (f_number, f_name, f_product_id, f_user_id, t_online) values ('COUNT-2', '无类型', ${product.fId}, 1, 1)`);
      await same();
      // Activation through the console, and a state set back by hand.
      expect((await s.call('/biz/t-device/activation', { fId: created.body.data.fId }, admin)).body.success).toBe(true);
      await same();
      await s.sql(`update t_device set f_status = null where f_number = 'COUNT-2'`);
      await same();
      const other = (await s.sql(`select f_id from t_product where f_id <> ${product.fId} order by f_id limit 1`))[0].fId;
      await s.sql(`update t_device set f_product_id = ${other} where f_number = 'COUNT-2'`);
      await same();
      await s.call('/biz/t-device/del', { fId: created.body.data.fId }, admin);
      await s.sql(`delete from t_device where f_number = 'COUNT-2'`);
      await s.sql(`update t_device set t_online = 1 - coalesce(t_online, 0) where f_id in (${A}, ${B})`);
      await same();
      expect((await data('/api/home/total-device', admin)).allCount).toBe(before);
    });

    it('counts messages and warnings of today and this month', async () => {
      expect(await data('/api/home/total-record', admin)).toEqual({ dayCount: 4, monthCount: 4 });
      expect(await data('/api/home/total-record', agent)).toEqual({ dayCount: 3, monthCount: 3 });
      expect(await data('/api/home/total-record', user)).toEqual({ dayCount: 3, monthCount: 3 });
      const month = await data('/api/home/total-record-month-count', admin);
      expect(month.categories).toHaveLength(Number(new Intl.DateTimeFormat('en', { timeZone: TZ, day: 'numeric' }).format(new Date())));
      const sum = (series: any) => series.data.reduce((a: number, b: number) => a + b, 0);
      expect(month.series.map(sum)).toEqual([3, 1]);
      expect(await data('/api/home/total-warn', admin)).toEqual({ dayCount: 3, monthCount: 3, dayNoDealCount: 2, monthNoDealCount: 2 });
      expect(await data('/api/home/total-warn', agent)).toEqual({ dayCount: 2, monthCount: 2, dayNoDealCount: 1, monthNoDealCount: 1 });
      expect((await data('/api/home/total-warn-month-count', admin)).series.map(sum)).toEqual([3, 2]);
      for (const type of [0, 1, 2, 3]) {
        const history = await data('/api/home/total-record-more', admin, { type });
        expect(history.series.map(sum)).toEqual([3, 1, 3]);
        expect(history.categories.length).toBeGreaterThanOrEqual([60, 24, 168, 30][type]);
        expect(history.categories.length).toBeLessThanOrEqual([61, 25, 169, 31][type]);
      }
      const agentHistory = await data('/api/home/total-record-more', agent, { type: 3 });
      expect(agentHistory.series.map(sum)).toEqual([2, 1, 2]);
      const ranged = await data('/api/home/total-record-more', admin, { type: 3, beginTime: '2025-03-01 00:00:00', endTime: '2025-03-31 23:59:59' });
      expect(ranged.categories[0]).toBe('03-01');
      expect(ranged.series.map(sum)).toEqual([0, 0, 0]);
    });

    it('counts users only for administrators', async () => {
      // Console users only (the demo's four accounts): the demo district's tenants and visitors (user type 2) are not counted.
      expect(await data('/api/home/total-user', admin)).toEqual({ allCount: 4, adminCount: 1, agentCount: 1, generalCount: 2 });
      expect(await data('/api/home/total-user', agent)).toBeNull();
      expect(await data('/api/home/total-user', user)).toBeNull();
    });

    it('reports the load of this server to the holders of its codes only', async () => {
      // An account without a single code, one with the device codes only (the demo user, the agent), and
      // the officer, who handles the alarms: the host's figures are for the system monitor's or the alarm lists' holders.
      await s.sql(`insert into t_sys_role (name, alias) values ('无权限', 'bare') on conflict do nothing`);
      const [bare] = await s.sql(`select id from t_sys_role where alias = 'bare'`);
      const made = await s.call('/system/t-sys-user/addOrUpdateSysUser', { fAdmin: 0, fChineseName: '无权限', fPhone: '13466660001', roles: [bare.id], fPassword: 'Bare@123', passwordCheck: 'Bare@123' }, admin);
      expect(made.body.success).toBe(true);
      const nobody = await s.login({ phone: '13466660001', password: 'Bare@123' });
      for (const token of [nobody, user, agent]) expect((await s.call('/api/home/total-system', {}, token)).status).toBe(401);
      const officer = await s.login(OFFICER);
      expect((await s.call('/api/home/total-system', {}, officer)).status).toBe(200);
      const sys = await data('/api/home/total-system', admin);
      expect(sys.cpu).toBeGreaterThanOrEqual(0);
      expect(sys.cpu).toBeLessThanOrEqual(100);
      expect(sys.processCpu).toBeGreaterThanOrEqual(0);
      expect(sys.ram).toBeGreaterThan(0);
      expect(sys.ram).toBeLessThanOrEqual(sys.ramTotal);
      expect(sys.processRam).toBeGreaterThan(0);
      expect(sys.processRam).toBeLessThan(sys.ramTotal);
      expect(sys.ramMax).toBeGreaterThanOrEqual(8);
      expect(sys.cpuCount).toBeGreaterThan(0);
    });
  });
});

describe('energy roll-up of live telemetry', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer('pglite', { simulate: true, telemetryMs: 300 });
  });
  afterAll(() => s?.close());

  it('matches what the simulated meters counted', async () => {
    const [device] = await s.sql(`select f_id, f_name from t_device where f_number = 'DEV000009'`);
    const count = async () => Number((await s.sql(`select count(*) as n from t_device_telemetry where f_device_id = ${device.fId}`))[0].n);
    for (let i = 0; i < 50 && (await count()) < 5; i++) await new Promise((r) => setTimeout(r, 200));
    expect(await count()).toBeGreaterThanOrEqual(5);
    await rollUpEnergy(s.devices.live.db, { timeZone: TZ });
    const [{ used }] = await s.sql(`select max(energy) - min(energy) as used from t_device_telemetry where f_device_id = ${device.fId}`);
    const admin = await s.login(ADMIN);
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: TZ }).format(new Date());
    const res = await s.call('/app/device/device-total', { deviceIds: [device.fId], stime: `${today} 00:00:00`, etime: `${today} 23:59:59`, timeType: 1 }, admin);
    expect(res.body.data.total[0].value).toBeCloseTo(Number(used), 3);
  });
});

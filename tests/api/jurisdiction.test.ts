import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, OFFICER, USER, backends, startServer, type TestServer, until } from './harness';
const SAVE = '/system/t-sys-user/addOrUpdateSysUser';
const INFO = '/system/t-sys-user/getUserInfo';

describe.each(backends)('a staff member’s jurisdiction on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let officer: string;
  let officerId: number;
  const alarms = async (token: string, condition: Record<string, unknown> = {}) => (await s.call('/biz/t-alarm/pageList', { current: 1, size: 100, condition }, token)).body.data;
  const count = async (where: string) => (await s.sql(`select count(*)::int as n from t_alarm where ${where}`))[0].n as number;
  /** Saves the officer as the user form does: the stored values with the given changes. */
  const saveOfficer = async (changes: Record<string, unknown>) => {
    const info = (await s.call(INFO, { fId: officerId }, admin)).body.data;
    return s.call(SAVE, { fId: officerId, fAdmin: info.fAdmin, fChineseName: info.fChineseName, fPhone: info.fPhone, fRoleIds: info.fRoleIds, ...changes }, admin);
  };

  beforeAll(async () => {
    s = await startServer(backend, { simulate: true, telemetryMs: 5000 });
    [admin, officer] = [await s.login(ADMIN), await s.login(OFFICER)];
    officerId = (await s.sql(`select f_id from t_sys_user where f_phone = '${OFFICER.phone}'`))[0].fId;
  }, 90_000);
  afterAll(() => s?.close());

  it('the demo officer sees the alarms of the street in charge, and signs only those', async () => {
    const inside = await count('f_street_id = 44010601');
    expect(inside).toBeGreaterThan(0);
    expect(inside).toBeLessThan(await count('true'));
    const page = await alarms(officer);
    expect(page.total).toBe(inside);
    expect(page.records.every((r: { fStreetId: number }) => r.fStreetId === 44010601)).toBe(true);
    // The login summary counts the same scope.
    const summary = (await s.call('/biz/t-alarm/alarmTypeCount', {}, officer)).body.data as { num: number }[];
    expect(summary.reduce((a, g) => a + g.num, 0)).toBe(await count('f_street_id = 44010601 and f_status = 0 and f_alarm_type in (1,2,3,4,5,6,13,14,15,17,18)'));
    const [outside] = await s.sql(`select f_id from t_alarm where f_street_id <> 44010601 and f_status = 0 order by f_id limit 1`);
    const refused = await s.call('/biz/t-alarm/signing', { fId: outside.fId, fHandleContent: '已处理' }, officer);
    expect(refused.body.message).toBe('数据不存在或无权操作');
    const [mine] = await s.sql(`select f_id from t_alarm where f_street_id = 44010601 and f_status = 0 order by f_id limit 1`);
    expect((await s.call('/biz/t-alarm/signing', { fId: mine.fId, fHandleContent: '已处理' }, officer)).body.message).toBe('签收成功');
  });

  it('the dashboard counts the alarms of the jurisdiction this month; those without the alarm lists get no card', async () => {
    const zone = process.env.TZ || 'Asia/Shanghai';
    const since = (unit: string) => `f_alarm_time >= (date_trunc('${unit}', now() at time zone '${zone}') at time zone '${zone}')`;
    const expected = async (where: string) => ({
      dayCount: await count(`${where} and ${since('day')}`),
      monthCount: await count(`${where} and ${since('month')}`),
      dayNoDealCount: await count(`${where} and ${since('day')} and f_status = 0`),
      monthNoDealCount: await count(`${where} and ${since('month')} and f_status = 0`),
    });
    const card = async (token: string) => (await s.call('/api/home/total-alarm', {}, token)).body.data.data;
    const chart = async (token: string) => (await s.call('/api/home/total-alarm-month-count', {}, token)).body.data.data;
    // An unsigned alarm of the street raised now: today is never empty, whatever the day of the month.
    await s.sql(`insert into t_alarm (f_alarm_type, f_status, f_alarm_time, f_intime, f_house_id, f_room_id, f_area_id, f_street_id, f_community_id)
      select f_alarm_type, 0, now(), now(), f_house_id, f_room_id, f_area_id, f_street_id, f_community_id from t_alarm where f_street_id = 44010601 limit 1`);
    const mine = await expected('f_street_id = 44010601');
    expect(mine.dayNoDealCount).toBeGreaterThan(0);
    expect(await card(officer)).toEqual(mine);
    const all = await expected('true');
    expect(all.monthCount).toBeGreaterThan(mine.monthCount);
    expect(await card(admin)).toEqual(all);
    // The chart's days add up to the month, in the same scope.
    const days = await chart(officer);
    const series = (key: string) => days.series.find((x: { key: string }) => x.key === key).data as number[];
    expect(series('alarm').reduce((a, n) => a + n, 0)).toBe(mine.monthCount);
    expect(series('unsigned').reduce((a, n) => a + n, 0)).toBe(mine.monthNoDealCount);
    for (const other of [AGENT, USER]) {
      const token = await s.login(other);
      expect(await card(token)).toBeNull();
      expect(await chart(token)).toBeNull();
    }
  });

  it('the form saves regions and streets, names them, and the next call follows the change', async () => {
    const info = (await s.call(INFO, { fId: officerId }, admin)).body.data;
    expect(info).toMatchObject({ fAreaIds: null, streets: '44010601', areaNames: [], streetNames: [{ id: 44010601, name: '石牌街' }] });
    // Another street instead.
    expect((await saveOfficer({ streets: '44010602' })).body.code).toBe(200);
    const page = await alarms(officer);
    expect(page.total).toBe(await count('f_street_id = 44010602'));
    expect(page.total).toBeGreaterThan(0);
    expect(page.records.every((r: { fStreetId: number }) => r.fStreetId === 44010602)).toBe(true);
    // A district and a street: the district's alarms.
    await saveOfficer({ fAreaIds: '440106', streets: '44010401' });
    expect((await s.call(INFO, { fId: officerId }, admin)).body.data).toMatchObject({ fAreaIds: '440106', streets: '44010401', areaNames: [{ id: 440106, name: '天河区' }], streetNames: [{ id: 44010401, name: '北京街' }] });
    expect((await alarms(officer)).total).toBe(await count('f_area_id = 440106 or f_street_id = 44010401'));
    // A city covers its districts.
    await saveOfficer({ fAreaIds: '440100', streets: '' });
    expect((await alarms(officer)).total).toBe(await count('f_area_id in (440104, 440106)'));
    // Nothing in charge: nothing seen.
    await saveOfficer({ fAreaIds: '', streets: '' });
    expect((await alarms(officer)).total).toBe(0);
    await saveOfficer({ fAreaIds: '', streets: '44010601' });
  });

  it('refuses codes that are not regions or streets, storing nothing', async () => {
    expect((await saveOfficer({ fAreaIds: '440106,abc' })).body.message).toBe('管辖区域格式不正确');
    expect((await saveOfficer({ fAreaIds: '999999' })).body.message).toBe('管辖区域不存在');
    expect((await saveOfficer({ streets: '1' })).body.message).toBe('管辖街道不存在');
    expect((await s.call(INFO, { fId: officerId }, admin)).body.data).toMatchObject({ fAreaIds: null, streets: '44010601' });
  });

  it('a change of the region tree reaches the cached caller', async () => {
    await saveOfficer({ fAreaIds: '440100', streets: '' });
    expect((await alarms(officer)).total).toBe(await count('f_area_id = 440106'));
    // 天河区 moved under 深圳市: no longer under the officer's city.
    await s.sql(`update t_area_info set f_high_area_id = 440300 where f_area_id = 440106`);
    try {
      expect((await alarms(officer)).total).toBe(await count('f_area_id in (440103, 440104)'));
    } finally {
      await s.sql(`update t_area_info set f_high_area_id = 440100 where f_area_id = 440106`);
      await saveOfficer({ fAreaIds: '', streets: '44010601' });
    }
  });

  it('one-touch alerts: those raised by people renting in the jurisdiction', async () => {
    // The simulator raises alerts meanwhile: the answer lies between the counts before and after it.
    const renting = `select l.f_user_id from t_tenant_house l join t_house_info h on h.f_house_id = l.f_house_id where l.f_status = 2 and h.f_street_id = 44010601`;
    const expected = async () => (await s.sql(`select count(*)::int as n from t_touch_alarm where f_user_id in (${renting})`))[0].n as number;
    const before = await expected();
    const page = (await s.call('/biz/t-touch-alarm/pageList', { current: 1, size: 100, condition: {} }, officer)).body.data;
    const after = await expected();
    expect(before).toBeGreaterThan(0);
    expect(page.total).toBeGreaterThanOrEqual(before);
    expect(page.total).toBeLessThanOrEqual(after);
    expect(after).toBeLessThan((await s.sql(`select count(*)::int as n from t_touch_alarm`))[0].n);
    const renters = new Set((await s.sql(renting)).map((r) => r.fUserId));
    expect(page.records.every((r: { fUserId: number }) => renters.has(r.fUserId))).toBe(true);
  });

  it('rental houses and tenants: those of the jurisdiction; the administrator sees all', async () => {
    const houses = async (token: string) => (await s.call('/biz/t-house-info/list', { current: 1, size: 100, condition: {} }, token)).body.data;
    const mine = await houses(officer);
    const [{ n: inStreet }] = await s.sql(`select count(*)::int as n from t_house_info where f_street_id = 44010601`);
    expect(mine.total).toBe(inStreet);
    expect(mine.records.every((h: { fStreetId: number }) => h.fStreetId === 44010601)).toBe(true);
    expect((await houses(admin)).total).toBeGreaterThan(inStreet);
    const tenants = async (token: string) => (await s.call('/system/t-sys-user/pageList', { current: 1, size: 100, condition: { userType: 2 } }, token)).body.data;
    const [{ n: renting }] = await s.sql(`select count(distinct l.f_user_id)::int as n from t_tenant_house l join t_house_info h on h.f_house_id = l.f_house_id where l.f_status = 2 and h.f_street_id = 44010601`);
    expect(renting).toBeGreaterThan(0);
    expect((await tenants(officer)).total).toBe(renting);
    expect((await tenants(admin)).total).toBeGreaterThan(renting);
  });

  it('a new alarm in the jurisdiction reaches the officer’s messages and event stream; one outside does not', async () => {
    const sim = s.devices.security!;
    const streetOf = new Map((await s.sql(`select d.f_number, h.f_street_id from t_house_device b join t_device d on d.f_id = b.f_device_id join t_house_info h on h.f_house_id = b.f_house_id`)).map((r) => [r.fNumber, r.fStreetId]));
    const inside = sim.devices.find((d) => streetOf.get(d.deviceNumber) === 44010601)!;
    const outside = sim.devices.find((d) => streetOf.get(d.deviceNumber) === 44010602)!;
    const unread = async () => (await fetch(`${s.url}/message/init`, { headers: { authorization: officer } }).then((r) => r.json())).data.unreadCount as number;
    const before = await unread();
    const ticket = (await s.call('/api/events/ticket', {}, officer)).body.data.ticket;
    const abort = new AbortController();
    const stream = await fetch(`${s.url}/api/events?ticket=${ticket}`, { signal: abort.signal });
    const reader = stream.body!.getReader();
    let text = '';
    const reading = (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          text += new TextDecoder().decode(value);
        }
      } catch {
        // Aborted.
      }
    })();
    try {
      const [{ last }] = await s.sql(`select max(f_id) as last from t_alarm`);
      await sim.raise(outside.deviceNumber, { type: 4 });
      const far = await until(async () => (await s.sql(`select max(f_id) as id from t_alarm where f_street_id = 44010602 and f_id > ${last}`))[0].id);
      await sim.raise(inside.deviceNumber, { type: 4 });
      await until(async () => (await unread()) === before + 1);
      const near = (await s.sql(`select max(f_id) as id from t_alarm where f_street_id = 44010601`))[0].id;
      await until(async () => text.includes(`"fId":${near}`));
      expect(text).not.toContain(`"fId":${far}`);
      expect(await unread()).toBe(before + 1);
      // Put in charge of the other street while the stream is open: its next alarm arrives on it.
      await saveOfficer({ streets: '44010602' });
      await sim.raise(outside.deviceNumber, { type: 4 });
      const moved = await until(async () => (await s.sql(`select max(f_id) as id from t_alarm where f_street_id = 44010602 and f_id > ${far}`))[0].id);
      await until(async () => text.includes(`"fId":${moved}`));
    } finally {
      abort.abort();
      await reading;
      await saveOfficer({ streets: '44010601' });
    }
  }, 40_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer, until } from './harness';

describe.each(backends)('alarms and one-touch alerts on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let user: string;
  const page = (condition: Record<string, unknown>, token = admin, extra: Record<string, unknown> = {}) =>
    s.call('/biz/t-alarm/pageList', { current: 1, size: 10, condition, ...extra }, token);
  const unsigned = async (types: number[]) => (await s.sql(`select f_id from t_alarm where f_status = 0 and f_alarm_type in (${types.join(',')}) order by f_id`)).map((r) => r.fId as number);

  beforeAll(async () => {
    s = await startServer(backend, { simulate: true, telemetryMs: 5000 });
    [admin, agent, user] = [await s.login(ADMIN), await s.login(AGENT), await s.login(USER)];
  }, 90_000);
  afterAll(() => s?.close());

  it('seeds a history of every type, bound to houses, rooms and devices', async () => {
    const [{ n }] = await s.sql(`select count(*)::int as n from t_alarm`);
    expect(n).toBe(400);
    const types = (await s.sql(`select distinct f_alarm_type as t from t_alarm order by 1`)).map((r) => r.t);
    expect(types).toEqual([1, 2, 3, 4, 5, 6, 11, 13, 14, 15, 17, 18]);
    const [{ m }] = await s.sql(`select count(*)::int as m from t_house_device`);
    expect(m).toBe(30);
  });

  it('lists the door-lock preset with names, labels and nested rows, newest first', async () => {
    const { status, body } = await page({ alarm_type: [4, 3] });
    expect(status).toBe(200);
    expect(body.data.total).toBeGreaterThan(0);
    const rows = body.data.records;
    expect(rows.every((r: any) => [3, 4].includes(r.fAlarmType))).toBe(true);
    const times = rows.map((r: any) => r.fAlarmTime);
    expect([...times].sort().reverse()).toEqual(times);
    const r = rows[0];
    expect(r.tRentalHouse.fHouseName).toBe(r.fHouseName);
    expect(r.fAlarmTypeName).toBe(r.fAlarmType === 3 ? '门未锁' : '试探禁止');
    expect(['未签收', '已签收']).toContain(r.fStatusName);
    // Spec 001 §3: the device alarm's tDevice carries fDeviceTypeName and fDeviceName.
    expect(r.tDevice).toMatchObject({ fDeviceTypeName: '门锁', fDeviceName: r.fDeviceName });
    expect(r.tDevice.fDeviceName).toBeTruthy();
    expect(Object.keys(r.tDevice).sort()).toEqual(['fDeviceName', 'fDeviceTypeName', 'fId', 'fName', 'fNumber']);
    const named = rows.find((x: any) => x.tUserAlarm);
    if (named) expect(named.tUserAlarm.phone).toMatch(/^\d{3}\*{4}\d{4}$/);
  });

  it('filters by every condition of the list', async () => {
    const all = (await page({})).body.data.total;
    expect(all).toBe(400);
    const [{ n: gathering }] = await s.sql(`select count(*)::int as n from t_alarm where f_alarm_type = 14`);
    expect((await page({ alarm_type: [14] })).body.data.total).toBe(gathering);
    expect((await page({ alarm_type_id: 14 })).body.data.total).toBe(gathering);
    const [{ n: device }] = await s.sql(`select count(*)::int as n from t_alarm where f_alarm_type in (1,2,5,6)`);
    expect((await page({ alarm_type: [1, 2, 5, 6] })).body.data.total).toBe(device);
    const [{ n: open }] = await s.sql(`select count(*)::int as n from t_alarm where f_status = 0`);
    expect((await page({ status: 0 })).body.data.total).toBe(open);
    const [{ n: locks }] = await s.sql(`select count(*)::int as n from t_alarm where f_device_type = 2`);
    expect((await page({ device_type: 2 })).body.data.total).toBe(locks);
    const [h] = await s.sql(`select h.f_house_id, h.f_house_name, h.f_area_id, h.f_street_id, h.f_community_id from t_house_info h where h.f_house_id in (select f_house_id from t_alarm) order by 1 limit 1`);
    const [{ n: inHouse }] = await s.sql(`select count(*)::int as n from t_alarm where f_house_id = ${h.fHouseId}`);
    expect((await page({ house_name: h.fHouseName })).body.data.total).toBeGreaterThanOrEqual(inHouse);
    expect((await page({ house_name: '没有这个地址' })).body.data.total).toBe(0);
    const [{ n: inArea }] = await s.sql(`select count(*)::int as n from t_alarm where f_area_id = ${h.fAreaId}`);
    expect((await page({ type: h.fAreaId })).body.data.total).toBe(inArea);
    const [{ n: inStreet }] = await s.sql(`select count(*)::int as n from t_alarm where f_street_id = ${h.fStreetId}`);
    expect((await page({ streetId: h.fStreetId })).body.data.total).toBe(inStreet);
    const [{ n: inCommunity }] = await s.sql(`select count(*)::int as n from t_alarm where f_community_id = ${h.fCommunityId}`);
    expect((await page({ communityId: h.fCommunityId })).body.data.total).toBe(inCommunity);
    const [{ n: byDevice }] = await s.sql(`select count(*)::int as n from t_alarm a join t_device d on d.f_id = a.f_device_id where d.f_number = 'LK-H01-1'`);
    expect((await page({ device_code: 'LK-H01-1' })).body.data.total).toBe(byDevice);
    const [{ n: recent }] = await s.sql(`select count(*)::int as n from t_alarm where f_alarm_time >= now() - interval '7 days'`);
    const from = new Date(Date.now() - 7 * 86_400_000);
    const fmt = (d: Date) => d.toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' });
    const ranged = (await page({ time_limit: [fmt(from), fmt(new Date(Date.now() + 60_000))] })).body.data.total;
    expect(Math.abs(ranged - recent)).toBeLessThanOrEqual(1);
    expect((await page({ time_limit: ['2000-01-01 00:00:00', '2000-01-02 00:00:00'] })).body.data.total).toBe(0);
    // A range whose start is after its end is refused, not answered with an empty page.
    expect((await page({ time_limit: ['2000-01-02 00:00:00', '2000-01-01 00:00:00'] })).body).toMatchObject({ code: 400, success: false, message: '开始时间不能晚于结束时间' });
    const [{ n: described }] = await s.sql(`select count(*)::int as n from t_alarm where f_remark like '%聚集%' or f_handle_content like '%聚集%'`);
    expect((await page({ keyword: '聚集' })).body.data.total).toBe(described);
    const [p] = await s.sql(`select f_user_alarm_id as id, count(*)::int as n from t_alarm where f_user_alarm_id is not null group by 1 order by 2 desc limit 1`);
    expect((await page({ value: p.id })).body.data.total).toBe(p.n);
  });

  it('pages ten by default and keeps to the asked size', async () => {
    const { body } = await s.call('/biz/t-alarm/pageList', { condition: {} }, admin);
    expect(body.data.records).toHaveLength(10);
    expect((await page({}, admin, { size: 20, current: 2 })).body.data.records).toHaveLength(20);
  });

  it('signs an alarm off with a note, and refuses to sign it twice', async () => {
    const [id] = await unsigned([3, 4]);
    const res = await s.call('/biz/t-alarm/signing', { fId: id, fHandleContent: '已上门核查，门已锁好', fRemark: '', fPhotoUrl: '' }, admin);
    expect(res.body).toMatchObject({ code: 200, success: true, message: '签收成功' });
    const [row] = await s.sql(`select f_status, f_handle_content, f_handle_user_id, f_handle_time from t_alarm where f_id = ${id}`);
    expect(row).toMatchObject({ fStatus: 1, fHandleContent: '已上门核查，门已锁好' });
    expect(row.fHandleTime).toBeTruthy();
    const [me] = await s.sql(`select f_id from t_sys_user where f_phone = '13800000000'`);
    expect(row.fHandleUserId).toBe(me.fId);
    const detail = (await s.call('/biz/t-alarm/detail', { fId: id }, admin)).body.data;
    expect(detail.tUserHandle.chineseName).toBe('系统管理员');
    const again = await s.call('/biz/t-alarm/signing', { fId: id, fHandleContent: '再签一次' }, admin);
    expect(again.body).toMatchObject({ code: 400, success: false, message: '该报警已签收，请勿重复签收' });
  });

  it('answers each validation message of the sign-off', async () => {
    const [id] = await unsigned([14]);
    expect((await s.call('/biz/t-alarm/signing', { fHandleContent: 'x' }, admin)).body.message).toBe('报警编号不能为空');
    expect((await s.call('/biz/t-alarm/signing', { fId: id, fHandleContent: '  ' }, admin)).body.message).toBe('处理备注不能为空');
    expect((await s.call('/biz/t-alarm/signing', { fId: id, fHandleContent: 'x'.repeat(501) }, admin)).body.message).toBe('处理备注不能超过500个字符');
    expect((await s.call('/biz/t-alarm/signing', { fId: 99999999, fHandleContent: 'x' }, admin)).body.message).toBe('数据不存在或无权操作');
    expect((await s.call('/biz/t-alarm/signingBatch', { ids: [], fHandleContent: 'x' }, admin)).body.message).toBe('请选择要签收的报警');
    expect((await s.call('/biz/t-alarm/signingBatch', { ids: Array.from({ length: 101 }, (_, i) => i + 1), fHandleContent: 'x' }, admin)).body.message).toBe('一次最多签收100条报警');
    expect((await s.call('/biz/t-alarm/signingBatch', { ids: [id] }, admin)).body.message).toBe('处理备注不能为空');
    const [{ fStatus }] = await s.sql(`select f_status from t_alarm where f_id = ${id}`);
    expect(fStatus).toBe(0);
  });

  it('signs several alarms off together and reports each row', async () => {
    const ids = (await unsigned([14, 15, 17])).slice(0, 3);
    const [signed] = await s.sql(`select f_id from t_alarm where f_status = 1 limit 1`);
    const res = await s.call('/biz/t-alarm/signingBatch', { ids: [...ids, signed.fId, 99999999], fHandleContent: '批量处理：社区已核查' }, admin);
    expect(res.body).toMatchObject({ code: 200, success: true, message: '已签收3条，失败2条' });
    const results = res.body.data.results;
    expect(results.filter((r: any) => r.success).map((r: any) => r.fId)).toEqual(ids);
    expect(results.find((r: any) => r.fId === signed.fId)).toMatchObject({ success: false, message: '该报警已签收，请勿重复签收' });
    expect(results.find((r: any) => r.fId === 99999999)).toMatchObject({ success: false, message: '数据不存在或无权操作' });
    const rows = await s.sql(`select f_handle_content from t_alarm where f_id in (${ids.join(',')})`);
    expect(rows.every((r) => r.fHandleContent === '批量处理：社区已核查')).toBe(true);
  });

  it('says why by code, in the language the caller asks in, beside the legacy message', async () => {
    /** A call in a console language: the envelope with its reason. */
    const inLanguage = async (path: string, body: unknown, language: string) =>
      (await fetch(s.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'accept-language': language, authorization: admin }, body: JSON.stringify(body) })).json();
    const [id] = await unsigned([15]);
    expect(await inLanguage('/biz/t-alarm/signing', { fId: id, fHandleContent: 'x'.repeat(501) }, 'en-US')).toMatchObject({
      code: 400, success: false, message: '处理备注不能超过500个字符',
      reason: { code: 'signOff.noteTooLong', params: { max: 500 }, text: 'The handling note cannot exceed 500 characters' },
    });
    expect((await inLanguage('/biz/t-alarm/signing', { fId: id, fHandleContent: '  ' }, 'zh-TW')).reason).toMatchObject({ code: 'signOff.noteRequired', text: '處理備註不能為空' });
    expect((await inLanguage('/biz/t-alarm/signing', { fHandleContent: 'x' }, 'en-US')).reason).toMatchObject({ code: 'alarm.idRequired', text: 'The alarm number is required' });
    expect(await inLanguage('/biz/t-alarm/signing', { fId: id, fHandleContent: 'Checked' }, 'en-US')).toMatchObject({ code: 200, message: '签收成功', reason: { code: 'alarm.signing.done', text: 'Signed off' } });
    expect(await inLanguage('/biz/t-alarm/signing', { fId: id, fHandleContent: 'Again' }, 'en-US')).toMatchObject({
      code: 400, message: '该报警已签收，请勿重复签收', reason: { code: 'alarm.alreadySigned', text: 'This alarm has already been signed off' },
    });
    expect((await inLanguage('/biz/t-touch-alarm/updateStatus', { fHandleContent: 'x' }, 'zh-TW')).reason).toMatchObject({ code: 'alarm.idRequired', text: '報警編號不能為空' });
    // A batch: the notice counts in the caller's language, and each row says why by code.
    const batch = await inLanguage('/biz/t-alarm/signingBatch', { ids: [id, 99999999], fHandleContent: 'Batch' }, 'en-US');
    expect(batch).toMatchObject({ code: 200, message: '已签收0条，失败2条', reason: { code: 'alarm.batchSigned', params: { signed: 0, failed: 2 }, text: '0 signed off, 2 failed' } });
    expect(batch.data.results).toMatchObject([
      { fId: id, success: false, message: '该报警已签收，请勿重复签收', reason: { code: 'alarm.alreadySigned', text: 'This alarm has already been signed off' } },
      { fId: 99999999, success: false, message: '数据不存在或无权操作', reason: { code: 'signOff.notFound', text: 'The record does not exist or you may not handle it' } },
    ]);
    expect((await inLanguage('/biz/t-alarm/signingBatch', { ids: Array.from({ length: 101 }, (_, i) => i + 1), fHandleContent: 'x' }, 'zh-TW')).reason).toMatchObject({ code: 'alarm.tooMany', params: { max: 100 }, text: '一次最多簽收100條報警' });
  });

  it('summarises the unsigned alarms by the login groups', async () => {
    const { body } = await s.call('/biz/t-alarm/alarmTypeCount', {}, admin);
    const counts = Object.fromEntries(body.data.map((g: any) => [g.type, g.num]));
    const count = async (types: number[]) => (await unsigned(types)).length;
    expect(counts).toEqual({
      device: await count([1, 2, 5, 6]), lock: await count([3, 4]), collect: await count([14]), time: await count([15]),
      roomCount: await count([17]), person: await count([13]), card: await count([18]),
    });
  });

  it('scopes alarms: the agent sees those of its own devices, an ordinary user none', async () => {
    const [{ n }] = await s.sql(`select count(*)::int as n from t_alarm a join t_device d on d.f_id = a.f_device_id join t_sys_user u on u.f_id = d.f_user_id where u.f_phone = '13800000001'`);
    // The agent role is not granted alarm codes in the demo: give it the list code for this check.
    await s.sql(`insert into t_sys_role_menu (role_id, menu_id) select r.id, m.id from t_sys_role r, t_sys_permission_menu m where r.alias = 'agent' and m.permissions in ('alarm:list', 'alarm:sign') on conflict do nothing`);
    expect((await page({}, agent)).body.data.total).toBe(n);
    await s.sql(`update t_device set f_user_id = null where f_number = 'LK-H01-1'`);
    const [{ m }] = await s.sql(`select count(*)::int as m from t_alarm a join t_device d on d.f_id = a.f_device_id where d.f_number = 'LK-H01-1'`);
    expect((await page({}, agent)).body.data.total).toBe(n - m);
    const [hidden] = await s.sql(`select a.f_id from t_alarm a join t_device d on d.f_id = a.f_device_id where d.f_number = 'LK-H01-1' and a.f_status = 0 limit 1`);
    if (hidden) expect((await s.call('/biz/t-alarm/signing', { fId: hidden.fId, fHandleContent: 'x' }, agent)).body.message).toBe('数据不存在或无权操作');
    await s.sql(`update t_device set f_user_id = (select f_id from t_sys_user where f_phone = '13800000001') where f_number = 'LK-H01-1'`);
  });

  it('keeps the summary with every write, plain SQL included, and counts an agent its own alarms', async () => {
    const groups = { device: [1, 2, 5, 6], lock: [3, 4], collect: [14], time: [15], roomCount: [17], person: [13], card: [18] };
    const summary = async (token = admin) => Object.fromEntries((await s.call('/biz/t-alarm/alarmTypeCount', {}, token)).body.data.map((g: any) => [g.type, g.num]));
    const counted = async (scope = 'true') => {
      const rows = await s.sql(`select f_alarm_type as t, count(*)::int as n from t_alarm a where f_status = 0 and ${scope} group by 1`);
      return Object.fromEntries(Object.entries(groups).map(([g, types]) => [g, rows.filter((r) => types.includes(r.t)).reduce((n, r) => n + r.n, 0)]));
    };
    const before = await summary();
    await s.sql(`insert into t_alarm (f_alarm_type, f_status, f_alarm_time, f_remark) values (14, 0, now(), 'summary check'), (14, 0, now(), 'summary check'), (15, 1, now(), 'summary check')`);
    expect(await summary()).toEqual({ ...before, collect: before.collect + 2 });
    await s.sql(`update t_alarm set f_alarm_type = 15 where f_id = (select min(f_id) from t_alarm where f_remark = 'summary check' and f_status = 0)`);
    expect(await summary()).toEqual({ ...before, collect: before.collect + 1, time: before.time + 1 });
    await s.sql(`update t_alarm set f_status = 0 where f_remark = 'summary check' and f_status = 1`);
    expect(await summary()).toEqual({ ...before, collect: before.collect + 1, time: before.time + 2 });
    await s.sql(`delete from t_alarm where f_remark = 'summary check'`);
    expect(await summary()).toEqual(before);
    expect(before).toEqual(await counted());

    await s.grant('agent', ['alarm:list']);
    const own = `f_device_id in (select d.f_id from t_device d join t_sys_user u on u.f_id = d.f_user_id where u.f_phone = '13800000001')`;
    expect(await summary(agent)).toEqual(await counted(own));
  });

  it('refuses every call without the permission code (HTTP 401)', async () => {
    for (const [path, body] of [
      ['/biz/t-alarm/pageList', {}],
      ['/biz/t-alarm/signing', { fId: 1, fHandleContent: 'x' }],
      ['/biz/t-alarm/signingBatch', { ids: [1], fHandleContent: 'x' }],
      ['/biz/t-alarm/alarmTypeCount', {}],
      ['/biz/t-touch-alarm/pageList', {}],
      ['/biz/t-touch-alarm/updateStatus', { fId: 1, fHandleContent: 'x' }],
    ] as const) {
      expect((await s.call(path, body, user)).status, path).toBe(401);
    }
  });

  it('records a door-not-locked event of a simulated door lock as an alarm of its house and room', async () => {
    const sim = s.devices.security!;
    const lock = sim.devices.find((d) => d.kind === 2 && d.idcards.length)!;
    const before = (await page({ alarm_type: [4, 3], status: 0 })).body.data.total;
    const sent = await sim.raise(lock.deviceNumber, { type: 3 });
    const row = await until(async () => (await s.sql(`select a.*, b.f_room_id as bound_room from t_alarm a join t_device d on d.f_id = a.f_device_id join t_house_device b on b.f_device_id = d.f_id where d.f_number = '${lock.deviceNumber}' and a.f_alarm_time = to_timestamp(${sent.ts} / 1000.0)`))[0]);
    expect(row).toMatchObject({ fAlarmType: 3, fStatus: 0, fDeviceType: 2 });
    expect(row.fRoomId).toBe(row.boundRoom);
    expect(row.fAreaId).toBeTruthy();
    const [person] = await s.sql(`select f_idcard from t_sys_user where f_id = ${row.fUserAlarmId}`);
    expect(lock.idcards).toContain(person.fIdcard);
    expect((await page({ alarm_type: [4, 3], status: 0 })).body.data.total).toBe(before + 1);
    const top = (await page({ alarm_type: [4, 3] })).body.data.records[0];
    expect(top.fId).toBe(row.fId);
  });

  it('lists one-touch alerts with masked phones, filters them and signs them off', async () => {
    const { body } = await s.call('/biz/t-touch-alarm/pageList', { current: 1, size: 50, condition: {} }, admin);
    expect(body.data.total).toBe(40);
    const r = body.data.records[0];
    expect(r.fPhone).toMatch(/^\d{3}\*{4}\d{4}$/);
    expect(r.fPoint).toBe(`${r.fLongitude},${r.fLatitude}`);
    expect(body.data.records.some((x: any) => x.fUserName === null)).toBe(true);
    const [u] = await s.sql(`select u.f_chinese_name, u.f_phone, u.f_idcard, u.f_id from t_touch_alarm t join t_sys_user u on u.f_id = t.f_user_id where u.f_idcard is not null order by t.f_id limit 1`);
    const [{ n }] = await s.sql(`select count(*)::int as n from t_touch_alarm where f_user_id = ${u.fId}`);
    const list = async (condition: Record<string, unknown>) => (await s.call('/biz/t-touch-alarm/pageList', { condition }, admin)).body.data.total;
    expect(await list({ idcard: u.fIdcard })).toBe(n);
    expect(await list({ phone: u.fPhone })).toBe(n);
    expect(await list({ userName: u.fChineseName })).toBeGreaterThanOrEqual(n);
    expect(await list({ phone: '19999999999' })).toBe(0);
    const [a] = await s.sql(`select f_address from t_touch_alarm order by f_id limit 1`);
    expect(await list({ address: a.fAddress })).toBeGreaterThanOrEqual(1);
    expect(await list({ time_limit: ['2000-01-01 00:00:00', '2000-01-02 00:00:00'] })).toBe(0);
    const [open] = await s.sql(`select f_id from t_touch_alarm where f_status = 0 order by f_id limit 1`);
    const sign = (body: Record<string, unknown>) => s.call('/biz/t-touch-alarm/updateStatus', body, admin);
    // Spec 001 §4: sign-off takes a handling note; without one the alert stays unsigned.
    for (const note of [undefined, '', '   ']) expect((await sign({ fId: open.fId, fHandleContent: note })).body).toMatchObject({ success: false, message: '处理备注不能为空' });
    expect((await sign({ fId: open.fId, fHandleContent: 'x'.repeat(501) })).body.message).toBe('处理备注不能超过500个字符');
    expect((await s.sql(`select f_status from t_touch_alarm where f_id = ${open.fId}`))[0].fStatus).toBe(0);
    const signed = await sign({ fId: open.fId, fHandleContent: ' 已电话联系本人，误触 ' });
    expect(signed.body).toMatchObject({ code: 200, success: true, message: '签收成功' });
    const [row] = await s.sql(`select f_status, f_handle_content, f_handle_user_id, f_handle_time from t_touch_alarm where f_id = ${open.fId}`);
    expect(row).toMatchObject({ fStatus: 1, fHandleContent: '已电话联系本人，误触' });
    expect(row.fHandleUserId).toBeTruthy();
    expect(row.fHandleTime).toBeTruthy();
    const listed = (await s.call('/biz/t-touch-alarm/pageList', { current: 1, size: 100, condition: { status: 1 } }, admin)).body.data.records.find((x: any) => x.fId === open.fId);
    expect(listed).toMatchObject({ fHandleContent: '已电话联系本人，误触', fHandleUserName: expect.any(String) });
    expect((await sign({ fId: open.fId, fHandleContent: '再次' })).body.message).toBe('该报警已签收，请勿重复签收');
    expect((await sign({ fHandleContent: '无编号' })).body.message).toBe('报警编号不能为空');
  });
});

/**
 * The embedded pages' calls: the system and database monitors (administrators only, whatever role holds
 * their codes), the error log's ingest (checked, size- and rate-limited), list and CSV export, and the
 * legacy loginwx and initializationData answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer } from './harness';

const SYSTEM = '/monitor/system';
const DRUID = '/druid/stat';
const ADD = '/system/error-log/add';
const LIST = '/system/error-log/pageList';
const CSV = '/system/error-log/exportCsv';

describe.each(backends)('monitors and the error log on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let user: string;

  beforeAll(async () => {
    s = await startServer(backend);
    [admin, agent, user] = [await s.login(ADMIN), await s.login(AGENT), await s.login(USER)];
  }, 60_000);
  afterAll(() => s?.close());

  it('answers the system monitor to administrators only', async () => {
    // A few calls first, so the figures have something to count.
    for (let i = 0; i < 5; i++) await s.call('/get_info', {}, admin);
    const r = await s.call(SYSTEM, {}, admin);
    expect(r.body.code).toBe(200);
    const d = r.body.data;
    expect(d.process.memory.rss).toBeGreaterThan(0);
    expect(typeof d.process.processCpu).toBe('number');
    expect(d.eventLoop).toEqual({ meanMs: expect.any(Number), p99Ms: expect.any(Number), maxMs: expect.any(Number) });
    expect(d.http.lastMinute).toBeGreaterThanOrEqual(5);
    expect(d.http.series).toHaveLength(60);
    expect(d.http.series.reduce((a: number, b: number) => a + b, 0)).toBe(d.http.lastMinute);
    expect(d.http.latencyMs.p50).toBeGreaterThan(0);
    expect(d.database.kind).toBe(backend);
    if (backend === 'postgres') expect(d.database.pool).toMatchObject({ total: expect.any(Number), idle: expect.any(Number), max: 10 });
    else expect(d.database.pool).toBeNull();
    expect(d.mqtt.state).toBe('connected');
    expect(d.mqtt.series).toHaveLength(60);
    // The intake: nothing received, nothing waiting, the alarm's limit from INTAKE_LAG_ALARM_S (30 s).
    expect(d.intake).toEqual({ offeredPerSecond: 0, storedPerSecond: 0, waiting: 0, lagMs: 0, lagAlarmMs: 30_000, ingesting: false });
    // The embedded broker says nothing of itself ($SYS figures come from Mosquitto and EMQX).
    expect(d.broker).toMatchObject({ reported: false, dropped: null, clients: null });

    for (const token of [agent, user]) expect((await s.call(SYSTEM, {}, token)).status).toBe(401);
    expect((await s.call(SYSTEM, {})).status).toBe(700);
    // The page's code given to another role does not make its holders administrators.
    await s.grant('agent', ['monitor:system', 'monitor:druid']);
    expect((await s.call(SYSTEM, {}, agent)).body).toMatchObject({ code: 401, message: '没有操作权限' });
    expect((await s.call(DRUID, {}, agent)).status).toBe(401);
  });

  it('answers the database monitor: sizes, rows, connections and the slowest statements', async () => {
    const r = await s.call(DRUID, {}, admin);
    expect(r.body.code).toBe(200);
    const d = r.body.data;
    expect(d.kind).toBe(backend);
    expect(d.sizeBytes).toBeGreaterThan(0);
    const users = d.tables.find((t: any) => t.name === 't_sys_user');
    const [{ n }] = await s.sql('select count(*) as n from t_sys_user');
    expect(users).toMatchObject({ rows: Number(n), exact: true });
    expect(users.totalBytes).toBeGreaterThan(0);
    expect(d.connections.max).toBeGreaterThanOrEqual(1);
    expect(['pg_stat_statements', 'server']).toContain(d.statements.source);
    expect(d.statements.list.length).toBeGreaterThan(0);
    const first = d.statements.list[0];
    expect(first).toMatchObject({ query: expect.any(String), calls: expect.any(Number), meanMs: expect.any(Number) });
    // Slowest first.
    const means = d.statements.list.map((x: any) => x.meanMs);
    expect([...means].sort((a, b) => b - a)).toEqual(means);
    for (const token of [user]) expect((await s.call(DRUID, {}, token)).status).toBe(401);
  });

  it('stores a console error report after checking it', async () => {
    const ok = await s.call(ADD, { fType: 'script', fCode: 0, fMessage: "ReferenceError: boom is not defined", fUrl: 'http://localhost/home', fStack: 'at x (a.js:1:2)' }, user);
    expect(ok.body).toMatchObject({ code: 200, data: { fId: expect.any(Number) } });
    const [row] = await s.sql(`select * from t_sys_error_log where f_id = ${ok.body.data.fId}`);
    expect(row).toMatchObject({ fType: 'script', fCode: 0, fUrl: 'http://localhost/home', fUserName: expect.any(String) });
    expect(row.fIntime).toBeTruthy();

    expect((await s.call(ADD, { fType: 'script', fMessage: '' }, user)).body).toMatchObject({ code: 400, message: '错误信息不能为空' });
    expect((await s.call(ADD, { fType: 'virus', fMessage: 'x' }, user)).body).toMatchObject({ code: 400, message: '错误类型不正确' });
    expect((await s.call(ADD, { fType: 'api', fMessage: 'x'.repeat(2001) }, user)).body).toMatchObject({ code: 400, message: '错误信息最多2000个字符' });
    // Over the call's 16 KB body limit: refused before it is read.
    const big = await s.call(ADD, { fType: 'api', fMessage: 'x', padding: 'y'.repeat(20_000) }, user);
    expect(big.body).toMatchObject({ code: 413, success: false });
  });

  it('lists the reports with filters and exports them as CSV', async () => {
    await s.call(ADD, { fType: 'api', fCode: 500, fMessage: '=HYPERLINK("http://evil")', fUrl: 'http://localhost/device' }, admin);
    const list = await s.call(LIST, { current: 1, size: 20, condition: { type: 'api' } }, admin);
    expect(list.body.code).toBe(200);
    expect(list.body.data.records.length).toBeGreaterThanOrEqual(1);
    expect(list.body.data.records.every((r: any) => r.fType === 'api')).toBe(true);
    expect((await s.call(LIST, { current: 1, size: 20, condition: { keyword: 'boom' } }, admin)).body.data.records[0].fMessage).toContain('boom');
    expect((await s.call(LIST, { current: 1, size: 20 }, user)).status).toBe(401);

    const res = await fetch(s.url + CSV, { method: 'POST', headers: { 'content-type': 'application/json', authorization: admin }, body: JSON.stringify({ condition: { type: 'api' } }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('.csv');
    const raw = Buffer.from(await res.arrayBuffer());
    // The UTF-8 byte-order mark, so spreadsheet programs read the Chinese text.
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = raw.subarray(3).toString('utf8');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('"时间","类型","编码","错误信息","地址","用户","浏览器"');
    expect(lines.length).toBe(1 + list.body.data.total);
    // A formula is written as text, so a spreadsheet shows it instead of running it.
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(text).not.toContain('boom');
    const refused = await fetch(s.url + CSV, { method: 'POST', headers: { 'content-type': 'application/json', authorization: user }, body: '{}' });
    expect(refused.status).toBe(401);
  });

  it('limits how many reports an address sends a minute', async () => {
    let limited = 0;
    for (let i = 0; i < 35; i++) {
      const r = await s.call(ADD, { fType: 'promise', fMessage: `loop ${i}` }, user);
      if (r.body.code === 429) limited++;
    }
    expect(limited).toBeGreaterThan(0);
    const [{ n }] = await s.sql(`select count(*) as n from t_sys_error_log where f_message like 'loop %'`);
    expect(Number(n)).toBeLessThanOrEqual(30);
  });

  it('answers the legacy loginwx and initializationData calls', async () => {
    expect((await s.call('/app/sys-user/loginwx', {})).body).toMatchObject({ code: 400, message: 'openId不能为空' });
    expect((await s.call('/app/sys-user/loginwx', { openId: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M' })).body).toMatchObject({ code: 400, message: '未开通微信登录，请使用手机号和密码登录' });
    const init = await (await fetch(s.url + '/api/public/initializationData')).json();
    expect(init.code).toBe(200);
    expect(init.data.languages).toEqual(['zh-CN', 'zh-TW', 'en-US']);
    expect(init.data.dictionaries.Room_Type.length).toBeGreaterThan(0);
    expect(init.data.dictionaries.Room_Type[0]).toMatchObject({ fKey: 'Room_Type', fValue: expect.any(String), fContent: expect.any(String) });
  });
});

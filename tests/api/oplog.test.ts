import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer } from './harness';
import { HUGE_LIST } from '../../server/crud/query';

const LOG = '/system/log/pageList';

describe.each(backends)('operation log on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  const page = async (condition: object, extra: object = {}) => (await s.call(LOG, { current: 1, size: 10, condition, ...extra }, admin)).body;

  beforeAll(async () => {
    s = await startServer(backend);
    await s.call('/login', { userName: ADMIN.phone, password: 'Wrong@999' });
    [admin, agent] = [await s.login(ADMIN), await s.login(AGENT)];
    await s.call('/system/t-sys-user-home/addorupdate', { isAdd: true, fName: '日志场所' }, agent);
    await s.call('/system/t-sys-user-home/addorupdate', { isAdd: true, fName: '' }, agent);
  }, 60_000);
  afterAll(() => s?.close());

  it('pages every write, newest first, with the failed login', async () => {
    const body = await page({});
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({ current: 1, size: 10 });
    expect(body.data.total).toBeGreaterThanOrEqual(5);
    const records = body.data.records;
    const times = records.map((r: any) => r.createtime);
    expect([...times].sort().reverse()).toEqual(times);
    expect(records[0]).toMatchObject({ logname: 'place.save', lognames: { 'zh-CN': '场所保存', 'en-US': 'Save place' }, succeed: 0, logtype: 'POST' });
    expect(records[0].userName).toBeTruthy();
    expect(records[0].message).toContain('场所名称不能为空');
    const failedLogin = records.find((r: any) => r.logname === 'session.login' && r.succeed === 0);
    expect(failedLogin).toBeTruthy();
    expect(failedLogin.ip).toBeTruthy();
    for (const r of records) {
      expect(r.message).not.toContain('Wrong@999');
      expect(r.message).not.toContain(ADMIN.password);
      expect(r.message).not.toContain(AGENT.password);
    }
  });

  it('filters by operator, outcome and time range', async () => {
    const agentName = (await s.sql(`select f_chinese_name from t_sys_user where f_phone = '${AGENT.phone}'`))[0].fChineseName;
    const byAgent = await page({ keyword: agentName });
    // The sign-in (recorded under the account that signed in) and the two place saves.
    expect(byAgent.data.total).toBe(3);
    expect(byAgent.data.records.map((r: any) => r.logname).sort()).toEqual(['place.save', 'place.save', 'session.login']);
    expect(byAgent.data.records.every((r: any) => r.userName === agentName)).toBe(true);
    expect((await page({ keyword: '没有这个人' })).data.total).toBe(0);

    const failed = await page({ succeed: 0 });
    expect(failed.data.records.length).toBeGreaterThanOrEqual(2);
    expect(failed.data.records.every((r: any) => r.succeed === 0)).toBe(true);
    const ok = await page({ succeed: '1' });
    expect(ok.data.records.every((r: any) => r.succeed === 1)).toBe(true);
    expect((await page({ succeed: 5 })).message).toBe('请求状态不正确');

    const all = (await page({})).data.total;
    const newest = (await page({})).data.records[0].createtime;
    expect((await page({ beginTime: '2000-01-01 00:00:00', endTime: '2999-12-31 23:59:59' })).data.total).toBe(all);
    expect((await page({ beginTime: '2999-01-01 00:00:00' })).data.total).toBe(0);
    expect((await page({ endTime: '2000-01-01 00:00:00' })).data.total).toBe(0);
    expect((await page({ beginTime: newest, endTime: newest })).data.total).toBeGreaterThanOrEqual(1);
    expect((await page({ beginTime: 'yesterday' })).message).toBe('开始时间格式不正确');
    const second = await page({}, { current: 2, size: 2 });
    expect(second.data.records.length).toBe(2);
  });

  it('is for administrators only', async () => {
    const user = await s.login(USER);
    for (const token of [agent, user]) {
      const r = await s.call(LOG, { current: 1, size: 10 }, token);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ code: 401, message: '没有操作权限' });
    }
  });

  it('answers an estimated total past 10,000 rows, pages the newest 10,000 and refuses deeper pages', async () => {
    await s.sql(`insert into t_sys_log (message, logtype, user_name, logname, ip, succeed, createtime)
      select '{}', 'POST', '批量' || g, 'place.save', '127.0.0.1', 1, now() - interval '1 day' - g * interval '1 second' from generate_series(1, ${HUGE_LIST + 500}) g`);
    await s.sql('analyze t_sys_log');
    const first = await page({});
    expect(first.data).toMatchObject({ estimated: true, reachable: HUGE_LIST, pages: HUGE_LIST / 10 });
    expect(first.data.total).toBeGreaterThan(HUGE_LIST);
    // The newest rows still come first: the writes of this test's server, not the old bulk.
    expect(first.data.records[0].userName).not.toMatch(/^批量/);
    const last = await page({}, { current: HUGE_LIST / 10 });
    expect(last.data.records).toHaveLength(10);
    expect((await page({}, { current: HUGE_LIST / 10 + 1 })).message).toBe(`只能翻阅前${HUGE_LIST}条记录，请缩小时间范围或增加查询条件`);
    // A narrower search is counted exactly again.
    const narrow = await page({ keyword: '批量1234' });
    expect(narrow.data).toMatchObject({ total: 1, pages: 1 });
    expect(narrow.data.estimated).toBeUndefined();
    expect(narrow.data.records[0].userName).toBe('批量1234');
  });
});

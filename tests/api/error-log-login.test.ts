/**
 * The login page's console reports its errors before anyone signs in (spec 002 §8): the report is
 * stored as nobody's, checked as a signed-in console's is, and limited per address the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER, backends, startServer, type TestServer } from './harness';

const ADD = '/system/error-log/add';

describe.each(backends)('error reports from the login page on %s', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(backend);
  });
  afterAll(() => s?.close());

  it("stores a report sent without a session as nobody's, and a signed-in one as its user's", async () => {
    const anonymous = await s.call(ADD, { fType: 'script', fCode: 0, fMessage: 'TypeError: login form broke', fUrl: 'http://localhost/homeschool/login' });
    expect(anonymous.body).toMatchObject({ code: 200, data: { fId: expect.any(Number) } });
    const [row] = await s.sql(`select * from t_sys_error_log where f_id = ${anonymous.body.data.fId}`);
    expect(row).toMatchObject({ fType: 'script', fMessage: 'TypeError: login form broke', fUrl: 'http://localhost/homeschool/login', fUserId: null, fUserName: null });

    // A token that no longer holds (signed out, expired) does not lose the report.
    const stale = await s.call(ADD, { fType: 'network', fMessage: 'Failed to fetch', fUrl: 'http://localhost/homeschool/login' }, 'Bearer not-a-token');
    expect(stale.body.code).toBe(200);
    expect((await s.sql(`select f_user_id from t_sys_error_log where f_id = ${stale.body.data.fId}`))[0].fUserId).toBeNull();

    const token = await s.login(USER);
    const signed = await s.call(ADD, { fType: 'promise', fMessage: 'after login', fUrl: 'http://localhost/homeschool/home' }, token);
    const [mine] = await s.sql(`select u.f_phone from t_sys_error_log e join t_sys_user u on u.f_id = e.f_user_id where e.f_id = ${signed.body.data.fId}`);
    expect(mine.fPhone).toBe(USER.phone);
    // Nobody can pass a report off as someone else's.
    const forged = await s.call(ADD, { fType: 'script', fMessage: 'forged', fUserId: 1, fUserName: 'admin' });
    expect((await s.sql(`select f_user_id, f_user_name from t_sys_error_log where f_id = ${forged.body.data.fId}`))[0]).toEqual({ fUserId: null, fUserName: null });
  });

  it('checks an anonymous report as any other', async () => {
    expect((await s.call(ADD, { fType: 'script', fMessage: '' })).body).toMatchObject({ code: 400, message: '错误信息不能为空' });
    expect((await s.call(ADD, { fType: 'virus', fMessage: 'x' })).body).toMatchObject({ code: 400, message: '错误类型不正确' });
    expect((await s.call(ADD, { fType: 'api', fMessage: 'x', padding: 'y'.repeat(20_000) })).body).toMatchObject({ code: 413, success: false });
  });

  it('limits how many reports an address sends a minute before login too', async () => {
    let limited = 0;
    for (let i = 0; i < 35; i++) {
      const r = await s.call(ADD, { fType: 'promise', fMessage: `login loop ${i}` });
      if (r.body.code === 429) limited++;
    }
    expect(limited).toBeGreaterThan(0);
    const [{ n }] = await s.sql(`select count(*)::int as n from t_sys_error_log where f_message like 'login loop %'`);
    expect(n).toBeLessThanOrEqual(30);
  });
});

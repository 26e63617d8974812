/**
 * The caller of each call (token, user, permission codes) comes from the server's memory, not from three
 * queries per call; every change to it takes effect on the next call, on this server and on another
 * replica of the same database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, USER, backends, startServer, until, type TestServer } from './harness';

const LIST = '/biz/t-device/devices';
/** Statements that read who the caller is. */
const SESSION_TABLES = /t_sys_user\b|t_sys_user_role|t_sys_token_revoked/;

describe.each(backends)('session cache on %s', (backend) => {
  let s: TestServer;
  let other: Awaited<ReturnType<TestServer['replica']>>;
  let admin: string;
  beforeAll(async () => {
    s = await startServer(backend);
    other = await s.replica();
    admin = await s.login(ADMIN);
  });
  afterAll(() => s?.close());

  const sessionReads = () => s.queries.slowest(500).filter((q) => SESSION_TABLES.test(q.query) && /^select/i.test(q.query)).reduce((n, q) => n + q.calls, 0);
  /** The status of a list call: 200, 700 (session ended) or 401 (no permission). */
  const list = async (on: Pick<TestServer, 'call'>, token: string) => (await on.call(LIST, { current: 1, size: 1 }, token)).status;
  /** Another replica hears a change when its notice arrives, a few milliseconds after the commit. */
  const soon = (check: () => Promise<boolean>) => until(check, 3000);

  it('asks the database who the caller is once, not on every call', async () => {
    const token = await s.login(USER);
    expect(await list(s, token)).toBe(200);
    const before = sessionReads();
    for (let i = 0; i < 5; i++) expect(await list(s, token)).toBe(200);
    expect(sessionReads()).toBe(before);
  });

  it('a logout ends the token on the next call, here and on another replica', async () => {
    const token = await s.login(USER);
    expect(await list(s, token)).toBe(200);
    expect(await list(other, token)).toBe(200);
    expect((await s.call('/logout', {}, token)).body.success).toBe(true);
    expect(await list(s, token)).toBe(700);
    await soon(async () => (await list(other, token)) === 700);
  });

  it('a password change ends every session of the user on the next call', async () => {
    const phone = '13911112222';
    expect((await s.call('/register', { fChineseName: '缓存', fPhone: phone, fPassword: 'Cache@123', passwordCheck: 'Cache@123' })).body.success).toBe(true);
    const first = await s.login({ phone, password: 'Cache@123' });
    const second = await s.login({ phone, password: 'Cache@123' });
    expect(await list(s, second)).toBe(200);
    expect(await list(other, second)).toBe(200);
    // Tokens carry whole seconds: one issued in the second of the change still counts as after it.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await s.call('/system/t-sys-user/updateUserPwd', { fPassword: 'Cache@456', passwordCheck: 'Cache@456' }, first)).body.success).toBe(true);
    expect(await list(s, second)).toBe(700);
    await soon(async () => (await list(other, second)) === 700);
  });

  it('a user disabled on another replica is refused on the next call here', async () => {
    const phone = '13911113333';
    await s.call('/register', { fChineseName: '停用', fPhone: phone, fPassword: 'Cache@123', passwordCheck: 'Cache@123' });
    const token = await s.login({ phone, password: 'Cache@123' });
    expect(await list(s, token)).toBe(200);
    const [{ fId }] = await s.sql(`select f_id from t_sys_user where f_phone = '${phone}'`);
    expect((await other.call('/system/t-sys-user/statusUser', { fId, fStatus: 0 }, admin)).body.success).toBe(true);
    await soon(async () => (await list(s, token)) === 700);
    expect(await list(other, token)).toBe(700);
  });

  it("a role's permissions changed through the console hold on the next call", async () => {
    const token = await s.login(USER);
    expect(await list(s, token)).toBe(200);
    const [{ id }] = await s.sql(`select id from t_sys_role where alias = 'user'`);
    const [{ n }] = await s.sql(`select count(*)::int as n from t_sys_user_role ur join t_sys_user u on u.f_id = ur.user_id where u.f_phone = '${USER.phone}' and ur.role_id = ${id}`);
    expect(n).toBe(1);
    expect((await s.call('/system/t-sys-role/updateRolePermission', { id, treeNodes: [] }, admin)).body.success).toBe(true);
    expect(await list(s, token)).toBe(401);
    await soon(async () => (await list(other, token)) === 401);
  });

  it.runIf(backend === 'postgres')('each replica holds one listening connection, which carries the session notices', async () => {
    const listening = async () => (await s.sql(`select query from pg_stat_activity where datname = current_database() and query ilike 'listen %'`)).map((r) => r.query);
    // This server and its replica: the relay's channel only.
    expect(await listening()).toEqual(['LISTEN relay', 'LISTEN relay']);
  });

  it("a role's permissions and a user's deletion made in SQL reach every replica", async () => {
    const phone = '13911114444';
    await s.call('/register', { fChineseName: '角色', fPhone: phone, fPassword: 'Cache@123', passwordCheck: 'Cache@123' });
    const token = await s.login({ phone, password: 'Cache@123' });
    // The self-registered role has no codes left (above); an edit in the database gives the device list back.
    expect(await list(s, token)).toBe(401);
    expect(await list(other, token)).toBe(401);
    await s.sql(`insert into t_sys_role_menu (role_id, menu_id) select r.id, m.id from t_sys_role r, t_sys_permission_menu m
      where r.alias = 'user' and m.permissions = 'device:list'`);
    await soon(async () => (await list(s, token)) === 200);
    await soon(async () => (await list(other, token)) === 200);
    await s.sql(`delete from t_sys_user where f_phone = '${phone}'`);
    await soon(async () => (await list(s, token)) === 700);
    await soon(async () => (await list(other, token)) === 700);
  });
});

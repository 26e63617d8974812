/**
 * Saves racing for one new unique value (a role alias, a user's phone, a menu's permission code): each
 * passes the save's duplicate check before any has inserted, one wins, and the others meet the
 * database's unique index. Every loser is answered as the check would have answered it — envelope code
 * 409, the field's unique message, `data: { field, rule: 'unique' }` — never a server error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { refusalFor } from '../../server/db/errors';
import { ADMIN, backends, startServer, until, type TestServer } from './harness';

const RACERS = 8;

describe.each(backends)('concurrent unique saves on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let roleUser: number;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login(ADMIN);
    [{ id: roleUser }] = await s.sql(`select id from t_sys_role where alias = 'user'`);
  }, 120_000);
  afterAll(() => s?.close());

  /**
   * On PostgreSQL, a SHARE lock on the table from a connection of the test's own lets every save read
   * (its duplicate check finds nothing) and holds every insert until all RACERS wait on it: each of them
   * has passed its check, and all but the first meet the unique index. The embedded database runs one
   * statement at a time, so there the saves interleave as they happen to; the answers must read the same.
   */
  async function holdingInserts<T>(table: string, fire: () => Promise<T>): Promise<T> {
    if (backend !== 'postgres') return fire();
    const [{ name }] = await s.sql(`select current_database() as name`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${name}`;
    const holder = new pg.Client({ connectionString: url.toString() });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query(`lock table ${table} in share mode`);
      const answers = fire();
      const waiting = async () => (await holder.query(`select count(*)::int as n from pg_locks where relation = '${table}'::regclass and not granted`)).rows[0].n;
      await until(async () => (await waiting()) === RACERS, 20_000);
      await holder.query('commit');
      return await answers;
    } finally {
      await holder.end();
    }
  }

  /** Fires the same save RACERS times at once; exactly one succeeds and every other is the unique refusal (by the field's code). */
  async function race(table: string, path: string, body: (i: number) => object, field: string, message: string, code: string) {
    const answers = await holdingInserts(table, () => Promise.all(Array.from({ length: RACERS }, (_, i) => s.call(path, body(i), admin))));
    expect(answers.map((a) => a.status)).toEqual(Array(RACERS).fill(200));
    const won = answers.filter((a) => a.body.success);
    const lost = answers.filter((a) => !a.body.success);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(RACERS - 1);
    for (const a of lost) expect(a.body).toEqual({ code: 409, success: false, message, data: { field, rule: 'unique' }, reason: { code, params: {}, text: message } });
  }

  it('eight saves of one new role alias: one role, seven refusals with 角色别名已存在', async () => {
    await race('t_sys_role', '/system/t-sys-role/addOrUpdateSysRole', (i) => ({ name: `竞争角色${i}`, alias: 'race-alias' }), 'alias', '角色别名已存在', 'role.alias.unique');
    expect(await s.sql(`select count(*)::int as n from t_sys_role where alias = 'race-alias'`)).toEqual([{ n: 1 }]);
  });

  it('eight saves of one new phone: one user, seven refusals with 该手机号码已存在', async () => {
    const user = (i: number) => ({ fAdmin: 0, fChineseName: `竞争${i}`, fPhone: '13977770001', roles: [roleUser], fPassword: 'secret1', passwordCheck: 'secret1' });
    await race('t_sys_user', '/system/t-sys-user/addOrUpdateSysUser', user, 'fPhone', '该手机号码已存在', 'user.fPhone.unique');
    const rows = await s.sql(`select f_id from t_sys_user where f_phone = '13977770001'`);
    expect(rows).toHaveLength(1);
    // The winner's roles went in with it; no loser left a half-saved user or role link behind.
    expect(await s.sql(`select count(*)::int as n from t_sys_user_role where user_id = ${rows[0].fId}`)).toEqual([{ n: 1 }]);
  });

  it('eight saves of one new menu permission code: one menu, seven refusals with 权限标识已存在', async () => {
    const [parent] = await s.sql(`select id from t_sys_permission_menu where f_permission_type = 1 order by id limit 1`);
    const menu = (i: number) => ({ menuName: `竞争按钮${i}`, permissions: 'race:code', fPermissionType: 2, sort: i + 1, parentId: parent.id });
    await race('t_sys_permission_menu', '/system/t-sys-permission-menu/addOrUpdateSysMenu', menu, 'permissions', '权限标识已存在', 'menu.permissions.unique');
    expect(await s.sql(`select count(*)::int as n from t_sys_permission_menu where permissions = 'race:code'`)).toEqual([{ n: 1 }]);
  });

  it('a unique index met outside any check reads as its field, an undeclared one as a duplicate, a primary key as the server fault it is', async () => {
    const phone = await s.sql(`insert into t_sys_user (f_chinese_name, f_phone, f_password) values ('x', '${ADMIN.phone}', 'x')`).catch((e) => e);
    expect(phone.code).toBe('23505');
    expect(refusalFor(phone)).toMatchObject({ code: 409, message: '该手机号码已存在', about: { field: 'fPhone', rule: 'unique' } });
    const [device] = await s.sql(`select f_number from t_device limit 1`);
    const number = await s.sql(`update t_device set f_number = '${device.fNumber}' where f_id = (select max(f_id) from t_device)`).catch((e) => e);
    expect(refusalFor(number)).toMatchObject({ code: 409, message: '设备编号已存在', about: { field: 'fNumber', rule: 'unique' } });
    await s.sql(`create table race_probe (v integer unique)`);
    await s.sql(`insert into race_probe values (1)`);
    const other = await s.sql(`insert into race_probe values (1)`).catch((e) => e);
    await s.sql(`drop table race_probe`);
    expect(refusalFor(other)).toMatchObject({ code: 409, message: '数据已存在' });
    const key = await s.sql(`insert into t_sys_role (id, name, alias) values (${roleUser}, 'x', 'pk-clash')`).catch((e) => e);
    expect(key.code).toBe('23505');
    expect(refusalFor(key)).toBeNull();
  });
});

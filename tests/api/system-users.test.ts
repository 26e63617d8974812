import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncMenus } from '../../server/db/menus';
import { CamelCasePlugin, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type CompiledQuery, type DatabaseConnection, type Driver } from 'kysely';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer } from './harness';

const U = '/system/t-sys-user';
const R = '/system/t-sys-role';
const M = '/system/t-sys-permission-menu';

/** Any argon2 hash or a password key anywhere in an answer. */
function leaks(value: unknown): boolean {
  const text = JSON.stringify(value);
  return /\$argon2/.test(text) || /"fPassword"\s*:/.test(text);
}

describe.each(backends)('system users, roles and menus on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let roleUser: number;
  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login(ADMIN);
    const [row] = await s.sql(`select id from t_sys_role where alias = 'user'`);
    roleUser = row.id;
  });
  afterAll(() => s?.close());

  const base = () => ({ fAdmin: 0, fChineseName: '王五', fPhone: '13911112222', roles: [roleUser], fPassword: 'secret1', passwordCheck: 'secret1' });

  it('validates the user form with the spec messages', async () => {
    const msg = async (patch: object) => (await s.call(`${U}/addOrUpdateSysUser`, { ...base(), ...patch }, admin)).body.message;
    expect(await msg({ fAdmin: '' })).toBe('权限角色不能为空');
    expect(await msg({ fChineseName: ' ' })).toBe('姓名不能为空');
    expect(await msg({ fPhone: '' })).toBe('手机号码不能为空');
    expect(await msg({ fPhone: '12345678901' })).toBe('手机号码格式错误');
    expect(await msg({ roles: [] })).toBe('所属角色不能为空');
    expect(await msg({ fPassword: '', passwordCheck: '' })).toBe('密码不能为空');
    expect(await msg({ fPassword: '12345', passwordCheck: '12345' })).toBe('密码长度必须大于6位');
    expect(await msg({ passwordCheck: 'other12' })).toBe('密码不一致!');
    expect((await s.call(`${U}/pageList`, { condition: { keyword: '13911112222' } }, admin)).body.data.total).toBe(0);
  });

  it('adds, edits (blank password unchanged), lists, views and exports users without any password hash', async () => {
    const added = await s.call(`${U}/addOrUpdateSysUser`, base(), admin);
    expect(added.body.success).toBe(true);
    const id = added.body.data.fId;
    expect((await s.call(`${U}/addOrUpdateSysUser`, base(), admin)).body).toMatchObject({ success: false, code: 409 });
    const edited = await s.call(`${U}/addOrUpdateSysUser`, { ...base(), fId: id, fChineseName: '王五五', fPassword: '', passwordCheck: '' }, admin);
    expect(edited.body.success).toBe(true);
    await s.login({ phone: '13911112222', password: 'secret1' });
    const page = await s.call(`${U}/pageList`, { current: 1, pageSize: 10, condition: { keyword: '王五五', status: 1 } }, admin);
    expect(page.body.data.total).toBe(1);
    expect(page.body.data.records[0]).toMatchObject({ fId: id, fChineseName: '王五五', roles: [roleUser] });
    const info = await s.call(`${U}/getUserInfo`, { id }, admin);
    expect(info.body.data.roleids[0]).toMatchObject({ id: roleUser });
    for (const answer of [added, edited, page, info, await s.call(`${U}/pageList`, { size: 999 }, admin), await s.call(`${U}/getUserData`, { id: 1 }, admin)]) expect(leaks(answer.body)).toBe(false);
    const file = await fetch(`${s.url}${U}/exportTable`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: admin }, body: JSON.stringify({ condition: { keyword: '王五五' } }) });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('spreadsheetml');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(bytes.includes(Buffer.from('$argon2'))).toBe(false);
  });

  it('resets passwords, toggles status and removes users, but never the administrator himself', async () => {
    const { body } = await s.call(`${U}/addOrUpdateSysUser`, { ...base(), fPhone: '13922223333' }, admin);
    const id = body.data.fId;
    expect((await s.call(`${U}/resetUserPwd`, { fId: id }, admin)).body.success).toBe(true);
    const token = await s.login({ phone: '13922223333', password: '123456' });
    // Token times have whole seconds: a reset in the login's own second still lets that token through.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await s.call(`${U}/resetUserPwd`, { fId: id, fPassword: 'newpass1' }, admin)).body.success).toBe(true);
    expect((await s.call('/get_info', {}, token)).status).toBe(700);
    await s.login({ phone: '13922223333', password: 'newpass1' });
    expect((await s.call(`${U}/statusUser`, { fId: id, fStatus: 0 }, admin)).body.success).toBe(true);
    expect((await s.call('/login', { userName: '13922223333', password: 'newpass1' })).body.success).toBe(false);
    const [me] = await s.sql(`select f_id from t_sys_user where f_phone = '${ADMIN.phone}'`);
    expect((await s.call(`${U}/statusUser`, { fId: me.fId, fStatus: 0 }, admin)).body).toMatchObject({ success: false, message: '不能禁用当前登录用户' });
    expect((await s.call(`${U}/removeSysUser`, { fId: me.fId }, admin)).body).toMatchObject({ success: false, message: '不能删除当前登录用户' });
    expect((await s.call(`${U}/removeSysUser`, { fId: id }, admin)).body.success).toBe(true);
    expect((await s.sql(`select count(*)::int as n from t_sys_user where f_id = ${id}`))[0].n).toBe(0);
    const [log] = await s.sql(`select count(*)::int as n from t_sys_log where logname = 'user.delete' and succeed = 1`);
    expect(log.n).toBeGreaterThan(0);
  });

  it('lists the user devices for the drawer', async () => {
    const [agent] = await s.sql(`select f_id from t_sys_user where f_phone = '${AGENT.phone}'`);
    const { body } = await s.call(`${U}/getUserData`, { id: agent.fId, current: 1, size: 5 }, admin);
    expect(body.success).toBe(true);
    expect(body.data).toHaveProperty('records');
    for (const r of body.data.records) expect(r).toHaveProperty('productName');
  });

  it('still answers agents to the device form selector', async () => {
    const { body } = await s.call(`${U}/pageList`, { current: 1, size: 999, condition: { fAdmin: 2 } }, admin);
    expect(body.data.records.length).toBeGreaterThan(0);
    expect(body.data.records.every((r: any) => r.fAdmin === 2)).toBe(true);
    expect(body.data.records[0]).toHaveProperty('fChineseName');
  });

  it('validates roles, refuses removing built-in or held roles', async () => {
    const msg = async (b: object) => (await s.call(`${R}/addOrUpdateSysRole`, b, admin)).body.message;
    expect(await msg({ name: '', alias: 'x' })).toBe('角色名称不能为空');
    expect(await msg({ name: 'x', alias: '' })).toBe('角色别名不能为空');
    for (const alias of ['admin', 'agent', 'user']) {
      const [r] = await s.sql(`select id from t_sys_role where alias = '${alias}'`);
      expect((await s.call(`${R}/removeSysRole`, { id: r.id }, admin)).body.success).toBe(false);
    }
    const made = await s.call(`${R}/addOrUpdateSysRole`, { name: '巡检员', alias: 'inspector' }, admin);
    const rid = made.body.data.id;
    expect((await s.call(`${R}/pageList`, { current: 1, size: 10, condition: { name: '巡检' } }, admin)).body.data.records).toHaveLength(1);
    const holder = await s.call(`${U}/addOrUpdateSysUser`, { ...base(), fPhone: '13933334444', roles: [rid] }, admin);
    expect((await s.call(`${R}/removeSysRole`, { id: rid }, admin)).body).toMatchObject({ success: false, message: '该角色下存在用户，无法删除' });
    await s.call(`${U}/removeSysUser`, { fId: holder.body.data.fId }, admin);
    expect((await s.call(`${R}/removeSysRole`, { id: rid }, admin)).body.success).toBe(true);
    expect((await s.call(`${R}/list`, {}, admin)).body.data.map((r: any) => r.alias)).toEqual(expect.arrayContaining(['admin', 'agent', 'user']));
  });

  it('round-trips the role permission tree: granted codes open their calls, revoked ones answer 401', async () => {
    const made = await s.call(`${R}/addOrUpdateSysRole`, { name: '审计员', alias: 'auditor' }, admin);
    const rid = made.body.data.id;
    await s.call(`${U}/addOrUpdateSysUser`, { ...base(), fPhone: '13944445555', roles: [rid] }, admin);
    const token = await s.login({ phone: '13944445555', password: 'secret1' });
    expect((await s.call(`${R}/pageList`, {}, token)).status).toBe(401);

    const tree = (await s.call(`${R}/treeList`, { id: rid }, admin)).body.data as any[];
    const flat: any[] = [];
    const walk = (nodes: any[]) => nodes.forEach((n) => (flat.push(n), walk(n.children)));
    walk(tree);
    expect(flat.every((n) => n.checked === false)).toBe(true);
    const rolePage = flat.find((n) => n.permissions === 'role:list');
    const section = flat.find((n) => n.id === rolePage.parentId);
    expect(section.permissions).toBe('system-manage');

    expect((await s.call(`${R}/updateRolePermission`, { id: rid, treeNodes: [rolePage.id] }, admin)).body.success).toBe(true);
    const again: any[] = [];
    const walk2 = (nodes: any[]) => nodes.forEach((n) => (again.push(n), walk2(n.children)));
    walk2((await s.call(`${R}/treeList`, { id: rid }, admin)).body.data);
    expect(again.filter((n) => n.checked).map((n) => n.permissions).sort()).toEqual(['role:list', 'system-manage']);
    expect((await s.call(`${R}/pageList`, {}, token)).status).toBe(200);
    const info = await s.call('/get_info', {}, token);
    expect(info.body.data.menus[0].children.map((c: any) => c.permissions)).toEqual(['role:list']);

    expect((await s.call(`${R}/updateRolePermission`, { id: rid, treeNodes: [] }, admin)).body.success).toBe(true);
    expect((await s.call(`${R}/pageList`, {}, token)).status).toBe(401);
  });

  it('limits every call to holders of its code', async () => {
    const user = await s.login(USER);
    for (const [path, body] of [
      [`${U}/pageList`, {}],
      [`${U}/addOrUpdateSysUser`, base()],
      [`${U}/removeSysUser`, { fId: 1 }],
      [`${U}/resetUserPwd`, { fId: 1 }],
      [`${U}/statusUser`, { fId: 1, fStatus: 0 }],
      [`${U}/getUserInfo`, { id: 1 }],
      [`${U}/getUserData`, { id: 1 }],
      [`${U}/exportTable`, {}],
      [`${R}/pageList`, {}],
      [`${R}/addOrUpdateSysRole`, { name: 'a', alias: 'b' }],
      [`${R}/removeSysRole`, { id: 1 }],
      [`${R}/treeList`, { id: 1 }],
      [`${R}/updateRolePermission`, { id: 1, treeNodes: [] }],
      [`${R}/list`, {}],
      [`${M}/treeList`, {}],
      [`${M}/addOrUpdateSysMenu`, {}],
      [`${M}/removeSysMenu`, { id: 1 }],
      [`${M}/menuById`, { id: 1 }],
    ] as const) {
      expect((await s.call(path, body, user)).status, path).toBe(401);
      expect((await s.call(path, body)).status, path).toBe(700);
    }
  });

  it('creates, edits and removes menus; refuses removing one with children', async () => {
    const good = { parentId: 0, menuName: '报表中心', fPermissionType: 1, menuUri: '/report', icon: 'BarChart', component: 'Main', sort: 20, permissions: 'report-center' };
    const msg = async (patch: object) => (await s.call(`${M}/addOrUpdateSysMenu`, { ...good, ...patch }, admin)).body.message;
    expect(await msg({ menuName: '' })).toBe('名称不能为空');
    expect(await msg({ permissions: '' })).toBe('权限标识不能为空');
    expect(await msg({ menuUri: '' })).toBe('菜单地址不能为空');
    expect(await msg({ icon: '' })).toBe('图标不能为空');
    expect(await msg({ sort: '' })).toBe('排序不能为空');
    const top = (await s.call(`${M}/addOrUpdateSysMenu`, good, admin)).body.data;
    const child = (await s.call(`${M}/addOrUpdateSysMenu`, { parentId: top.id, menuName: '报表导出', fPermissionType: 2, sort: 1, permissions: 'report:export' }, admin)).body.data;
    expect(child.parentId).toBe(top.id);
    expect((await s.call(`${M}/addOrUpdateSysMenu`, { ...good, id: top.id, menuName: '报表' }, admin)).body.data.menuName).toBe('报表');
    expect((await s.call(`${M}/menuById`, { id: child.id }, admin)).body.data.permissions).toBe('report:export');
    const tree = (await s.call(`${M}/treeList`, {}, admin)).body.data as any[];
    expect(tree.find((n) => n.id === top.id).children.map((c: any) => c.id)).toEqual([child.id]);
    expect((await s.call(`${M}/removeSysMenu`, { id: top.id }, admin)).body).toMatchObject({ success: false, message: '请先删除子地区' });

    // A hand-made row outlives the start-up sync.
    await syncMenus(overSql(s));
    expect((await s.sql(`select menu_name from t_sys_permission_menu where id = ${child.id}`))[0].menuName).toBe('报表导出');
    expect((await s.sql(`select parent_id from t_sys_permission_menu where id = ${child.id}`))[0].parentId).toBe(top.id);

    expect((await s.call(`${M}/removeSysMenu`, { id: child.id }, admin)).body.success).toBe(true);
    expect((await s.call(`${M}/removeSysMenu`, { id: top.id }, admin)).body.success).toBe(true);
  });
});

/**
 * A Kysely over the harness's raw-SQL door, so the start-up sync can run again on the test server's own
 * database (the harness keeps its handle to itself). Parameters are inlined as literals.
 */
function overSql(s: TestServer) {
  const literal = (v: unknown): string =>
    v === null || v === undefined ? 'NULL' : typeof v === 'number' || typeof v === 'boolean' ? String(v) : v instanceof Date ? `'${v.toISOString()}'` : `'${String(v).replace(/'/g, "''")}'`;
  const connection: DatabaseConnection = {
    async executeQuery<R>(q: CompiledQuery) {
      const text = q.sql.replace(/\$(\d+)/g, (_m, n) => literal(q.parameters[Number(n) - 1]));
      const rows = await s.sql(text);
      return { rows: rows as R[] };
    },
    async *streamQuery() {
      throw new Error('not supported');
    },
  };
  const driver: Driver = {
    async init() {},
    async acquireConnection() {
      return connection;
    },
    // Each statement stands alone: the sync's upserts do not need the transaction to be correct.
    async beginTransaction() {},
    async commitTransaction() {},
    async rollbackTransaction() {},
    async releaseConnection() {},
    async destroy() {},
  };
  return new Kysely<any>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
    plugins: [new CamelCasePlugin()],
  });
}

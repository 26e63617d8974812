import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ADMIN, AGENT, backends, startServer, type TestServer } from './harness';
import { solidPng } from '../../server/administration/feedback';

const U = '/system/t-sys-user';

/** A sheet with the import's header: name, phone, kind, roles, password. */
async function workbook(rows: string[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('用户');
  sheet.addRow(['姓名', '手机号码', '用户类型', '所属角色', '密码']);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function readBook(data: ArrayBuffer): Promise<ExcelJS.Worksheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(data);
  return book.worksheets[0];
}

describe.each(backends)('system user template, import, avatar and export on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;

  const upload = async (path: string, name: string, data: Buffer, token = admin) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)]), name);
    const res = await fetch(s.url + path, { method: 'POST', headers: { authorization: token }, body: form });
    return { status: res.status, body: await res.json() };
  };
  const count = async (where: string) => Number((await s.sql(`select count(*)::int as n from t_sys_user where ${where}`))[0].n);

  beforeAll(async () => {
    s = await startServer(backend);
    [admin, agent] = [await s.login(ADMIN), await s.login(AGENT)];
  }, 180_000);
  afterAll(() => s?.close());

  it('serves the template to holders of user:add only', async () => {
    const res = await fetch(`${s.url}${U}/template`, { method: 'POST', headers: { authorization: admin } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('users-template.xlsx');
    const sheet = await readBook(await res.arrayBuffer());
    expect(sheet.getRow(1).getCell(1).text).toBe('姓名');
    expect(sheet.getRow(1).getCell(2).text).toBe('手机号码');
    expect((await fetch(`${s.url}${U}/template`, { method: 'POST', headers: { authorization: agent } })).status).toBe(401);
    expect((await fetch(`${s.url}${U}/template`, { method: 'POST' })).status).toBe(700);
  });

  it('imports a good file: every user with its roles, a hashed password, able to sign in', async () => {
    const file = await workbook([
      ['导入甲', '13700000001', '普通用户', 'user', 'Import@1'],
      ['导入乙', '13700000002', '代理商', 'agent,user', 'Import@2'],
    ]);
    const res = await upload(`${U}/importExcel`, 'users.xlsx', file);
    expect(res.body).toMatchObject({ success: true, message: '导入成功，共 2 条', data: { imported: 2 } });
    const [row] = await s.sql(`select f_admin, f_password from t_sys_user where f_phone = '13700000002'`);
    expect(row.fAdmin).toBe(2);
    expect(row.fPassword).toMatch(/^\$argon2/);
    const roles = await s.sql(`select r.alias from t_sys_user_role ur join t_sys_role r on r.id = ur.role_id join t_sys_user u on u.f_id = ur.user_id where u.f_phone = '13700000002' order by r.alias`);
    expect(roles.map((r: { alias: string }) => r.alias)).toEqual(['agent', 'user']);
    expect(await s.login({ phone: '13700000001', password: 'Import@1' })).toBeTruthy();
    // The import is in the operation log under its name, with the operator masked.
    const [log] = await s.sql(`select user_name, logname, message from t_sys_log where logname = 'user.import' order by id desc limit 1`);
    expect(log.userName).not.toBe('系统管理员');
  });

  it('refuses a file with bad rows, naming each row and reason, and stores none of it', async () => {
    const before = await count(`f_phone like '1360000000%'`);
    const file = await workbook([
      ['好人', '13600000001', '普通用户', 'user', 'Good@123'],
      ['坏号码', '12345', '普通用户', 'user', 'Good@123'],
      ['', '13600000003', '普通用户', 'user', 'Good@123'],
      ['无角色', '13600000004', '普通用户', 'nosuchrole', 'Good@123'],
      ['重复', '13600000001', '普通用户', 'user', 'Good@123'],
      ['已存在', '13800000000', '管理员', 'admin', 'Good@123'],
      ['短密码', '13600000007', '普通用户', 'user', '123'],
    ]);
    const res = await upload(`${U}/importExcel`, 'users.xlsx', file);
    expect(res.body.success).toBe(false);
    const lines = String(res.body.message).split('\n');
    expect(lines[0]).toBe('导入失败，未导入任何数据');
    expect(lines.slice(1)).toEqual([
      '第3行：手机号码格式错误',
      '第4行：姓名不能为空',
      '第5行：所属角色不存在',
      '第6行：手机号码在文件中重复',
      '第7行：该手机号码已存在',
      '第8行：密码长度必须大于6位',
    ]);
    // Row 2 was good, yet nothing went in.
    expect(await count(`f_phone like '1360000000%'`)).toBe(before);

    const one = await upload(`${U}/importExcel`, 'users.xlsx', await workbook([['好人', '13600000001', '普通用户', 'user', 'Good@123'], ['坏人', '1360000000x', '普通用户', 'user', 'Good@123']]));
    expect(one.body.message).toBe('导入失败，未导入任何数据\n第3行：手机号码格式错误');
    expect(await count(`f_phone = '13600000001'`)).toBe(0);
  });

  it('refuses a file too large, of the wrong type, empty, or from a caller without user:add', async () => {
    const big = Buffer.concat([await workbook([['大文件', '13500000001', '普通用户', 'user', 'Big@1234']]), Buffer.alloc(2048 * 1024 + 1)]);
    expect((await upload(`${U}/importExcel`, 'users.xlsx', big)).body).toMatchObject({ success: false, message: '超出文件大小限制' });
    expect((await upload(`${U}/importExcel`, 'users.csv', Buffer.from('姓名,手机号码\n张三,13500000002'))).body).toMatchObject({ success: false, message: '文件格式不正确' });
    expect((await upload(`${U}/importExcel`, 'users.xlsx', Buffer.from('not a workbook'))).body).toMatchObject({ success: false, message: '文件格式不正确' });
    expect((await upload(`${U}/importExcel`, 'users.xlsx', await workbook([]))).body).toMatchObject({ success: false, message: '导入文件没有数据' });
    expect((await upload(`${U}/importExcel`, 'users.xlsx', await workbook([['代理导入', '13500000003', '普通用户', 'user', 'Agent@12']]), agent)).status).toBe(401);
    expect(await count(`f_phone like '135000000%'`)).toBe(0);
  });

  it('keeps an uploaded avatar on the user; refuses another file type, an oversized picture, a name not uploaded', async () => {
    const png = solidPng(64, 64, [200, 80, 40]);
    const up = await upload('/api/upload', 'avatar.png', png);
    expect(up.body.success).toBe(true);
    const name = up.body.data as string;
    expect(name).toMatch(/^[a-f0-9]{32}\.png$/);
    const [role] = await s.sql(`select id from t_sys_role where alias = 'user'`);
    const user = { fAdmin: 0, fChineseName: '头像用户', fPhone: '13400000001', roles: [role.id], fPassword: 'Avatar@1', passwordCheck: 'Avatar@1', fPic: name };
    const saved = await s.call(`${U}/addOrUpdateSysUser`, user, admin);
    expect(saved.body.success).toBe(true);
    expect((await s.call(`${U}/getUserInfo`, { id: saved.body.data.fId }, admin)).body.data.fPic).toBe(name);
    const served = await fetch(`${s.url}/api/upload/${name}`);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect((await s.call(`${U}/addOrUpdateSysUser`, { ...user, fPhone: '13400000002', fPic: '../../etc/passwd' }, admin)).body.message).toBe('文件格式不正确');
    expect((await upload('/api/upload', 'avatar.gif', Buffer.from('GIF89a'))).body.message).toBe('文件格式不正确');
    expect((await upload('/api/upload', 'avatar.png', Buffer.concat([png, Buffer.alloc(2048 * 1024)]))).body.message).toBe('超出文件大小限制');
  });

  it('exports the search as a form post (json and token fields) and refuses callers without user:export', async () => {
    const json = JSON.stringify({ condition: { keyword: '导入甲' } });
    const res = await fetch(`${s.url}${U}/exportTable`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ json, token: admin }).toString() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('users.xlsx');
    const sheet = await readBook(await res.arrayBuffer());
    expect(sheet.actualRowCount).toBe(2);
    expect(sheet.getRow(2).getCell(1).text).toBe('导入甲');
    const other = await fetch(`${s.url}${U}/exportTable`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ json, token: agent }).toString() });
    expect(other.status).toBe(401);
    const none = await fetch(`${s.url}${U}/exportTable`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ json }).toString() });
    expect(none.status).toBe(700);
    const bad = await fetch(`${s.url}${U}/exportTable`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ json: '{oops', token: admin }).toString() });
    expect((await bad.json()).message).toBe('参数错误');
  });

  it('writes no name or phone in plain text to the operation log: a login is logged as 138****0000', async () => {
    await s.call('/login', { userName: '13912345678', password: 'Wrong@999' });
    const [failed] = await s.sql(`select user_name, message from t_sys_log where message like '%139****5678%' order by id desc limit 1`);
    expect(failed.userName).toBe('139****5678');
    const all = await s.sql(`select user_name, message from t_sys_log`);
    for (const r of all) {
      // An uploaded picture's name is random hex, which may hold eleven digits in a row by chance.
      const text = `${r.userName ?? ''} ${r.message ?? ''}`.replace(/"fPic":"[^"]*"/g, '');
      expect(text).not.toMatch(/(?<!\d)1[3-9]\d{9}(?!\d)/);
      expect(text).not.toContain('系统管理员');
      expect(text).not.toContain('导入甲');
    }
    // The log list still shows and finds the operator by the account's current name.
    const page = await s.call('/system/log/pageList', { current: 1, size: 50, condition: { keyword: '系统管理员' } }, admin);
    expect(page.body.data.total).toBeGreaterThan(0);
    expect(page.body.data.records.every((r: { userName: string }) => r.userName === '系统管理员')).toBe(true);
  });
});

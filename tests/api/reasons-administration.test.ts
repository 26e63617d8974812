/**
 * The administration area's refusals and notices by code (docs/api.md, "Refusals and notices"): `message`
 * keeps the spec's zh-CN words whatever the caller asks, and `reason` carries the code, its parameters and
 * the text in the language of the request's Accept-Language — a wrong password, a duplicate phone, a
 * built-in role, a department's parent, a place with rooms, an app package of the wrong kind, the password
 * reset notice and a system-user import's bad rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ADMIN, startServer, type TestServer } from './harness';

const U = '/system/t-sys-user';

async function workbook(rows: string[][]): Promise<Blob> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('用户');
  sheet.addRow(['姓名', '手机号码', '用户类型', '所属角色', '密码']);
  for (const r of rows) sheet.addRow(r);
  return new Blob([new Uint8Array(await book.xlsx.writeBuffer())]);
}

describe('administration refusals and notices by code', () => {
  let s: TestServer;
  let admin: string;

  /** A call in a language (none: the legacy caller, zh-CN). */
  const ask = async (path: string, body: unknown, language?: string, token: string | null = admin) => {
    const res = await fetch(s.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}), ...(language ? { 'accept-language': language } : {}) },
      body: JSON.stringify(body),
    });
    return res.json();
  };
  const upload = async (path: string, name: string, file: Blob, language?: string) => {
    const form = new FormData();
    form.append('file', file, name);
    const res = await fetch(s.url + path, { method: 'POST', headers: { authorization: admin, ...(language ? { 'accept-language': language } : {}) }, body: form });
    return res.json();
  };

  beforeAll(async () => {
    s = await startServer('pglite');
    admin = await s.login(ADMIN);
  }, 120_000);
  afterAll(() => s?.close());

  it('refuses a wrong password by code, in the caller’s language', async () => {
    const body = { userName: ADMIN.phone, password: 'not-the-password' };
    expect(await ask('/login', body, 'en-US', null)).toMatchObject({
      success: false, code: 400, message: '账号或密码错误', reason: { code: 'session.wrongPassword', params: {}, text: 'Wrong account or password' },
    });
    expect((await ask('/login', body, 'zh-TW', null)).reason).toMatchObject({ code: 'session.wrongPassword', text: '帳號或密碼錯誤' });
    expect((await ask('/login', body, undefined, null)).reason).toMatchObject({ code: 'session.wrongPassword', text: '账号或密码错误' });
  });

  it('refuses a phone already used by the field’s own code, naming the field', async () => {
    const [role] = await s.sql(`select id from t_sys_role where alias = 'user'`);
    const answer = await ask(`${U}/addOrUpdateSysUser`, { fAdmin: 0, fChineseName: '重号', fPhone: ADMIN.phone, roles: [role.id], fPassword: 'Dup@1234', passwordCheck: 'Dup@1234' }, 'en-US');
    expect(answer).toMatchObject({
      success: false, code: 409, message: '该手机号码已存在', data: { field: 'fPhone', rule: 'unique' },
      reason: { code: 'user.fPhone.unique', text: 'This mobile phone number is already used' },
    });
  });

  it('refuses deleting a built-in role, a department under itself and a place with rooms', async () => {
    const [role] = await s.sql(`select id from t_sys_role where alias = 'admin'`);
    expect(await ask('/system/t-sys-role/removeSysRole', { id: role.id }, 'en-US')).toMatchObject({
      success: false, message: '内置角色不能删除', reason: { code: 'role.builtIn', text: 'A built-in role cannot be deleted' },
    });
    const [department] = await s.sql(`select f_department_id, f_department_name from t_department_info order by f_department_id limit 1`);
    const self = { fDepartmentId: department.fDepartmentId, fHighDepartmentId: department.fDepartmentId, fDepartmentName: department.fDepartmentName };
    expect(await ask('/system/t-department-info/addOrEditDepartmentInfo', self, 'zh-TW')).toMatchObject({
      success: false, message: '上级部门不能是当前部门', reason: { code: 'department.parentSelf', text: '上級部門不能是當前部門' },
    });
    const [room] = await s.sql(`select f_home_id from t_sys_user_room limit 1`);
    expect(await ask('/system/t-sys-user-home/del', { fId: room.fHomeId }, 'en-US')).toMatchObject({
      success: false, message: '场所删除失败：请先删除场所下的房间', reason: { code: 'place.hasRooms', text: 'Deleting the place failed: Delete the rooms of the place first' },
    });
  });

  it('words the password reset notice and an app package refusal in the caller’s language', async () => {
    const [user] = await s.sql(`select f_id from t_sys_user where f_phone = '13800000002'`);
    expect(await ask(`${U}/resetUserPwd`, { fId: user.fId }, 'en-US')).toMatchObject({
      success: true, message: '密码已重置为123456', reason: { code: 'password.resetToDefault', params: { password: '123456' }, text: 'The password was reset to 123456' },
    });
    expect(await upload('/biz/t-app-version/upload', 'app.exe', new Blob(['MZ']), 'en-US')).toMatchObject({
      success: false, message: '文件格式不正确，请上传apk或ipa格式的文件', reason: { code: 'appVersion.badFormat', text: 'This kind of file is not accepted; upload an apk or ipa package' },
    });
  });

  it('lists a refused import’s bad rows by code, each in the caller’s language, and the legacy lines in the message', async () => {
    const file = await workbook([
      ['好人', '13300000001', '普通用户', 'user', 'Good@123'],
      ['坏号码', '12345', '普通用户', 'user', 'Good@123'],
      ['重复', '13300000001', 'Ordinary user', 'user', 'Good@123'],
    ]);
    const answer = await upload(`${U}/importExcel`, 'users.xlsx', file, 'en-US');
    expect(answer).toMatchObject({
      success: false,
      message: '导入失败，未导入任何数据\n第3行：手机号码格式错误\n第4行：手机号码在文件中重复',
      reason: { code: 'import.failed', text: 'The import failed; nothing was imported' },
      data: {
        total: 2,
        rows: [
          { row: 3, reason: { code: 'user.fPhone.pattern', text: 'Invalid mobile phone number' } },
          { row: 4, reason: { code: 'user.phoneRepeated', text: 'The mobile phone number appears more than once in the file' } },
        ],
      },
    });
    const tw = await upload(`${U}/importExcel`, 'users.xlsx', file, 'zh-TW');
    expect(tw.data.rows.map((r: { reason: { text: string } }) => r.reason.text)).toEqual(['手機號碼格式錯誤', '手機號碼在檔案中重複']);
  });
});

import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ADMIN, AGENT, backends, startServer, type TestServer } from './harness';
import { solidPng } from '../../server/administration/feedback';

const CAR = '/biz/t-control-car';
const PERSON = '/biz/t-control-person';
const APP = '/biz/t-app-version';
const FEEDBACK = '/biz/t-feedback';

/** A workbook in the template's column order: name, ID, type, watcher, start, end, state, phones. */
async function workbook(rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('布控人员');
  sheet.addRow(['人员名称', '身份证号', '布控类型', '布控人', '布控开始时间', '布控结束时间', '布控状态', '手机号']);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe.each(backends)('watch-lists, app versions and feedback on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;

  const upload = async (path: string, name: string, data: Buffer | Blob, token = admin) => {
    const form = new FormData();
    form.append('file', data instanceof Blob ? data : new Blob([new Uint8Array(data)]), name);
    const res = await fetch(s.url + path, { method: 'POST', headers: { authorization: token }, body: form });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    s = await startServer(backend);
    [admin, agent] = [await s.login(ADMIN), await s.login(AGENT)];
  }, 180_000);
  afterAll(() => s?.close());

  it('watch-list vehicles: plate rules, upper case, required times and state, switch, delete', async () => {
    const base = { fStartTime: '2026-12-01 08:00:00', fStartEnd: '2027-01-01 08:00:00', fState: '1', fControlType: '1' };
    const save = (body: object, token = admin) => s.call(`${CAR}/addOrUpdateControlCar`, body, token);
    expect((await save({ ...base, fLicensePlate: '' })).body).toMatchObject({ success: false, message: '车牌号不能为空' });
    expect((await save({ ...base, fLicensePlate: 'AB12345' })).body.message).toBe('请输入正确的车牌号');
    expect((await save({ ...base, fLicensePlate: '粤A1234' })).body.message).toBe('请输入正确的车牌号');
    expect((await save({ ...base, fLicensePlate: '粤a12345', fStartTime: '' })).body.message).toBe('布控开始时间不能为空');
    expect((await save({ ...base, fLicensePlate: '粤a12345', fStartEnd: '' })).body.message).toBe('布控结束时间不能为空');
    expect((await save({ ...base, fLicensePlate: '粤a12345', fState: '' })).body.message).toBe('布控状态不能为空');
    // An end before the start is refused, and nothing is stored.
    const carsBefore = (await s.sql(`select count(*)::int as n from t_control_car`))[0].n;
    expect((await save({ ...base, fLicensePlate: '粤a12345', fStartEnd: '2026-11-30 08:00:00' })).body).toMatchObject({ success: false, message: '布控结束时间不能早于开始时间' });
    expect((await s.sql(`select count(*)::int as n from t_control_car`))[0].n).toBe(carsBefore);
    expect((await save({ ...base, fLicensePlate: '粤a12346', fStartEnd: base.fStartTime })).body.success).toBe(true);
    const created = await save({ ...base, fLicensePlate: '粤z9x_8y' });
    expect(created.body).toMatchObject({ success: true, message: '操作成功', data: { fLicensePlate: '粤Z9X_8Y', fState: '1' } });
    const id = created.body.data.fId;
    const listed = await s.call(`${CAR}/pageList`, { current: 1, size: 10, condition: { keyword: 'z9x' } }, admin);
    expect(listed.body.data.total).toBe(1);
    // The switch: fId and fState only, the other fields keep their values.
    const off = await save({ fId: id, fState: '2' });
    expect(off.body.data).toMatchObject({ fState: '2', fLicensePlate: '粤Z9X_8Y', fStartTime: '2026-12-01 08:00:00' });
    expect((await save({ fId: id, fState: '3' })).body.message).toBe('布控状态不能为空');
    // An edit of one end is held to the stored other end.
    expect((await save({ fId: id, fStartEnd: '2026-11-01 00:00:00' })).body.message).toBe('布控结束时间不能早于开始时间');
    expect((await save({ fId: id, fStartTime: '2027-02-01 00:00:00' })).body.message).toBe('布控结束时间不能早于开始时间');
    const kept = (await s.call(`${CAR}/pageList`, { current: 1, size: 10, condition: { keyword: 'z9x' } }, admin)).body.data.records[0];
    expect(kept).toMatchObject({ fStartTime: '2026-12-01 08:00:00', fStartEnd: '2027-01-01 08:00:00' });
    // The agent holds none of the codes.
    expect((await s.call(`${CAR}/pageList`, { current: 1, size: 10 }, agent)).status).toBe(401);
    expect((await save({ fId: id, fState: '1' }, agent)).status).toBe(401);
    expect((await s.call(`${CAR}/removeControlCar`, { fId: id }, agent)).status).toBe(401);
    expect((await s.call(`${CAR}/removeControlCar`, { fId: id }, admin)).body).toMatchObject({ success: true, message: '操作成功' });
    expect((await s.sql(`select count(*)::int as n from t_control_car where f_id = ${id}`))[0].n).toBe(0);
  });

  it('control persons: rules, upper-cased ID, state switch, search by IMSI', async () => {
    const base = { fUserName: '测试人员', fUserIdcard: '44010619900101123x', fStartTime: '2026-12-01 00:00:00', fEndTime: '2027-12-01 00:00:00', fState: '1', fImsi: '460001234567890' };
    const save = (body: object, token = admin) => s.call(`${PERSON}/addOrUpdateControlPerson`, body, token);
    expect((await save({ ...base, fUserName: '' })).body.message).toBe('人员名称不能为空');
    expect((await save({ ...base, fUserIdcard: '' })).body.message).toBe('身份证号不能为空');
    expect((await save({ ...base, fUserIdcard: '4401061990' })).body.message).toBe('请输入正确的身份证号');
    expect((await save({ ...base, fUserIdcard: '44010619900101123Y' })).body.message).toBe('请输入正确的身份证号');
    expect((await save({ ...base, fStartTime: '' })).body.message).toBe('布控开始时间不能为空');
    expect((await save({ ...base, fEndTime: '' })).body.message).toBe('布控结束时间不能为空');
    expect((await save({ ...base, fState: '' })).body.message).toBe('布控状态不能为空');
    expect((await save({ ...base, fEndTime: '2026-11-30 23:59:59' })).body.message).toBe('布控结束时间不能早于开始时间');
    expect((await save({ ...base, fPhones: '13800138000,12345' })).body.success).toBe(false);
    const ok15 = await save({ ...base, fImsi: '', fUserIdcard: '440106900101123', fPhones: '13800138000,13900139000' });
    expect(ok15.body.success).toBe(true);
    const created = await save(base);
    expect(created.body).toMatchObject({ success: true, data: { fUserIdcard: '44010619900101123X' } });
    const id = created.body.data.fId;
    const found = await s.call(`${PERSON}/pageList`, { current: 1, size: 10, condition: { imsi: '4600012345' } }, admin);
    expect(found.body.data.records.map((r: { fId: number }) => r.fId)).toEqual([id]);
    const toggled = await s.call(`${PERSON}/updateState`, { fId: id, fState: '2' }, admin);
    expect(toggled.body).toMatchObject({ success: true });
    expect((await s.sql(`select f_state from t_control_person where f_id = ${id}`))[0].fState).toBe('2');
    expect((await s.call(`${PERSON}/updateState`, { fId: id, fState: '1' }, agent)).status).toBe(401);
    expect((await s.call(`${PERSON}/removeControlPerson`, { fId: ok15.body.data.fId }, admin)).body.success).toBe(true);
    // The operation log keeps the call but not the ID number or the phones in plain text.
    const logs = await s.sql(`select message from t_sys_log where logname = 'controlPerson.save'`);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.some((l) => String(l.message).includes('44010619900101123'))).toBe(false);
    expect(logs.some((l) => String(l.message).includes('13900139000'))).toBe(false);
    expect(logs.some((l) => String(l.message).includes('440106********123'))).toBe(true);
  });

  it('control-person template is a real workbook; an import with a bad row imports nothing', async () => {
    const res = await fetch(s.url + '/excel/controlPerson.xlsx');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('controlPerson.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const header = (book.worksheets[0].getRow(1).values as string[]).filter(Boolean);
    expect(header.slice(0, 3)).toEqual(['人员名称', '身份证号', '布控类型(1上访/2精神病)']);

    const before = (await s.sql(`select count(*)::int as n from t_control_person`))[0].n;
    const bad = await workbook([
      ['导入甲', '110101199003074578', '1', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', '13800138001'],
      ['导入乙', '1101011990', '2', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '启用', ''],
      ['导入丙', '110101199003071234', '上访', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '2', '13800138002'],
      ['导入丁', '110101199003075555', '1', '民警', '2026-12-01 00:00:00', '2026-01-01 00:00:00', '1', ''],
    ]);
    const refused = await upload(`${PERSON}/importExcel`, 'people.xlsx', bad);
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toContain('第3行：请输入正确的身份证号');
    expect(refused.body.message).toContain('第5行：布控结束时间不能早于开始时间');
    expect(refused.body.message).not.toContain('第2行');
    expect((await s.sql(`select count(*)::int as n from t_control_person`))[0].n).toBe(before);

    const good = await workbook([
      ['导入甲', '110101199003074578', '1', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', '13800138001'],
      ['导入丙', '110101199003071234', '上访', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '禁用', '13800138002，13800138003'],
    ]);
    const imported = await upload(`${PERSON}/importExcel`, 'people.xlsx', good);
    expect(imported.body).toMatchObject({ success: true, data: { imported: 2 } });
    const rows = await s.sql(`select f_control_type, f_state, f_phones from t_control_person where f_user_name = '导入丙'`);
    expect(rows[0]).toMatchObject({ fControlType: '1', fState: '2', fPhones: '13800138002,13800138003' });

    expect((await upload(`${PERSON}/importExcel`, 'people.csv', Buffer.from('a,b'))).body.message).toBe('文件格式不正确');
    expect((await upload(`${PERSON}/importExcel`, 'people.xlsx', Buffer.alloc(2048 * 1024 + 10, 1))).body.message).toBe('超出文件大小限制');
    expect((await upload(`${PERSON}/importExcel`, 'people.xlsx', good, agent)).status).toBe(401);
  });

  it('reports a refused control-person import row by row, by code, in the language the caller asks in', async () => {
    const sheet = await workbook([
      ['语言甲', '110101199003074578', '1', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', ''],
      ['语言乙', '110101199003074578', '1', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', ''],
      ['语言丙', '110101199003071234', '1', '民警', '2026-12-01 00:00:00', 'soon', '1', ''],
    ]);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(sheet)]), 'people.xlsx');
    const res = await fetch(s.url + `${PERSON}/importExcel`, { method: 'POST', headers: { authorization: admin, 'accept-language': 'en-US' }, body: form });
    const body = await res.json();
    expect(body.success).toBe(false);
    expect(body.message).toContain('第3行：身份证号重复');
    expect(body.message).toContain('第4行：布控结束时间格式不正确');
    expect(body.data).toMatchObject({
      total: 2,
      rows: [
        { row: 3, reason: { code: 'watch.idcardRepeated', text: 'The ID card number appears more than once' } },
        { row: 4, reason: { code: 'field.invalid', params: { label: { 'en-US': 'Watch end' } }, text: 'Watch end is not valid' } },
      ],
    });
    // The template's file and its header come from the catalogue and the entity's labels.
    const template = await fetch(s.url + '/excel/controlPerson.xlsx');
    expect(decodeURIComponent(template.headers.get('content-disposition') ?? '')).toContain('布控人员导入模板.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await template.arrayBuffer());
    expect(book.worksheets[0].name).toBe('布控人员');
    expect((book.worksheets[0].getRow(1).values as string[]).filter(Boolean)).toEqual([
      '人员名称', '身份证号', '布控类型(1上访/2精神病)', '布控人', '布控开始时间', '布控结束时间', '布控状态(1启用/2禁用)', '手机号(多个用英文逗号分隔)', 'IMEI', 'IMSI', 'MAC地址',
    ]);
    expect(book.worksheets[0].getRow(2).getCell(1).text).toBe('示例人员');
  });

  it('control-person photos: type by content, size limit', async () => {
    const png = solidPng(8, 8, [1, 2, 3]);
    const ok = await upload('/api/upload', 'face.png', png);
    expect(ok.body.success).toBe(true);
    expect((await upload('/api/upload', 'face.jpg', Buffer.from('not a picture at all'))).body.message).toBe('文件格式不正确');
    expect((await upload('/api/upload', 'face.gif', png)).body.message).toBe('文件格式不正确');
    expect((await upload('/api/upload', 'face.png', Buffer.concat([png, Buffer.alloc(2048 * 1024)]))).body.message).toBe('超出文件大小限制');
    const saved = await s.call(`${PERSON}/addOrUpdateControlPerson`, { fUserName: '带照片', fUserIdcard: '110101199003070011', fStartTime: '2026-12-01 00:00:00', fEndTime: '2027-12-01 00:00:00', fState: '1', fFace: ok.body.data }, admin);
    expect(saved.body.data.fFace).toBe(ok.body.data);
  });

  it('app versions: dictionaries, rules, streamed upload and download, refusals, permissions', async () => {
    const dic = await s.call('/system/t-sys-dic/getdic', { key: 'app_type' }, admin);
    const android = dic.body.data.find((d: { fValue: string }) => d.fValue === '1').fId;
    const force = (await s.call('/system/t-sys-dic/getdic', { key: 'update_status' }, admin)).body.data.find((d: { fValue: string }) => d.fValue === '1').fId;
    const seeded = await s.call(`${APP}/pageList`, { current: 1, size: 10, condition: { keyword: '', fStatus: '', fType: 1 } }, admin);
    expect(seeded.body.data.total).toBe(3);
    expect(seeded.body.data.records[0]).toHaveProperty('appTypeName');

    const save = (body: object, token = admin) => s.call(`${APP}/addOrUpdate`, body, token);
    expect((await save({ fAppVersion: '1.0' })).body.message).toBe('类型不能为空');
    expect((await save({ fAppType: android, fAppVersion: '' })).body.message).toBe('版本不能为空');

    // 3 MB through the stream, and the same bytes back.
    const data = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < data.length; i += 4096) data.writeUInt32BE(i, i);
    const up = await upload(`${APP}/upload`, 'tenant-2.4.0.apk', data);
    expect(up.body).toMatchObject({ success: true, data: { size: data.length } });
    const saved = await save({ fAppType: android, fAppVersion: '2.4.0', fAppFile: up.body.data.fAppFile, fUpdateStatus: force, fAreaId: 440106, fUpdateDescribe: '新版本' });
    expect(saved.body).toMatchObject({ success: true, data: { appTypeName: '租户端 Android', updateStatusName: '强制更新' } });
    const down = await fetch(`${s.url}${APP}/download/${saved.body.data.fId}`);
    expect(down.status).toBe(200);
    expect(down.headers.get('content-disposition')).toContain('app-2.4.0.apk');
    expect(Buffer.from(await down.arrayBuffer()).equals(data)).toBe(true);
    expect((await save({ fAppType: android, fAppVersion: '9', fAppFile: '../../etc/passwd' })).body.success).toBe(false);

    expect((await upload(`${APP}/upload`, 'virus.exe', Buffer.from('MZ'))).body.message).toBe('文件格式不正确，请上传apk或ipa格式的文件');
    expect((await upload(`${APP}/upload`, 'x.apk', Buffer.from('x'), agent)).status).toBe(401);

    // Over 200 MB, streamed in chunks (no length known in advance) so the test never holds it whole.
    const chunk = Buffer.alloc(1024 * 1024, 7);
    let sent = 0;
    const boundary = '----watchtestboundary';
    const body = Readable.from(
      (async function* () {
        yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.apk"\r\nContent-Type: application/octet-stream\r\n\r\n`);
        while (sent < 201 * 1024 * 1024) {
          sent += chunk.length;
          yield chunk;
        }
        yield Buffer.from(`\r\n--${boundary}--\r\n`);
      })(),
    );
    const big = await fetch(`${s.url}${APP}/upload`, {
      method: 'POST',
      headers: { authorization: admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: body as unknown as BodyInit,
      duplex: 'half',
    } as RequestInit);
    expect((await big.json()).message).toBe('超出大小限制，不能超过200M');

    expect((await s.call(`${APP}/remove`, { fId: saved.body.data.fId }, agent)).status).toBe(401);
    expect((await s.call(`${APP}/remove`, { fId: saved.body.data.fId }, admin)).body.success).toBe(true);
    expect((await fetch(`${s.url}${APP}/download/${saved.body.data.fId}`)).status).toBe(404);
  }, 120_000);

  it('feedback: both list flavours, sign-off, reply with its message', async () => {
    const list = await s.call(`${FEEDBACK}/pageList`, { current: 1, size: 20 }, admin);
    expect(list.body.data.total).toBe(12);
    const withPhotos = list.body.data.records.find((r: { fPhotos: string | null }) => r.fPhotos);
    const photo = await fetch(`${s.url}/api/upload/${withPhotos.fPhotos.split(',')[0]}`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/png');
    const admins = await s.call(`${FEEDBACK}/pagelist`, { current: 1, size: 20, condition: { type: '2', content: '闪退' } }, admin);
    expect(admins.body.data.records).toHaveLength(1);
    expect(admins.body.data.records[0]).toMatchObject({ fType: '2', fContent: 'APP登录后经常闪退，希望尽快修复' });
    const open = list.body.data.records.find((r: { fStatus: number }) => r.fStatus === 0);
    // The list masks the phone (3 + 4); the search matches what is stored.
    expect(open.fPhone).toMatch(/^\d{3}\*{4}\d{4}$/);
    const [stored] = await s.sql(`select f_phone from t_feedback where f_id = ${open.fId}`);
    const byPhone = await s.call(`${FEEDBACK}/pagelist`, { current: 1, size: 20, condition: { phone: stored.fPhone.slice(-6) } }, admin);
    expect(byPhone.body.data.records.some((r: { fId: number }) => r.fId === open.fId)).toBe(true);

    expect((await s.call(`${FEEDBACK}/answer`, { fId: open.fId, fAnswerContent: '  ' }, admin)).body).toMatchObject({ success: false, message: '答复内容不能为空' });
    const answered = await s.call(`${FEEDBACK}/answer`, { fId: open.fId, fAnswerContent: '已安排维修' }, admin);
    expect(answered.body).toMatchObject({ success: true, message: '反馈答复成功', data: { fAnswer: '已安排维修', fStatus: 1 } });
    const other = list.body.data.records.filter((r: { fStatus: number }) => r.fStatus === 0)[1];
    // Spec 001 §4: sign-off takes a handling note, stored with who signed and when; once only.
    const sign = (body: object) => s.call(`${FEEDBACK}/sign`, body, admin);
    for (const note of [undefined, '', '  ']) expect((await sign({ fId: other.fId, fHandleContent: note })).body).toMatchObject({ success: false, message: '处理备注不能为空' });
    expect((await sign({ fId: other.fId, fHandleContent: 'x'.repeat(501) })).body.message).toBe('处理备注不能超过500个字符');
    expect((await s.sql(`select f_status from t_feedback where f_id = ${other.fId}`))[0].fStatus).toBe(0);
    const signed = await sign({ fId: other.fId, fHandleContent: '已转交物业处理' });
    expect(signed.body).toMatchObject({ success: true, message: '签收成功' });
    const [row] = await s.sql(`select f_status, f_handle_content, f_handle_user_id, f_handle_time from t_feedback where f_id = ${other.fId}`);
    expect(row).toMatchObject({ fStatus: 1, fHandleContent: '已转交物业处理' });
    expect(row.fHandleUserId).toBeTruthy();
    expect(row.fHandleTime).toBeTruthy();
    const shown = (await s.call(`${FEEDBACK}/pageList`, { current: 1, size: 20 }, admin)).body.data.records.find((r: { fId: number }) => r.fId === other.fId);
    expect(shown).toMatchObject({ fHandleContent: '已转交物业处理', fHandleUserName: expect.any(String), fHandleTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) });
    expect((await sign({ fId: other.fId, fHandleContent: '再签一次' })).body.message).toBe('该反馈已签收，请勿重复签收');
    expect((await sign({ fId: 999999, fHandleContent: '不存在' })).body.message).toBe('数据不存在或无权操作');
    expect((await sign({ fHandleContent: '无编号' })).body.message).toBe('反馈编号不能为空');
    expect((await s.call(`${FEEDBACK}/answer`, { fId: other.fId, fAnswerContent: 'x' }, agent)).status).toBe(401);
  });
});

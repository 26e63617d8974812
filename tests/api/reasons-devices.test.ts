/**
 * The devices area's refusals and notices by code (docs/api.md, "Refusals and notices"): `message` keeps
 * the spec's zh-CN words whatever the caller asks, and `reason` carries the code, its parameters and the
 * text in the language of the request's Accept-Language — a command to an offline device, a device's own
 * refusal, a command's notice with its name, a library in use, a share, a duplicate device number, a
 * batch's lines and a device import's bad rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { ADMIN, startServer, type TestServer, until } from './harness';

async function workbook(rows: string[][]): Promise<Blob> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('设备');
  sheet.addRow(['产品编号', '设备编号', '设备名称', 'IMEI', 'ICCID', '备注']);
  for (const r of rows) sheet.addRow(r);
  return new Blob([new Uint8Array(await book.xlsx.writeBuffer())]);
}

describe('device refusals and notices by code', () => {
  let s: TestServer;
  let admin: string;
  const id: Record<string, number> = {};
  const lib: Record<string, number> = {};

  /** A call in a language (none: the legacy caller, zh-CN). */
  const ask = async (path: string, body: unknown, language?: string) => {
    const res = await fetch(s.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: admin, ...(language ? { 'accept-language': language } : {}) },
      body: JSON.stringify(body),
    });
    return res.json();
  };
  const state = async (number: string) => (await s.call('/biz/t-device/device', { fId: id[number] }, admin)).body.data;

  beforeAll(async () => {
    s = await startServer('pglite', { simulate: true, telemetryMs: 500 });
    admin = await s.login(ADMIN);
    for (const r of await s.sql(`select f_id, f_number from t_device`)) id[r.fNumber] = r.fId;
    for (const r of await s.sql(`select f_id, f_bid from t_product_json`)) lib[r.fBid] = r.fId;
    await until(async () => (await s.call('/biz/t-device/total', {}, admin)).body.data.onlineCount === 22, 30_000);
  }, 60_000);
  afterAll(() => s?.close());

  it('refuses a command to an offline device by code, in the caller’s language', async () => {
    await s.devices.simulator!.setOnline('DEV000012', false);
    await until(async () => (await state('DEV000012')).tOnline === 0, 30_000);
    const body = { deviceId: id.DEV000012, onOff: 0 };
    expect(await ask('/app/device/send-switch', body, 'en-US')).toMatchObject({
      success: false, code: 400, message: '设备离线', reason: { code: 'command.offline', params: {}, text: 'The device is offline' },
    });
    await new Promise((r) => setTimeout(r, 3100));
    expect((await ask('/app/device/send-switch', body, 'zh-TW,zh;q=0.9')).reason).toMatchObject({ code: 'command.offline', text: '設備離線' });
    await new Promise((r) => setTimeout(r, 3100));
    expect((await ask('/app/device/send-switch', body)).reason).toMatchObject({ code: 'command.offline', text: '设备离线' });
    await s.devices.simulator!.setOnline('DEV000012', true);
    await until(async () => (await state('DEV000012')).tOnline === 1, 30_000);
  }, 70_000);

  it('words a command’s notice with its name in the caller’s language, and a device’s refusal by its ack code', async () => {
    const sent = await ask('/app/device/send-switch', { deviceId: id.DEV000009, onOff: 0 }, 'en-US');
    expect(sent).toMatchObject({ success: true, message: '分闸命令发送成功', reason: { code: 'command.sent', text: 'Open: command sent' } });
    expect(sent.reason.params.name).toEqual({ 'zh-CN': '分闸', 'zh-TW': '分閘', 'en-US': 'Open' });
    await s.call('/check-password', { password: ADMIN.password }, admin);
    // The device refuses in its own words (the legacy message); the reason is the code of its answer.
    const wrong = await ask('/app/device6/send-onoff', { deviceId: id.RG000021, onOff: 0, password: '9999' }, 'en-US');
    expect(wrong).toMatchObject({ success: false, message: '设备密码错误', reason: { code: 'command.device.badPassword', text: 'Wrong device password' } });
  });

  it('refuses thresholds out of range with each problem in the caller’s language', async () => {
    await s.call('/check-password', { password: ADMIN.password }, admin);
    const read = await s.call('/app/device/gateway-device-threshold', { fId: id.DEV000006 }, admin);
    const r = await ask('/app/device/set-gateway-device-threshold', { deviceId: id.DEV000006, ...read.body.data, tHi: 200 }, 'en-US');
    expect(r.message).toBe('参数错误: tHi 取值范围 50-150');
    expect(r.reason).toMatchObject({ code: 'command.paramsInvalid', text: 'Invalid parameters: tHi must be between 50 and 150' });
  });

  it('answers a batch by device, each outcome by code', async () => {
    const lines = await ask('/biz/t-device/send', { fIds: [id.DEV000014, id.DEV000015], fCmdType: 3 }, 'en-US');
    expect(lines.data.split('\n').sort()).toEqual(['DEV000014: 分闸命令发送成功', 'DEV000015: 分闸命令发送成功']);
    expect(lines.reason.code).toBe('command.batchDone');
    expect(lines.reason.text.split('\n').sort()).toEqual(['DEV000014: Open: command sent', 'DEV000015: Open: command sent']);
    await new Promise((r) => setTimeout(r, 3100));
    const rows = await ask('/biz/t-device/send', { fIds: [id.DEV000014], fCmdType: 4, byDevice: true }, 'zh-TW');
    expect(rows.data).toMatchObject([{ fNumber: 'DEV000014', ok: true, reason: { code: 'command.sent', text: '合閘命令發送成功' } }]);
  });

  it('names the product using a library in the refusal’s parameter', async () => {
    const r = await ask('/biz/t-product-json/del', { fId: lib.switch }, 'en-US');
    expect(r).toMatchObject({
      success: false, message: '该描述库已被产品「485智能开关」使用，无法删除',
      reason: { code: 'library.usedByProduct', params: { name: '485智能开关' }, text: 'The description library is used by the product "485智能开关" and cannot be deleted' },
    });
  });

  it('refuses a share to oneself and a duplicate device number by code', async () => {
    const self = await ask('/app/device/device-share-more', { deviceIds: [id.DEV000001], user: ADMIN.phone }, 'en-US');
    expect(self).toMatchObject({ success: false, message: '设备分享失败:不能分享给自己', reason: { code: 'share.self', text: 'Sharing failed: you cannot share with yourself' } });
    const [{ fId: productId }] = await s.sql(`select f_id from t_product order by f_id limit 1`);
    const duplicate = await ask('/biz/t-device/addorupdate', { fNumber: 'DEV000001', fProductId: productId }, 'zh-TW');
    expect(duplicate).toMatchObject({ success: false, code: 409, message: '设备编号已存在', data: { field: 'fNumber', rule: 'unique' }, reason: { code: 'device.fNumber.unique' } });
    expect(duplicate.reason.text).not.toBe('设备编号已存在');
  });

  it('answers a refused device import’s bad rows by code', async () => {
    const form = new FormData();
    form.append('file', await workbook([['NO-SUCH-PRODUCT', 'IMP-R1', '', '', '', ''], ['P-SW-485', 'DEV000001', '', '', '', '']]), 'devices.xlsx');
    const res = await fetch(s.url + '/biz/t-device/import', { method: 'POST', headers: { authorization: admin, 'accept-language': 'en-US' }, body: form });
    const body = await res.json();
    expect(body.message).toBe('导入失败，未导入任何数据\n第2行（IMP-R1）：所属产品不存在\n第3行（DEV000001）：设备编号已存在');
    expect(body.reason).toMatchObject({ code: 'import.failed', text: 'The import failed; nothing was imported' });
    expect(body.data.total).toBe(2);
    expect(body.data.rows).toMatchObject([
      { row: 2, label: 'IMP-R1', reason: { code: 'deviceImport.productUnknown', text: 'No product has this number' } },
      { row: 3, label: 'DEV000001', reason: { code: 'device.fNumber.unique' } },
    ]);
  });
});

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, backends, startServer, type TestServer, until } from './harness';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

async function upload(s: TestServer, path: string, token: string, name: string, data: Buffer, type = 'application/octet-stream') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(s.url + path, { method: 'POST', headers: { authorization: token }, body: form });
  return { status: res.status, body: await res.json() };
}

describe.each(backends)('firmware on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let productId: number;
  let firmwareId: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    s = await startServer(backend, { simulate: true, telemetryMs: 5000 });
    // These tests count the versions they make: the demo versions go first.
    await s.sql('delete from t_firmware_update_device');
    await s.sql('delete from t_firmware');
    [admin, agent] = [await s.login(ADMIN), await s.login(AGENT)];
    [{ fId: productId }] = await s.sql(`select f_id from t_product where f_number = 'P-4G-SW'`);
    for (const r of await s.sql(`select f_id, f_number from t_device`)) ids[r.fNumber] = r.fId;
  }, 60_000);
  afterAll(() => s?.close());

  const valid = () => ({ fProductId: productId, fName: '4G空开固件', fVersion: '2.0.0', fVersionCode: '200', fMd5Sign: 'D41D8CD98F00B204E9800998ECF8427E', fRemark: 'r' });

  it('validates a firmware version with the spec messages', async () => {
    const save = (body: Record<string, unknown>) => s.call('/biz/t-firmware/addorupdate', body, admin).then((r) => r.body);
    expect((await save({ ...valid(), fProductId: undefined })).message).toBe('所属产品不能为空');
    expect((await save({ ...valid(), fName: ' ' })).message).toBe('固件名称不能为空');
    expect((await save({ ...valid(), fVersion: '' })).message).toBe('版本号不能为空');
    expect((await save({ ...valid(), fVersionCode: '' })).message).toBe('版本序号不能为空');
    expect((await save({ ...valid(), fVersionCode: '1.2' })).message).toBe('版本序号只能为数字');
    expect((await save({ ...valid(), fVersionCode: '12a' })).message).toBe('版本序号只能为数字');
    expect((await save({ ...valid(), fMd5Sign: '' })).message).toBe('签名不能为空');
    expect((await save({ ...valid(), fProductId: 99999 })).message).toBe('所属产品不存在');
    const [{ n }] = await s.sql(`select count(*)::int as n from t_firmware`);
    expect(n).toBe(0);
  });

  it('creates, lists with filters, edits and deletes firmware versions', async () => {
    const created = await s.call('/biz/t-firmware/addorupdate', valid(), admin);
    expect(created.body).toMatchObject({ success: true, message: '固件版本保存成功' });
    expect(created.body.data.fMd5Sign).toBe('d41d8cd98f00b204e9800998ecf8427e');
    firmwareId = created.body.data.fId;
    const other = await s.call('/biz/t-firmware/addorupdate', { ...valid(), fName: '其它固件', fVersion: '0.9', fVersionCode: '9', fProductId: productId + 1 }, admin);
    const page = await s.call('/biz/t-firmware/firmwares', { current: 1, size: 10 }, admin);
    expect(page.body.data.total).toBe(2);
    expect(page.body.data.records[0].product.fName).toBeTruthy();
    expect(page.body.data.records[1].fIntime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const byName = await s.call('/biz/t-firmware/firmwares', { condition: { name: '空开' } }, admin);
    expect(byName.body.data.records.map((r: any) => r.fId)).toEqual([firmwareId]);
    const byProduct = await s.call('/biz/t-firmware/firmwares', { condition: { type: productId + 1 } }, admin);
    expect(byProduct.body.data.records.map((r: any) => r.fId)).toEqual([other.body.data.fId]);
    const edited = await s.call('/biz/t-firmware/addorupdate', { fId: other.body.data.fId, fRemark: '改过' }, admin);
    expect(edited.body).toMatchObject({ success: true, message: '固件版本保存成功', data: { fRemark: '改过', fVersion: '0.9' } });
    expect((await s.call('/biz/t-firmware/addorupdate', { fId: other.body.data.fId, fVersionCode: 'x' }, admin)).body.message).toBe('版本序号只能为数字');
    const removed = await s.call('/biz/t-firmware/del', { fId: other.body.data.fId }, admin);
    expect(removed.body).toMatchObject({ success: true, message: '固件版本删除成功' });
    expect((await s.call('/biz/t-firmware/addorupdate', valid(), agent)).status).toBe(401);
    expect((await s.call('/biz/t-firmware/firmwares', {}, agent)).body.data.total).toBe(1);
  });

  it('uploads pictures by their real type and size, and serves them', async () => {
    const ok = await upload(s, '/api/upload', admin, 'icon.png', PNG, 'image/png');
    expect(ok.body).toMatchObject({ success: true, message: '图标上传成功' });
    expect(ok.body.data).toMatch(/^[0-9a-f]{32}\.png$/);
    const served = await fetch(`${s.url}/api/upload/${ok.body.data}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await upload(s, '/api/upload', admin, 'fake.png', Buffer.from('GIF89a not really a png'))).body).toMatchObject({ success: false, message: '文件格式不正确' });
    expect((await upload(s, '/api/upload', admin, 'icon.gif', PNG)).body.message).toBe('文件格式不正确');
    const big = Buffer.concat([PNG, Buffer.alloc(2048 * 1024)]);
    expect((await upload(s, '/api/upload', admin, 'big.png', big)).body).toMatchObject({ success: false, message: '超出文件大小限制' });
    expect((await fetch(`${s.url}/api/upload/..%2F..%2Fsecret.png`)).status).toBe(404);
    expect((await fetch(`${s.url}/api/upload/missing.png`)).status).toBe(404);
    const anonymous = await fetch(`${s.url}/api/upload`, { method: 'POST', body: new FormData() });
    expect(anonymous.status).toBe(700);
  });

  it('uploads firmware files up to the limit, with their MD5', async () => {
    const data = Buffer.from('firmware image bytes');
    const ok = await upload(s, '/api/upload/firmware', admin, 'fw-2.0.0.bin', data);
    expect(ok.body).toMatchObject({ success: true, message: '固件上传成功', data: { fMd5Sign: createHash('md5').update(data).digest('hex'), size: data.length } });
    expect(ok.body.data.fFileName).toMatch(/^[0-9a-f]{32}\.bin$/);
    const served = await fetch(`${s.url}/api/upload/firmware/${ok.body.data.fFileName}`);
    expect(Buffer.from(await served.arrayBuffer()).toString()).toBe('firmware image bytes');
    expect((await upload(s, '/api/upload/firmware', admin, 'fw.exe', data)).body.message).toBe('文件格式不正确');
    expect((await upload(s, '/api/upload/firmware', admin, 'fw.bin', Buffer.alloc(2048 * 1024 + 1))).body.message).toBe('超出文件大小限制');
    expect((await upload(s, '/api/upload/firmware', agent, 'fw.bin', data)).status).toBe(401);
  });

  it('adds selected devices, all devices, and refuses an empty selection', async () => {
    const none = await s.call('/biz/t-firmware-update-device/addorupdate', [], admin);
    expect(none.body).toMatchObject({ success: false, message: '请选择需要升级的设备' });
    const candidates = await s.call('/biz/t-firmware-update-device/undevices', { current: 1, size: 10, condition: { fFirmwareId: firmwareId, fProductId: productId } }, admin);
    expect(candidates.body.data.total).toBe(4);
    const picked = candidates.body.data.records.slice(0, 2).map((d: any) => ({ fDeviceId: d.fId, fFirmwareId: firmwareId }));
    const added = await s.call('/biz/t-firmware-update-device/addorupdate', picked, admin);
    expect(added.body).toMatchObject({ success: true, message: '设备添加完成', data: { count: 2 } });
    const again = await s.call('/biz/t-firmware-update-device/addorupdate', picked, admin);
    expect(again.body.data).toEqual({ count: 0, skipped: 2 });
    const left = await s.call('/biz/t-firmware-update-device/undevices', { condition: { fFirmwareId: firmwareId, keyword: '演示' } }, admin);
    expect(left.body.data.total).toBe(2);
    const wrongProduct = await s.call('/biz/t-firmware-update-device/addorupdate', [{ fDeviceId: ids.DEV000001, fFirmwareId: firmwareId }], admin);
    expect(wrongProduct.body.message).toBe('设备不存在或无权操作');
    const all = await s.call('/biz/t-firmware-update-device/addall', { fFirmwareId: firmwareId, fProductId: productId }, admin);
    expect(all.body).toMatchObject({ success: true, message: '设备添加完成', data: { count: 2 } });
    const records = await s.call('/biz/t-firmware-update-device/devices', { condition: { fFirmwareId: firmwareId } }, admin);
    expect(records.body.data.total).toBe(4);
    expect(records.body.data.records.every((r: any) => r.fStatus === 0 && r.device?.fNumber)).toBe(true);
    const removed = await s.call('/biz/t-firmware-update-device/del', { fId: records.body.data.records[0].fId }, admin);
    expect(removed.body).toMatchObject({ success: true, message: '升级设备删除成功' });
  });

  it('lets an agent add only its own devices', async () => {
    const foreign = await s.call('/biz/t-device/addorupdate', { fNumber: 'ADMIN-FW-1', fProductId: productId }, admin);
    const fw = await s.call('/biz/t-firmware/addorupdate', { ...valid(), fVersion: '2.1.0', fVersionCode: '210' }, admin);
    const f2 = fw.body.data.fId;
    const refused = await s.call('/biz/t-firmware-update-device/addorupdate', [{ fDeviceId: foreign.body.data.fId, fFirmwareId: f2 }], agent);
    expect(refused.body).toMatchObject({ success: false, message: '设备不存在或无权操作' });
    const seen = await s.call('/biz/t-firmware-update-device/undevices', { condition: { fFirmwareId: f2 } }, agent);
    expect(seen.body.data.records.map((d: any) => d.fNumber)).not.toContain('ADMIN-FW-1');
    expect(seen.body.data.total).toBe(4);
    const all = await s.call('/biz/t-firmware-update-device/addall', { fFirmwareId: f2 }, agent);
    expect(all.body.data.count).toBe(4);
    const [{ n }] = await s.sql(`select count(*)::int as n from t_firmware_update_device where f_firmware_id = ${f2}`);
    expect(n).toBe(4);
    const adminAll = await s.call('/biz/t-firmware-update-device/addall', { fFirmwareId: f2 }, admin);
    expect(adminAll.body.data.count).toBe(1);
    expect((await s.call('/biz/t-firmware-update-device/devices', { condition: { fFirmwareId: f2 } }, agent)).body.data.total).toBe(4);
    await s.call('/biz/t-firmware/del', { fId: f2 }, admin);
    await s.call('/biz/t-device/del', { fId: foreign.body.data.fId }, admin);
  });

  it('pushes the upgrade over MQTT until the simulated device runs the new version', async () => {
    await until(async () => (await s.call('/biz/t-device/total', { productId }, admin)).body.data.onlineCount === 4, 20_000);
    const pushed = await s.call('/biz/t-firmware-update-device/push', { fFirmwareId: firmwareId }, admin);
    expect(pushed.body).toMatchObject({ success: true, data: { sent: 3, failed: 0, offline: 0 } });
    const sending = await s.sql(`select f_status from t_firmware_update_device where f_firmware_id = ${firmwareId}`);
    expect(sending.every((r) => r.fStatus === 1 || r.fStatus === 2)).toBe(true);
    await until(async () => {
      const rows = await s.sql(`select f_status from t_firmware_update_device where f_firmware_id = ${firmwareId}`);
      return rows.every((r) => r.fStatus === 2);
    }, 20_000);
    const records = await s.call('/biz/t-firmware-update-device/devices', { condition: { fFirmwareId: firmwareId } }, admin);
    expect(records.body.data.records[0]).toMatchObject({ fStatus: 2, fProgress: 100 });
    const deviceId = records.body.data.records[0].fDeviceId;
    await until(async () => (await s.call('/biz/t-device/device', { fId: deviceId }, admin)).body.data.fVersion === '2.0.0', 10_000);
    const [cmd] = await s.sql(`select f_source, f_bid, f_state from t_device_command where f_device_id = ${deviceId} and f_bid = 'upgrade'`);
    expect(cmd).toMatchObject({ fSource: 'batch', fBid: 'upgrade', fState: 'acknowledged' });
    expect((await s.call('/biz/t-firmware-update-device/push', { fFirmwareId: firmwareId }, admin)).body.message).toBe('没有等待升级的设备');
  }, 60_000);

  it('marks a record failed when the device rejects the signature', async () => {
    const fw = await s.call('/biz/t-firmware/addorupdate', { ...valid(), fVersion: '3.0.0', fVersionCode: '300', fMd5Sign: 'not-an-md5' }, admin);
    const f3 = fw.body.data.fId;
    await s.call('/biz/t-firmware-update-device/addorupdate', [{ fDeviceId: ids.DEV000009, fFirmwareId: f3 }], admin);
    const pushed = await s.call('/biz/t-firmware-update-device/push', { fFirmwareId: f3 }, admin);
    expect(pushed.body.data.sent).toBe(1);
    const [row] = await until(async () => {
      const rows = await s.sql(`select f_id, f_status, f_message from t_firmware_update_device where f_firmware_id = ${f3}`);
      return rows[0]?.fStatus === -1 ? rows : undefined;
    }, 15_000);
    expect(row.fMessage).toBe('固件签名校验失败');
    expect((await s.call('/biz/t-firmware-update-device/push', { fId: row.fId }, agent)).body.data.sent).toBe(1);
  }, 40_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN, AGENT, USER, backends, startServer, until, type TestServer } from './harness';
import { importDevices, tooManyRows } from '../../server/devices/deviceTransfer';
import { loadConfig } from '../../server/config';
import type { DeviceImportProgress } from '../../contract/deviceImport';
import { streamEvents } from './eventStream';

const HEADERS = ['产品编号', '设备编号', '设备名称', 'IMEI', 'ICCID', '备注'];

async function sheetOf(data: ArrayBuffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(data);
  const rows: string[][] = [];
  book.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))));
  return rows;
}

async function workbook(rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('设备');
  sheet.addRow(HEADERS);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const scratch = mkdtempSync(join(tmpdir(), 'device-transfer-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A sheet of `count` generated rows written as a stream to a file (shared strings, as spreadsheet programs write them). */
async function sheetFile(name: string, count: number, row: (i: number) => (string | number)[]): Promise<string> {
  const path = join(scratch, name);
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
  const sheet = book.addWorksheet('设备');
  sheet.addRow(HEADERS).commit();
  for (let i = 0; i < count; i++) sheet.addRow(row(i)).commit();
  sheet.commit();
  await book.commit();
  return path;
}

/** The tests that import tens of thousands of rows: minutes on a busy machine. */
const IMPORT_TEST_MS = 300_000;

describe.each(backends)('device import, export, use and location on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let user: string;
  let agentId: number;

  const post = (path: string, body: unknown, token: string) =>
    fetch(s.url + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: JSON.stringify(body) });
  const upload = async (data: Buffer | Blob, name: string, token: string, progress?: string) => {
    const form = new FormData();
    if (progress) form.append('progress', progress);
    form.append('file', data instanceof Blob ? data : new Blob([new Uint8Array(data)]), name);
    const res = await fetch(s.url + '/biz/t-device/import', { method: 'POST', headers: { authorization: token }, body: form });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    s = await startServer(backend);
    [admin, agent, user] = [await s.login(ADMIN), await s.login(AGENT), await s.login(USER)];
    [{ fId: agentId }] = await s.sql(`select f_id from t_sys_user where f_phone = '${AGENT.phone}'`);
  });
  afterAll(() => s?.close());

  it('downloads the import template with the Chinese header row', async () => {
    const res = await post('/biz/t-device/download-device', {}, admin);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('设备导入模板.xlsx')}`);
    const rows = await sheetOf(await res.arrayBuffer());
    expect(rows).toEqual([HEADERS]);
  });

  it('refuses a file with a bad row whole, naming every bad row and its reason, and writes nothing', async () => {
    const file = await workbook([
      ['P-SW-485', 'IMP-0001', '导入设备1', '860000000000001', '89860000000000000001', '一号'],
      ['P-GW-WIFI', 'IMP-0002', '导入设备2', '', '', ''],
      ['NO-SUCH', 'IMP-0003', '未知产品', '', '', ''],
      ['P-SW-485', 'DEV000001', '重复编号', '', '', ''],
      ['P-SW-485', '', '没有编号', '', '', ''],
      ['P-SW-485', 'IMP-0001', '文件内重复', '', '', ''],
      ['', 'IMP-0004', '没有产品', '', '', ''],
    ]);
    const res = await upload(file, '设备.xlsx', agent);
    // data lists the bad rows by code (docs/api.md, "Refusals and notices"); the message lists them as before.
    expect(res.body).toMatchObject({ success: false, code: 400, data: { total: 5 } });
    expect(res.body.message.split('\n')).toEqual([
      '导入失败，未导入任何数据',
      '第4行（IMP-0003）：所属产品不存在',
      '第5行（DEV000001）：设备编号已存在',
      '第6行：设备编号不能为空',
      '第7行（IMP-0001）：设备编号重复',
      '第8行（IMP-0004）：所属产品不能为空',
    ]);
    expect(await s.sql(`select f_number from t_device where f_number like 'IMP-%'`)).toHaveLength(0);
  });

  it('imports a file whose every row is good, all of it', async () => {
    const file = await workbook([
      ['P-SW-485', 'IMP-0001', '导入设备1', '860000000000001', '89860000000000000001', '一号'],
      ['P-GW-WIFI', 'IMP-0002', '导入设备2', '', '', ''],
      ['', '', '', '', '', ''],
    ]);
    const res = await upload(file, '设备.xlsx', agent);
    expect(res.body).toMatchObject({ success: true, message: '导入完成：共 2 条，成功 2 条', data: { total: 2, imported: 2, failed: 0, errors: [] } });
    const saved = await s.sql(`select f_number, f_user_id, f_type_id, f_imei from t_device where f_number like 'IMP-%' order by f_number`);
    expect(saved.map((d) => d.fNumber)).toEqual(['IMP-0001', 'IMP-0002']);
    // An agent's import is the agent's.
    expect(saved.every((d) => d.fUserId === agentId)).toBe(true);
    expect(saved[0].fImei).toBe('860000000000001');
    expect(saved[0].fTypeId).toBe(1);
  });

  it('refuses a file of more rows than DEVICE_IMPORT_MAX_ROWS before writing any', async () => {
    expect(loadConfig({}).deviceImportMaxRows).toBe(1_000_000);
    expect(loadConfig({ DEVICE_IMPORT_MAX_ROWS: '5000' }).deviceImportMaxRows).toBe(5000);
    expect(() => loadConfig({ DEVICE_IMPORT_MAX_ROWS: 'many' })).toThrow(/DEVICE_IMPORT_MAX_ROWS/);
    const path = await sheetFile(`cap-${backend}.xlsx`, 5, (i) => ['P-SW-485', `CAP-${i}`, '', '', '', '']);
    const caller = (await s.app.sessions.user(agentId))!;
    await expect(importDevices({ db: s.db }, caller, path, { maxRows: 4 })).rejects.toThrow(tooManyRows(4));
    expect(tooManyRows(4)).toBe('导入行数超出限制（最多4行）');
    expect(await s.sql(`select f_id from t_device where f_number like 'CAP-%'`)).toHaveLength(0);
    // At the cap itself the file goes in. An ordinary user's import (a role given device:upload) is
    // reached through the share table, as a device it adds by hand.
    const [{ fId: userId }] = await s.sql(`select f_id from t_sys_user where f_phone = '${USER.phone}'`);
    expect(await importDevices({ db: s.db }, (await s.app.sessions.user(userId))!, path, { maxRows: 5 })).toMatchObject({ total: 5, imported: 5 });
    const shares = await s.sql(`select d.f_user_id as owner, u.f_user_id as sharer, u.f_owner from t_device d join t_user_device u on u.f_device_id = d.f_id where d.f_number like 'CAP-%'`);
    expect(shares).toHaveLength(5);
    expect(shares.every((r) => r.owner === null && r.sharer === userId && r.fOwner === 1)).toBe(true);
    await s.sql(`delete from t_user_device where f_device_id in (select f_id from t_device where f_number like 'CAP-%')`);
    await s.sql(`delete from t_device where f_number like 'CAP-%'`);
  });

  it('refuses other file types, oversized files, and callers without device:upload', async () => {
    const file = await workbook([['P-SW-485', 'IMP-CSV', '', '', '', '']]);
    expect((await upload(file, 'devices.csv', admin)).body).toMatchObject({ success: false, message: '文件格式不正确' });
    expect((await upload(Buffer.from('not a workbook'), 'devices.xlsx', admin)).body).toMatchObject({ success: false, message: '文件格式不正确' });
    const big = new Blob([new Uint8Array(100 * 1024 * 1024 + 1024)]);
    expect((await upload(big, 'big.xlsx', admin)).body).toMatchObject({ success: false, message: '超出文件大小限制' });
    expect((await upload(file, 'devices.xlsx', user)).status).toBe(401);
    const none = await s.sql(`select f_id from t_device where f_number = 'IMP-CSV'`);
    expect(none).toHaveLength(0);
  });

  it('exports the devices the user sees under the list condition', async () => {
    await s.call('/biz/t-device/addorupdate', { fProductId: (await s.sql(`select f_id from t_product where f_number = 'P-SW-485'`))[0].fId, fNumber: 'ADMIN-ONLY-1' }, admin);
    const mine = await sheetOf(await (await post('/biz/t-device/download-data', {}, agent)).arrayBuffer());
    const agentCount = (await s.sql(`select count(*)::int as n from t_device where f_user_id = ${agentId}`))[0].n;
    expect(mine[0].slice(0, 6)).toEqual(HEADERS);
    expect(mine.length - 1).toBe(agentCount);
    expect(mine.some((r) => r[1] === 'ADMIN-ONLY-1')).toBe(false);
    const all = await sheetOf(await (await post('/biz/t-device/download-data', {}, admin)).arrayBuffer());
    expect(all.some((r) => r[1] === 'ADMIN-ONLY-1')).toBe(true);
    const filtered = await sheetOf(await (await post('/biz/t-device/download-data', { condition: { keyword: 'IMP-', select_type: 1 } }, admin)).arrayBuffer());
    expect(filtered.slice(1).map((r) => r[1]).sort()).toEqual(['IMP-0001', 'IMP-0002']);
    expect(filtered.find((r) => r[1] === 'IMP-0001')![0]).toBe('P-SW-485');
  });

  it('adds a device to the own account and removes it again', async () => {
    const [{ fId }] = await s.sql(`select f_id from t_device where f_number = 'DEV000002'`);
    const row = async (token: string) => (await s.call('/biz/t-device/device', { fId }, token)).body.data;
    expect(await row(admin)).toMatchObject({ canUse: 1, isUse: 0 });
    expect((await s.call('/biz/t-device/use', { fId }, admin)).body).toMatchObject({ success: true, message: '加入成功' });
    expect(await row(admin)).toMatchObject({ canUse: 1, isUse: 1 });
    const mine = await s.call('/biz/t-device/my-devices', { current: 1, size: 10 }, admin);
    expect(mine.body.data.records.map((d: any) => d.fNumber)).toEqual(['DEV000002']);
    const list = await s.call('/biz/t-device/devices', { condition: { keyword: 'DEV000002', select_type: 1 } }, admin);
    expect(list.body.data.records[0]).toMatchObject({ canUse: 1, isUse: 1 });
    expect((await s.call('/biz/t-device/use', { fId }, admin)).body).toMatchObject({ success: true, message: '移除成功' });
    expect((await s.call('/biz/t-device/my-devices', {}, admin)).body.data.total).toBe(0);
    // The ordinary user's account is its share rows: nothing to add or remove there.
    expect(await row(user)).toMatchObject({ canUse: 0 });
    expect((await s.call('/biz/t-device/use', { fId }, user)).body.success).toBe(false);
    const [{ fId: foreign }] = await s.sql(`select f_id from t_device where f_number = 'ADMIN-ONLY-1'`);
    expect((await s.call('/biz/t-device/use', { fId: foreign }, agent)).body.success).toBe(false);
  });

  it('answers device positions by the coordinate rule, with the condition and the scope', async () => {
    await s.sql(`update t_device set f_gps_longitude = 0, f_gps_latitude = 0 where f_number = 'DEV000001'`);
    await s.sql(`update t_device set f_gps_longitude = 3, f_gps_latitude = 40 where f_number = 'DEV000002'`);
    await s.sql(`update t_device set f_gps_longitude = 121.5, f_gps_latitude = 31.2 where f_number = 'DEV000003'`);
    await s.sql(`update t_device set f_gps_longitude = null, f_gps_latitude = null where f_number = 'DEV000004'`);
    await s.sql(`update t_device set f_gps_longitude = -74.006, f_gps_latitude = 40.71 where f_number = 'ADMIN-ONLY-1'`);
    const res = await s.call('/biz/t-device/devices-location', { condition: {} }, admin);
    const numbers = res.body.data.map((d: any) => d.fNumber);
    expect(numbers).toContain('DEV000003');
    expect(numbers).toContain('ADMIN-ONLY-1');
    for (const n of ['DEV000001', 'DEV000002', 'DEV000004', 'IMP-0001']) expect(numbers).not.toContain(n);
    for (const d of res.body.data) {
      expect(Math.abs(d.fGpsLongitude)).toBeGreaterThan(5);
      expect(Math.abs(d.fGpsLatitude)).toBeGreaterThan(5);
    }
    expect(res.body.data.find((d: any) => d.fNumber === 'DEV000003')).toMatchObject({ fGpsLongitude: 121.5, fGpsLatitude: 31.2 });
    const one = await s.call('/biz/t-device/devices-location', { condition: { keyword: '000003', select_type: 1 } }, admin);
    expect(one.body.data.map((d: any) => d.fNumber)).toEqual(['DEV000003']);
    const agents = await s.call('/biz/t-device/devices-location', { condition: {} }, agent);
    expect(agents.body.data.map((d: any) => d.fNumber)).not.toContain('ADMIN-ONLY-1');
    // The device list's is_gps (the dashboard's map): the same devices, counted, newest first, in scope.
    const listed = await s.call('/biz/t-device/devices', { current: 1, size: 9999, condition: { is_gps: 1 } }, admin);
    expect(listed.body.data.records.map((d: any) => d.fNumber)).toEqual(numbers);
    expect(listed.body.data.total).toBe(numbers.length);
    const everyOne = await s.call('/biz/t-device/devices', { current: 1, size: 10, condition: {} }, admin);
    expect(everyOne.body.data.total).toBeGreaterThan(numbers.length);
    const agentsListed = await s.call('/biz/t-device/devices', { current: 1, size: 9999, condition: { is_gps: 1 } }, agent);
    expect(agentsListed.body.data.records.map((d: any) => d.fNumber)).toEqual(agents.body.data.map((d: any) => d.fNumber));
  });

  it('lists the alarms of the devices on the location page', async () => {
    const [{ fId }] = await s.sql(`select f_id from t_device where f_number = 'DEV000003'`);
    const [{ fId: foreign }] = await s.sql(`select f_id from t_device where f_number = 'ADMIN-ONLY-1'`);
    await s.sql(`insert into t_device_alarm (f_device_id, f_kind, f_field, f_value, f_limit, f_level, f_active) values (${fId}, 'overtemperature', 'temperature', 88.5, 80, 'alarm', 1), (${foreign}, 'overcurrent', 'current', 70, 63, 'alarm', 1)`);
    const res = await s.call('/biz/t-device/devices-alarm', { condition: {}, current: 1, size: 5 }, agent);
    expect(res.body.data.total).toBe(1);
    expect(res.body.data.records[0]).toMatchObject({ fNumber: 'DEV000003', fField: 'temperature', fFieldName: '温度', fValue: 88.5 });
    expect(res.body.data.records[0].fIntime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await s.call('/biz/t-device/devices-alarm', { condition: {} }, admin)).body.data.total).toBe(2);
  });

  it('zips one QR code PNG per chosen device', async () => {
    const ids = (await s.sql(`select f_id from t_device where f_number in ('DEV000001', 'DEV000002', 'DEV000003') order by f_id`)).map((r) => r.fId);
    const res = await post('/biz/t-device/qrcode', { fIds: ids }, admin);
    expect(res.headers.get('content-type')).toContain('zip');
    expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('设备二维码.zip')}`);
    const zip = await JSZip.loadAsync(await res.arrayBuffer());
    const names = Object.keys(zip.files).sort();
    expect(names).toEqual(['DEV000001.png', 'DEV000002.png', 'DEV000003.png']);
    const png = await zip.file('DEV000001.png')!.async('uint8array');
    expect(Array.from(png.slice(1, 4))).toEqual([0x50, 0x4e, 0x47]);
    const [{ fId: foreign }] = await s.sql(`select f_id from t_device where f_number = 'ADMIN-ONLY-1'`);
    const agents = await JSZip.loadAsync(await (await post('/biz/t-device/qrcode', { fIds: [ids[0], foreign] }, agent)).arrayBuffer());
    expect(Object.keys(agents.files)).toEqual(['DEV000001.png']);
    expect(await (await post('/biz/t-device/qrcode', { fIds: [] }, admin)).json()).toMatchObject({ success: false, message: '请选择设备' });
  });

  it('imports 20,000 rows whole, telling the importer how far it got, while the server keeps answering', async () => {
    const count = 20_000;
    const path = await sheetFile(`bulk-${backend}.xlsx`, count, (i) => ['P-SW-485', `BULK-${String(i).padStart(6, '0')}`, `批量设备${i}`, `86${String(i).padStart(13, '0')}`, '', '']);
    const live = await streamEvents<DeviceImportProgress>(s.url, admin, 'deviceImport');
    // Asked over and over while the import runs: the event loop (the address that only redirects) and
    // the database (/healthz).
    const loop: number[] = [];
    const health: number[] = [];
    let importing = true;
    const timed = async (path: string, into: number[]) => {
      const start = performance.now();
      const res = await fetch(`${s.url}${path}`, { redirect: 'manual' });
      await res.arrayBuffer();
      into.push(performance.now() - start);
      return res.status;
    };
    const probe = async (path: string, into: number[], status: number) => {
      while (importing) {
        expect(await timed(path, into)).toBe(status);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const probes = Promise.all([probe('/', loop, 302), probe('/healthz', health, 200)]);
    const res = await upload(await openAsBlob(path), 'bulk.xlsx', admin, 'bulk-import-test').finally(() => (importing = false));
    await probes;
    await new Promise((r) => setTimeout(r, 300));
    await live.stop();
    expect(res.body).toMatchObject({ success: true, data: { total: count, imported: count, failed: 0 } });
    expect((await s.sql(`select count(*)::int as n from t_device where f_number like 'BULK-%'`))[0].n).toBe(count);
    // The server kept answering while the import ran (each probe above got its answer). How fast is
    // measured by bench/import.ts, not here: a timed bound would fail on a loaded machine. That the
    // database's answers come while the import writes, not after its commit, is the next test's.
    expect(loop.length).toBeGreaterThan(3);
    expect(health.length).toBeGreaterThan(0);
    const mine = live.events.filter((e) => e.id === 'bulk-import-test');
    expect(mine.map((e) => e.phase).filter((p, i, all) => p !== all[i - 1])).toEqual(['wait', 'read', 'write', 'done']);
    expect(mine.at(-1)).toMatchObject({ read: count, checked: count, written: count, total: count });
    const written = mine.filter((e) => e.phase === 'write').map((e) => e.written);
    expect(written).toEqual([...written].sort((a, b) => a - b));
  }, IMPORT_TEST_MS);
  it('answers other calls while an import writes, showing the devices as they were until it commits', async () => {
    const count = 40_000;
    const path = await sheetFile(`beside-${backend}.xlsx`, count, (i) => ['P-GW-WIFI', `BESIDE-${String(i).padStart(6, '0')}`, `旁路设备${i}`, '', '', '']);
    const list = async () => (await s.call('/biz/t-device/devices', { current: 1, size: 10, condition: {} }, admin)).body.data;
    const counters = async () => (await s.call('/biz/t-device/total', {}, admin)).body.data;
    const [listBefore, countersBefore] = [await list(), await counters()];
    const [{ committedBefore }] = await s.sql(`select count(*)::int as committed_before from t_device`);
    const live = await streamEvents<DeviceImportProgress>(s.url, admin, 'deviceImport');
    const mine = () => live.events.filter((e) => e.id === 'beside-import-test');
    const writtenSoFar = () => Math.max(0, ...mine().filter((e) => e.phase === 'write').map((e) => e.written));
    const importing = upload(await openAsBlob(path), 'beside.xlsx', admin, 'beside-import-test');
    // Once the first batches are written (inside the import's transaction), other calls go out.
    await until(async () => writtenSoFar() > 0, 60_000);
    const answered = (work: Promise<unknown>) => work.then((value) => ({ value, written: writtenSoFar(), seen: live.events.length }));
    const [health, listed, counted] = await Promise.all([
      answered(fetch(`${s.url}/healthz`).then((r) => r.json())),
      answered(list()),
      answered(counters()),
    ]);
    if (backend === 'pglite') {
      // The planner sees the rows written so far (the ids' statistics are taken again inside the import's
      // transaction as the table grows), so that the reads let in keep within the committed ids on the
      // indexes instead of walking the import's rows: the table's size it plans with counts them.
      await until(async () => writtenSoFar() >= 30_000, 120_000);
      const [{ planned }] = await s.sql(`select reltuples::float8 as planned from pg_class where oid = 't_device'::regclass`);
      expect(planned).toBeGreaterThan(committedBefore + 10_000);
    }
    // A write waits for the import's commit, then goes in.
    const [{ fId: productId }] = await s.sql(`select f_id from t_product where f_number = 'P-GW-WIFI'`);
    const added = s.call('/biz/t-device/addorupdate', { fProductId: productId, fNumber: 'BESIDE-BY-HAND' }, admin);
    const res = await importing;
    expect((await added).body.success).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    await live.stop();
    expect(res.body).toMatchObject({ success: true, data: { total: count, imported: count } });

    // Each answered while the import was still writing: the import wrote more batches after it.
    expect(health.value).toMatchObject({ status: 'ok' });
    for (const probe of [health, listed, counted]) {
      expect(probe.written).toBeLessThan(count);
      expect(live.events.slice(probe.seen).some((e) => e.id === 'beside-import-test' && e.phase === 'write' && e.written > probe.written)).toBe(true);
    }
    // What they showed was the devices as committed: none of the import's yet, the counters as they were.
    expect(listed.value).toMatchObject({ total: listBefore.total });
    expect((listed.value as any).records.map((d: any) => d.fNumber)).toEqual(listBefore.records.map((d: any) => d.fNumber));
    expect(counted.value).toEqual(countersBefore);

    // Once committed, every one of them, and the counters agree with the devices.
    expect((await list()).total).toBe(listBefore.total + count + 1);
    expect((await counters()).allCount).toBe(countersBefore.allCount + count + 1);
    const drift = await s.sql(`
      select coalesce(f_product_id, 0) p, coalesce(f_type_id, 0) t, coalesce(t_online, -1) o, coalesce(f_status, -1) s, count(*)::int n from t_device group by 1, 2, 3, 4
      except select f_product_id, f_type_id, f_online, f_status, f_count::int from t_device_count where f_count <> 0`);
    expect(drift).toEqual([]);
    // Nothing of what let the reads in is left.
    expect(await s.sql(`select rolname from pg_roles where rolname like 'iot_import%'`)).toEqual([]);
    expect(await s.sql(`select policyname from pg_policies where tablename in ('t_device', 't_user_device')`)).toEqual([]);
    expect(await s.sql(`select relname from pg_class where relname in ('t_device', 't_user_device') and relrowsecurity`)).toEqual([]);
    expect(await s.sql(`select tgname from pg_trigger where tgrelid = 't_device'::regclass and not tgisinternal and tgenabled = 'D'`)).toEqual([]);
    expect((await s.sql(`select proleakproof from pg_proc where oid = 'texticlike(text, text)'::regprocedure`))[0].proleakproof).toBe(false);
  }, IMPORT_TEST_MS);
  it('leaves nothing of an import that fails part-way through its writes', async () => {
    const count = 40_000;
    const number = (i: number) => `ROLL-${String(i).padStart(6, '0')}`;
    const path = await sheetFile(`roll-${backend}.xlsx`, count, (i) => ['P-SW-485', number(i), '', '', '', '']);
    const [{ fId: adminId }] = await s.sql(`select f_id from t_sys_user where f_phone = '${ADMIN.phone}'`);
    const [{ fId: productId }] = await s.sql(`select f_id from t_product where f_number = 'P-SW-485'`);
    const [{ n: before }] = await s.sql(`select sum(f_count)::int as n from t_device_count`);
    // Once the file's row 30,000 was checked, a device of its number is added by hand: the import's write
    // of it, three quarters of the way through, fails, and everything it wrote before goes with it.
    let added: Promise<unknown> | undefined;
    const phases = new Set<string>();
    const importing = importDevices({ db: s.db }, (await s.app.sessions.user(adminId))!, path, {
      maxRows: count,
      onProgress: (p) => {
        phases.add(p.phase);
        if (!added && p.phase === 'read' && p.checked >= 35_000) added = s.sql(`insert into t_device (f_number, f_product_id) values ('${number(30_000)}', ${productId})`);
      },
    });
    await expect(importing).rejects.toThrow();
    await added;
    expect(phases.has('write')).toBe(true);
    expect(await s.sql(`select f_number from t_device where f_number like 'ROLL-%'`)).toEqual([{ fNumber: number(30_000) }]);
    const drift = await s.sql(`
      select coalesce(f_product_id, 0) p, coalesce(f_type_id, 0) t, coalesce(t_online, -1) o, coalesce(f_status, -1) s, count(*)::int n from t_device group by 1, 2, 3, 4
      except select f_product_id, f_type_id, f_online, f_status, f_count::int from t_device_count where f_count <> 0`);
    expect(drift).toEqual([]);
    expect((await s.sql(`select sum(f_count)::int as n from t_device_count`))[0].n).toBe(before + 1);
    expect(await s.sql(`select rolname from pg_roles where rolname like 'iot_import%'`)).toEqual([]);
    expect(await s.sql(`select policyname from pg_policies where tablename in ('t_device', 't_user_device')`)).toEqual([]);
    expect(await s.sql(`select relname from pg_class where relname in ('t_device', 't_user_device') and relrowsecurity`)).toEqual([]);
    expect(await s.sql(`select tgname from pg_trigger where tgrelid = 't_device'::regclass and not tgisinternal and tgenabled = 'D'`)).toEqual([]);
    expect((await s.sql(`select proleakproof from pg_proc where oid = 'texticlike(text, text)'::regprocedure`))[0].proleakproof).toBe(false);
    await s.sql(`delete from t_device where f_number like 'ROLL-%'`);
  }, IMPORT_TEST_MS);
});

/**
 * A server killed with SIGKILL while a device import writes leaves nothing of it: not one device, and on
 * the embedded database nothing of what let other calls' reads in beside the import's transaction (a
 * role, row security, the device counters' trigger switched off). The same file goes in whole after the
 * restart.
 */
import { mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { ADMIN, backends, freshPostgres, until } from './harness';
import { copyPglite } from './template';
import { exited, freePort, startProcess, stopProcess, type ServerProcess } from './processes';
import { streamEvents } from './eventStream';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';
import type { DeviceImportProgress } from '../../contract/deviceImport';

const COUNT = 40_000;

describe.each(backends)('SIGKILL while a device import writes on %s', (backend) => {
  it('commits nothing of it, and leaves the database as it was', { timeout: 300_000 }, async () => {
    const templates = inject('templates');
    const dataDir = mkdtempSync(join(tmpdir(), 'iot-import-kill-'));
    if (backend === 'pglite') copyPglite(templates, dataDir);
    const pgdb = backend === 'postgres' ? await freshPostgres(templates.postgres) : undefined;
    const env: NodeJS.ProcessEnv = {
      ...process.env, DATA_DIR: dataDir, DATABASE_URL: pgdb?.url ?? '', MQTT_URL: '', PORT: String(await freePort()), MQTT_PORT: String(await freePort()), HOST: '127.0.0.1',
      SIMULATOR: 'off', SERVE_CONSOLE: '0', SKIP_CONSOLE_BUILD: '1', LOG_LEVEL: 'warn',
    };
    const file = join(dataDir, 'devices.xlsx');
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
    const sheet = book.addWorksheet('设备');
    sheet.addRow(['产品编号', '设备编号', '设备名称', 'IMEI', 'ICCID', '备注']).commit();
    for (let i = 0; i < COUNT; i++) sheet.addRow(['P-SW-485', `KILL-${String(i).padStart(6, '0')}`, `中断设备${i}`, '', '', '']).commit();
    sheet.commit();
    await book.commit();

    const post = async (url: string, path: string, body: unknown, token?: string) =>
      (await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) }, body: JSON.stringify(body) })).json();
    const login = async (url: string) => (await post(url, '/login', { userName: ADMIN.phone, password: ADMIN.password })).data.token as string;
    const upload = (url: string, token: string) => {
      const form = new FormData();
      form.append('progress', 'kill-import-test');
      return openAsBlob(file).then((blob) => {
        form.append('file', blob, 'devices.xlsx');
        return fetch(`${url}/biz/t-device/import`, { method: 'POST', headers: { authorization: token }, body: form }).then((r) => r.json());
      });
    };

    let server: ServerProcess | undefined;
    try {
      server = await startProcess(env);
      let token = await login(server.url);
      const before = await post(server.url, '/biz/t-device/total', {}, token);
      const live = await streamEvents<DeviceImportProgress>(server.url, token, 'deviceImport');
      const importing = upload(server.url, token).catch(() => null);
      // Killed a few batches into the write, once a device list was answered meanwhile.
      await until(async () => live.events.some((e) => e.phase === 'write' && e.written > 0), 120_000);
      expect((await post(server.url, '/biz/t-device/total', {}, token)).data).toEqual(before.data);
      const written = Math.max(...live.events.map((e) => e.written));
      expect(written).toBeLessThan(COUNT);
      server.child.kill('SIGKILL');
      await exited(server.child);
      expect(await importing).toBeNull();
      await live.stop();

      server = await startProcess(env);
      token = await login(server.url);
      const list = await post(server.url, '/biz/t-device/devices', { current: 1, size: 10, condition: { keyword: 'KILL-', select_type: 1 } }, token);
      expect(list.data.total).toBe(0);
      expect((await post(server.url, '/biz/t-device/total', {}, token)).data).toEqual(before.data);
      await stopProcess(server, 'SIGTERM');
      server = undefined;

      const database = await openDatabase(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: pgdb?.url ?? '', LOG_LEVEL: 'warn' }));
      try {
        const rows = async (text: string) => (await sql.raw(text).execute(database.db)).rows;
        expect(await rows(`select f_id from t_device where f_number like 'KILL-%'`)).toEqual([]);
        expect(await rows(`select rolname from pg_roles where rolname like 'iot_import%'`)).toEqual([]);
        expect(await rows(`select policyname from pg_policies where tablename in ('t_device', 't_user_device')`)).toEqual([]);
        expect(await rows(`select relname from pg_class where relname in ('t_device', 't_user_device') and relrowsecurity`)).toEqual([]);
        expect(await rows(`select tgname from pg_trigger where tgrelid = 't_device'::regclass and not tgisinternal and tgenabled = 'D'`)).toEqual([]);
        expect(await rows(`select proleakproof from pg_proc where oid = 'texticlike(text, text)'::regprocedure`)).toEqual([{ proleakproof: false }]);
      } finally {
        await database.close();
      }

      // The same file, imported again, goes in whole.
      server = await startProcess(env);
      token = await login(server.url);
      expect(await upload(server.url, token)).toMatchObject({ success: true, data: { total: COUNT, imported: COUNT } });
      expect((await post(server.url, '/biz/t-device/total', {}, token)).data.allCount).toBe(before.data.allCount + COUNT);
    } finally {
      if (server) await stopProcess(server);
      await pgdb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * Schema changes on a database full of rows, on embedded PGlite and on PostgreSQL: a temporary copy of
 * schemas/ and the migration history is changed, `gen` writes the migration, the runner applies it, and
 * the rows must have survived. Also: upgrading a database of the former scheme, one transaction per
 * migration, two servers migrating at once, and a server refusing a database that drifted.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, inject } from 'vitest';
import { loadConfig } from '../../server/config';
import { openDatabase, type Database } from '../../server/db';
import { migrate, MIGRATIONS } from '../../server/db/migrate';
import { assertNoDrift, readSnapshot, DriftError } from '../../server/db/snapshot';
import { write } from '../../generator/generate';
import { validatePendingConstraints } from '../../server/db/constraints';
import { MIGRATIONS_DIR, SNAPSHOT_DIR } from '../../generator/history';
import { backends, freshPostgres, type Backend } from './harness';
import { copyPglite } from './template';
import { workspace, edit, removeWorkspaces, ROOT } from '../unit/workspace';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function temp(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** An empty database (or the run's seeded one) of the backend, closed and removed after the test. */
async function open(backend: Backend, { seeded = false } = {}): Promise<{ database: Database; env: Record<string, string> }> {
  const dataDir = temp('iot-mig-db-');
  const templates = inject('templates');
  if (backend === 'pglite' && seeded) copyPglite(templates, dataDir);
  const pg = backend === 'postgres' ? await freshPostgres(seeded ? templates.postgres : undefined) : undefined;
  if (pg) cleanups.push(pg.drop);
  const env = { DATA_DIR: dataDir, DATABASE_URL: pg?.url ?? '', LOG_LEVEL: 'warn', SERVE_CONSOLE: '0' };
  const database = await openDatabase(loadConfig(env));
  let closed = false;
  const close = database.close;
  database.close = async () => {
    if (!closed) await close();
    closed = true;
  };
  cleanups.push(() => database.close());
  return { database, env };
}

const rows = async <T = any>(database: Database, text: string) => (await sql.raw(text).execute(database.db)).rows as T[];


describe.each(backends)('migrations on %s', (backend) => {
  it('a length change, a new enum value, a rename and a removal keep every row', async () => {
    const ws = workspace();
    cleanups.push(removeWorkspaces);
    const history = join(ws, MIGRATIONS_DIR);
    // The run's migrated database (making one from nothing is the template's work, and the next test's).
    const { database } = await open(backend, { seeded: true });
    expect(await migrate(database, history)).toEqual([]);
    await rows(database, `INSERT INTO t_product (f_number, f_name, f_power, f_number_rule, f_remark, f_protocol)
      SELECT 'P' || i, 'name ' || i, repeat('w', i % 40), 'rule-' || i, 'remark ' || i, 1 + i % 3 FROM generate_series(1, 3000) AS s(i)`);
    const before = await rows(database, 'SELECT f_id, f_name, f_power, f_number_rule FROM t_product ORDER BY f_id');
    expect(before.length).toBeGreaterThanOrEqual(3000);

    edit(ws, 'schemas/product.schema.json', (s) => {
      s.properties.fName.maxLength = 160;
      s.properties.fPower.maxLength = 10;
      s.properties.fPower['x-db'] = { narrowTo: 'varchar(10)' };
      s.properties.fProtocol.enum.push(4);
      const { fNumberRule, fRemark, ...rest } = s.properties;
      void fRemark;
      s.properties = { ...rest, fRule: { ...fNumberRule, 'x-db': { renamedFrom: 'fNumberRule' } } };
      s['x-db'].dropColumns = ['fRemark'];
    });
    edit(ws, 'schemas/enums.json', (e) => (e.protocol['4'] = { 'zh-CN': '其他', 'zh-TW': '其他', 'en-US': 'Other' }));
    edit(ws, 'resources/product.resource.json', (r) => (r.form.fields = r.form.fields.filter((f: string) => f !== 'fRemark').map((f: string) => (f === 'fNumberRule' ? 'fRule' : f))));
    const written = await write(ws);
    const migration = written.find((f) => /\/\d{3}_schema_t_product\.sql$/.test(f));
    expect(migration).toBeDefined();
    const name = migration!.split('/').pop()!;
    expect(readFileSync(join(ws, MIGRATIONS_DIR, name), 'utf8')).toContain('ALTER TABLE t_product RENAME COLUMN f_number_rule TO f_rule;');

    expect(await migrate(database, history)).toEqual([name]);
    const after = await rows(database, 'SELECT f_id, f_name, f_power, f_rule FROM t_product ORDER BY f_id');
    expect(after.length).toBe(before.length);
    after.forEach((row, i) => {
      expect(row.fId).toBe(before[i].fId);
      expect(row.fName).toBe(before[i].fName);
      expect(row.fPower).toBe(before[i].fPower?.slice(0, 10) ?? null);
      expect(row.fRule).toBe(before[i].fNumberRule);
    });
    expect(await rows(database, `SELECT column_name FROM information_schema.columns WHERE table_name = 't_product' AND column_name = 'f_remark'`)).toEqual([]);
    await rows(database, `INSERT INTO t_product (f_number, f_name, f_protocol) VALUES ('P-new', '${'长'.repeat(150)}', 4)`);
    // The database now matches the new snapshot, and nothing runs twice.
    await assertNoDrift(database.db, readSnapshot(join(ws, SNAPSHOT_DIR)));
    await expect(assertNoDrift(database.db)).rejects.toThrow(/t_product\.f_power is varchar\(10\) in the database, the schema has varchar\(50\)/);
    expect(await migrate(database, history)).toEqual([]);
  }, 360_000);

  it('foreign keys and checks: rows that break them are kept, new ones refused, validated once put right, dropped with their declaration', async () => {
    const ws = workspace();
    cleanups.push(removeWorkspaces);
    const history = join(ws, MIGRATIONS_DIR);
    const { database } = await open(backend, { seeded: true });
    expect(await migrate(database, history)).toEqual([]);
    // Rows written before the constraints: a lease of a user that does not exist, a house over the new limit.
    await rows(database, `INSERT INTO t_house_info (f_house_id, f_house_name, f_total_person) VALUES (9001, 'kept', 99), (9002, 'fine', 3)`);
    await rows(database, `INSERT INTO t_tenant_house (f_user_id, f_house_id, f_status) VALUES (987654, 9001, 1)`);

    edit(ws, 'schemas/tenantHouse.schema.json', (s) => (s.properties.fUserId['x-db'] = { references: { entity: 'user', onDelete: 'restrict' } }));
    edit(ws, 'schemas/house.schema.json', (s) => (s.properties.fTotalPerson.maximum = 50));
    const name = (await write(ws)).find((f) => /\/\d{3}_schema_t_house_info_t_tenant_house\.sql$/.test(f))!.split('/').pop()!;
    const text = readFileSync(join(history, name), 'utf8');
    expect(text).toContain('ALTER TABLE t_tenant_house ADD CONSTRAINT t_tenant_house_f_user_id_fkey FOREIGN KEY (f_user_id) REFERENCES t_sys_user(f_id) ON DELETE RESTRICT NOT VALID;');
    // A changed check is dropped and added again.
    expect(text).toContain('ALTER TABLE t_house_info DROP CONSTRAINT IF EXISTS t_house_info_f_total_person_check;');
    expect(text).toContain('CHECK (f_total_person >= 0 AND f_total_person <= 50) NOT VALID;');
    expect(await migrate(database, history)).toEqual([name]);
    await assertNoDrift(database.db, readSnapshot(join(ws, SNAPSHOT_DIR)));

    expect(await rows(database, `SELECT f_total_person FROM t_house_info WHERE f_house_id = 9001`)).toEqual([{ fTotalPerson: 99 }]);
    const validated = () => rows(database, `SELECT conname, convalidated FROM pg_constraint WHERE conname IN ('t_tenant_house_f_user_id_fkey', 't_house_info_f_total_person_check') ORDER BY 1`);
    expect(await validated()).toEqual([{ conname: 't_house_info_f_total_person_check', convalidated: false }, { conname: 't_tenant_house_f_user_id_fkey', convalidated: false }]);
    // Enforced for every row written since.
    await expect(rows(database, `INSERT INTO t_tenant_house (f_user_id, f_house_id, f_status) VALUES (987655, 9002, 1)`)).rejects.toMatchObject({ code: '23503' });
    await expect(rows(database, `UPDATE t_house_info SET f_total_person = 51 WHERE f_house_id = 9002`)).rejects.toMatchObject({ code: '23514' });
    expect(await validatePendingConstraints(database.db)).toHaveLength(2);
    await rows(database, `DELETE FROM t_tenant_house WHERE f_user_id = 987654`);
    await rows(database, `UPDATE t_house_info SET f_total_person = 50 WHERE f_house_id = 9001`);
    expect(await validatePendingConstraints(database.db)).toEqual([]);
    expect((await validated()).map((r) => r.convalidated)).toEqual([true, true]);

    // The drift check sees a constraint removed by hand, and one that differs.
    await rows(database, 'ALTER TABLE t_tenant_house DROP CONSTRAINT t_tenant_house_f_user_id_fkey');
    await rows(database, 'ALTER TABLE t_house_info DROP CONSTRAINT t_house_info_f_total_person_check');
    await rows(database, 'ALTER TABLE t_house_info ADD CONSTRAINT t_house_info_f_total_person_check CHECK (f_total_person >= 0 AND f_total_person <= 60)');
    const drift = await assertNoDrift(database.db, readSnapshot(join(ws, SNAPSHOT_DIR))).catch((e: DriftError) => e.differences);
    expect(drift).toEqual([
      expect.stringMatching(/t_house_info: check t_house_info_f_total_person_check is CHECK .*60.* in the database, the schema has CHECK \(f_total_person >= 0 AND f_total_person <= 50\)/),
      't_tenant_house: foreign key t_tenant_house_f_user_id_fkey (f_user_id) REFERENCES t_sys_user(f_id) ON DELETE RESTRICT does not exist',
    ]);
    await rows(database, 'ALTER TABLE t_house_info DROP CONSTRAINT t_house_info_f_total_person_check');
    await rows(database, 'ALTER TABLE t_house_info ADD CONSTRAINT t_house_info_f_total_person_check CHECK (f_total_person >= 0 AND f_total_person <= 50)');
    await rows(database, 'ALTER TABLE t_tenant_house ADD CONSTRAINT t_tenant_house_f_user_id_fkey FOREIGN KEY (f_user_id) REFERENCES t_sys_user(f_id) ON DELETE RESTRICT');

    // Removing the declaration drops the constraint.
    edit(ws, 'schemas/tenantHouse.schema.json', (s) => delete s.properties.fUserId['x-db']);
    const dropped = (await write(ws)).find((f) => /_schema_t_tenant_house\.sql$/.test(f))!;
    expect(readFileSync(join(history, dropped.split('/').pop()!), 'utf8')).toContain('ALTER TABLE t_tenant_house DROP CONSTRAINT IF EXISTS t_tenant_house_f_user_id_fkey;');
    await migrate(database, history);
    await assertNoDrift(database.db, readSnapshot(join(ws, SNAPSHOT_DIR)));
    await rows(database, `INSERT INTO t_tenant_house (f_user_id, f_house_id, f_status) VALUES (987656, 9002, 1)`);
  }, 240_000);

  it('upgrades a database created by the former scheme (generated DDL re-run on change) without touching its rows', async () => {
    const { database } = await open(backend);
    const former = temp('iot-mig-former-');
    // The former runner had the hand-written migrations numbered before the baseline, and ran each
    // entity's idempotent DDL, which the baseline is made of, recording it by entity.
    const baseline = readdirSync(MIGRATIONS).find((f) => f.includes('_schema_baseline'))!;
    const hand = readdirSync(MIGRATIONS).filter((f) => f < baseline);
    for (const f of hand) cpSync(join(MIGRATIONS, f), join(former, f));
    await migrate(database, former);
    await database.exec(readFileSync(join(MIGRATIONS, baseline), 'utf8'));
    await rows(database, `INSERT INTO schema_migrations (name, hash) VALUES ('generated/product.sql', 'x'), ('generated/device.sql', 'y')`);
    await rows(database, `INSERT INTO t_product (f_number, f_name) VALUES ('OLD-1', 'kept')`);

    expect(await migrate(database)).toEqual(readdirSync(MIGRATIONS).filter((f) => !hand.includes(f)).sort());
    expect(await rows(database, `SELECT name FROM schema_migrations WHERE name LIKE 'generated/%'`)).toEqual([]);
    expect(await rows(database, `SELECT f_name FROM t_product WHERE f_number = 'OLD-1'`)).toEqual([{ fName: 'kept' }]);
    await assertNoDrift(database.db);
  }, 120_000);

  it('the new-alarm message\'s unchanged default gets the default without a stray colon; an edited one is kept', async () => {
    const { database } = await open(backend);
    const before = temp('iot-mig-template-');
    for (const f of readdirSync(MIGRATIONS).filter((f) => f < '036_')) cpSync(join(MIGRATIONS, f), join(before, f));
    await migrate(database, before);
    const edited = '{house}于{time}发生{alarm}：{remark}，请民警尽快到场。';
    await rows(database, `INSERT INTO t_message_model (f_name, f_code, f_type_id, f_status, f_message) VALUES
      ('新报警提醒', 'alarm', 2, 1, '{house}于{time}发生{alarm}：{remark}。请及时处理。'), ('改过的', 'alarm', 2, 0, '${edited}')`);
    await migrate(database);
    expect(await rows(database, `SELECT f_name, f_message FROM t_message_model WHERE f_code = 'alarm' ORDER BY f_id`)).toEqual([
      { fName: '新报警提醒', fMessage: '{house}于{time}发生{alarm}{detail}。请及时处理。' },
      { fName: '改过的', fMessage: edited },
    ]);
  }, 120_000);

  it('runs each migration in its own transaction: a failing one leaves nothing of itself and stops the rest', async () => {
    const { database } = await open(backend);
    const dir = temp('iot-mig-tx-');
    writeFileSync(join(dir, '001_a.sql'), 'CREATE TABLE t_mig_a (id integer);\n');
    writeFileSync(join(dir, '002_b.sql'), 'CREATE TABLE t_mig_b (id integer);\nINSERT INTO t_mig_missing VALUES (1);\n');
    writeFileSync(join(dir, '003_c.sql'), 'CREATE TABLE t_mig_c (id integer);\n');
    await expect(migrate(database, dir)).rejects.toThrow(/migration 002_b\.sql failed \(nothing of it was applied\).*t_mig_missing/s);
    const tables = await rows(database, `SELECT table_name FROM information_schema.tables WHERE table_name LIKE 't_mig_%' ORDER BY 1`);
    expect(tables).toEqual([{ tableName: 't_mig_a' }]);
    expect(await rows(database, 'SELECT name FROM schema_migrations ORDER BY name')).toEqual([{ name: '001_a.sql' }]);
    // Fixed, it runs from where it stopped.
    writeFileSync(join(dir, '002_b.sql'), 'CREATE TABLE t_mig_b (id integer);\n');
    expect(await migrate(database, dir)).toEqual(['002_b.sql', '003_c.sql']);
  }, 360_000);

  it('the server refuses to start on a database that differs from the schemas, naming table and column', async () => {
    const { database, env } = await open(backend, { seeded: true });
    await assertNoDrift(database.db);
    await rows(database, 'ALTER TABLE t_feedback ALTER COLUMN f_phone TYPE varchar(30)');
    await rows(database, 'ALTER TABLE t_device ADD COLUMN f_extra integer');
    // Planner statistics are part of the schema too: ones made again differently, and ones nobody declared.
    await rows(database, 'DROP STATISTICS t_alarm_where_and_what');
    await rows(database, 'CREATE STATISTICS t_alarm_where_and_what (ndistinct) ON f_status, f_alarm_type FROM t_alarm');
    await rows(database, 'CREATE STATISTICS t_device_extra ON f_status, f_product_id FROM t_device');
    const drift = await assertNoDrift(database.db).catch((e) => e);
    expect(drift).toBeInstanceOf(DriftError);
    expect(drift.differences).toContain('t_alarm: statistics t_alarm_where_and_what are (ndistinct) on f_alarm_type, f_status in the database, the schema has (dependencies, mcv) on f_alarm_type, f_area_id, f_community_id, f_status, f_street_id');
    expect(drift.differences).toContain('t_device: statistics t_device_extra (ndistinct, dependencies, mcv) on f_product_id, f_status exist in the database but not in the schema of device');
    await database.close();
    const started = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env: { ...process.env, ...env, SEED: '0', PORT: '0', MQTT_PORT: '0' }, timeout: 120_000 }).then(
      () => ({ code: 0, stderr: '' }),
      (e) => ({ code: e.code as number, stderr: String(e.stderr) }),
    );
    expect(started.code).toBe(1);
    expect(started.stderr).toContain('the database does not match the schemas');
    expect(started.stderr).toContain('t_feedback.f_phone is varchar(30) in the database, the schema has varchar(20)');
    expect(started.stderr).toContain('t_device.f_extra (integer) exists in the database but not in the schema of device');
  }, 360_000);
});

describe.runIf(backends.includes('postgres'))('migrations on one PostgreSQL', () => {
  it('two servers starting at once: one migrates, the other waits and finds nothing to do', async () => {
    const first = await open('postgres');
    const second = await openDatabase(loadConfig(first.env));
    cleanups.push(() => second.close());
    const results = await Promise.all([migrate(first.database), migrate(second)]);
    const files = readdirSync(MIGRATIONS).sort();
    expect(results.map((r) => r.length).sort((a, b) => a - b)).toEqual([0, files.length]);
    expect((await rows(first.database, 'SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name)).toEqual(files);
    await assertNoDrift(second.db);
  }, 120_000);

  it('waits for another server migrating longer than the statement time-out, and migrates unbound by it', async () => {
    const first = await open('postgres');
    // A server whose calls may take 300 ms a statement, starting while another holds the migration lock for 1.5 s.
    const waiting = await openDatabase({ ...loadConfig(first.env), statementTimeoutMs: 300 });
    cleanups.push(() => waiting.close());
    const holder = await first.database.db.connection().execute(async (conn) => {
      await sql`SELECT pg_advisory_lock(4242)`.execute(conn);
      const migrating = migrate(waiting);
      await new Promise((r) => setTimeout(r, 1500));
      // A statement longer than the time-out inside a migration runs to its end too.
      const dir = temp('iot-mig-slow-');
      writeFileSync(join(dir, '001_slow.sql'), 'SELECT pg_sleep(0.6);\nCREATE TABLE slow_done (id int);\n');
      await sql`SELECT pg_advisory_unlock(4242)`.execute(conn);
      return { migrating, dir };
    });
    expect((await holder.migrating).length).toBe(readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')).length);
    expect(await migrate(waiting, holder.dir)).toEqual(['001_slow.sql']);
    // The connections go back to the pool with the calls' time-out.
    const shown = await Promise.all([1, 2, 3].map(() => sql<{ statementTimeout: string }>`SHOW statement_timeout`.execute(waiting.db)));
    expect(shown.map((r) => r.rows[0].statementTimeout)).toEqual(['300ms', '300ms', '300ms']);
    await expect(sql`SELECT pg_sleep(0.6)`.execute(waiting.db)).rejects.toThrow(/statement timeout/);
  }, 120_000);
});


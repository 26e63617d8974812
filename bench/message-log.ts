/**
 * The message log and the dashboard at the scale of a city: MESSAGES messages of DEVICES devices over 30
 * days (bench/message-log-data.ts), every filter of the records page (spec 000 §7) and every
 * /api/home/* call through the whole server (app.inject), each against the same page read with direct
 * SQL, side by side. Prints p95 per call and the ratio server / direct; the targets are absolute
 * (records ≤ 100 ms, dashboard ≤ 50 ms p95), the ratio shows what the server adds.
 *
 * PostgreSQL when DATABASE_URL is set (a database msglog_bench_<pid> is created and dropped; 10,000,000
 * messages by default), else PGlite in a temporary folder (200,000 by default). ROUNDS=30. KEEP=1 keeps
 * the PostgreSQL database and prints its name; REUSE=<that name> measures it again without building.
 * THROUGH_DEFAULT=1 loads every message into the default partition and lets the upkeep move them into
 * their days before measuring (bench/message-log-data.ts).
 */
import pg from 'pg';
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { createTokens } from '../server/auth/tokens';
import { buildApp } from '../server/app';
import { startDevices } from '../server/devices/start';
import { buildMessageLog, benchNumber } from './message-log-data';
import { databaseName, msText, recordResults } from './results';
import { migrate } from '../server/db/migrate';

const postgres = Boolean(process.env.DATABASE_URL);
const MESSAGES = Number(process.env.MESSAGES ?? (postgres ? 10_000_000 : 200_000));
const DEVICES = Number(process.env.DEVICES ?? Math.max(1000, MESSAGES / 10));
const ROUNDS = Number(process.env.ROUNDS ?? 30);

async function p95(rounds: number, run: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await run(i); // warm-up
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    await run(i);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.min(times.length - 1, Math.ceil(times.length * 0.95) - 1)];
}

let url: URL | undefined;
const reuse = postgres ? process.env.REUSE : undefined;
const keep = Boolean(reuse) || process.env.KEEP === '1';
const name = reuse ?? `msglog_bench_${process.pid}`;
const base = postgres ? new URL(process.env.DATABASE_URL!) : undefined;
if (base) {
  if (!reuse) {
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
  }
  url = new URL(base.toString());
  url.pathname = `/${name}`;
}
const dataDir = mkdtempSync(join(tmpdir(), 'iot-bench-'));
const config = { ...loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url?.toString() ?? '', LOG_LEVEL: 'error', SERVE_CONSOLE: '0' }), mqttPort: 0 };
const database = await openDatabase(config);
try {
  const started = Date.now();
  if (!reuse) await buildMessageLog(database, { devices: DEVICES, messages: MESSAGES, days: 30, throughDefault: process.env.THROUGH_DEFAULT === '1' });
  else await migrate(database); // what was added since it was built
  const { db } = database;
  console.log(`message log on ${database.kind}: ${MESSAGES} messages of ${DEVICES} devices, built in ${((Date.now() - started) / 1000).toFixed(0)} s; p95 of ${ROUNDS} calls`);

  const devices = await startDevices(config, db, { simulate: 'off' });
  const tokens = createTokens(new TextEncoder().encode('bench-secret-bench-secret-bench-secret'), 3600);
  const app = await buildApp({ config, database, tokens, live: devices.live });
  const login = await app.inject({ method: 'POST', url: '/login', payload: { userName: '13800000000', password: 'Admin@123' } });
  const token = login.json().data.token as string;
  const deviceIds = (await sql<{ id: number }>`select f_id as id from t_device where f_number like 'BENCH%' order by f_id limit 50`.execute(db)).rows.map((r) => r.id);
  const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toLocaleString('sv-SE', { timeZone: config.timeZone }).slice(0, 16);

  /** One records filter: its condition, and the SQL that reads the same page and count directly. */
  const filters: { label: string; condition: (i: number) => Record<string, unknown>; where: (i: number) => ReturnType<typeof sql> }[] = [
    { label: 'no filter', condition: () => ({}), where: () => sql`true` },
    { label: 'deviceId', condition: (i) => ({ deviceId: deviceIds[i % 50] }), where: (i) => sql`f_device_id = ${deviceIds[i % 50]}` },
    { label: 'deviceNumber', condition: (i) => ({ deviceNumber: benchNumber((i % 50) + 1) }), where: (i) => sql`f_device_number = ${benchNumber((i % 50) + 1)}` },
    { label: 'number (substring)', condition: (i) => ({ number: `H00${i % 10}12` }), where: (i) => sql`(f_device_number ilike ${`%H00${i % 10}12%`} or f_product_number ilike ${`%H00${i % 10}12%`})` },
    { label: 'content, rare (one message)', condition: (i) => ({ content: `"mid":${1000 + i * 7919},` }), where: (i) => sql`f_payload ilike ${`%"mid":${1000 + i * 7919},%`}` },
    // A device's serial in the payload: its prefix is in every payload, the rest in few.
    { label: "content, a device's ClientID", condition: (i) => ({ content: benchNumber(12345 + i * 7919) }), where: (i) => sql`f_payload ilike ${`%${benchNumber(12345 + i * 7919)}%`}` },
    { label: 'content, common (a tenth)', condition: () => ({ content: '"bid":"alarm"' }), where: () => sql`f_payload ilike '%"bid":"alarm"%'` },
    { label: 'type 2 (to devices)', condition: () => ({ type: 2 }), where: () => sql`f_direction = 'down'` },
    { label: 'type bid', condition: () => ({ type: 'switch' }), where: () => sql`f_bid = 'switch'` },
    { label: 'one day (begin, end)', condition: () => ({ beginTime: day(3), endTime: day(2) }), where: () => sql`f_intime >= ${day(3)}::timestamp and f_intime < ${day(2)}::timestamp + interval '1 minute'` },
    { label: 'device + content + range', condition: (i) => ({ deviceId: deviceIds[i % 50], content: 'voltage', beginTime: day(30), endTime: day(0) }), where: (i) => sql`f_device_id = ${deviceIds[i % 50]} and f_payload ilike '%voltage%' and f_intime >= ${day(30)}::timestamp` },
  ];
  // The unfiltered page's total is the planner's estimate past 10,000 rows: it must read close to the
  // rows there are, also after the upkeep moved a bulk load out of the default partition (whose dead
  // rows were once counted as well).
  const first = (await app.inject({ method: 'POST', url: '/biz/t-emq-message-publish/records', headers: { authorization: token }, payload: { current: 1, size: 10, condition: {} } })).json().data;
  const counted = Number((await sql<{ n: string }>`select count(*) as n from t_emq_message_publish`.execute(db)).rows[0].n);
  const off = (Number(first.total) / counted - 1) * 100;
  console.log(`  unfiltered total: ${first.estimated ? 'about ' : ''}${Number(first.total).toLocaleString('en')} for ${counted.toLocaleString('en')} rows (${off >= 0 ? '+' : ''}${off.toFixed(1)} %)`);
  const rows: [string, number, number][] = [];
  for (const f of filters) {
    const direct = await p95(ROUNDS, async (i) => {
      await sql`select * from t_emq_message_publish where ${f.where(i)} order by f_intime desc, f_id desc limit 10`.execute(db);
      await sql`select count(*) from (select 1 from t_emq_message_publish where ${f.where(i)} limit 10001) t`.execute(db);
    });
    const server = await p95(ROUNDS, async (i) => {
      const r = await app.inject({ method: 'POST', url: '/biz/t-emq-message-publish/records', headers: { authorization: token }, payload: { current: 1, size: 10, condition: f.condition(i) } });
      if (r.json().code !== 200) throw new Error(r.body);
    });
    rows.push([`records: ${f.label}`, server, direct]);
  }
  const home: { path: string; body?: unknown; direct: () => ReturnType<typeof sql> }[] = [
    { path: '/api/home/total-record', direct: () => sql`select sum(f_up + f_down) from t_message_count_hour where f_hour >= date_trunc('month', now())` },
    { path: '/api/home/total-record-month-count', direct: () => sql`select date_trunc('day', f_hour), sum(f_up), sum(f_down) from t_message_count_hour where f_hour >= date_trunc('month', now()) group by 1` },
    ...[0, 1, 2, 3].map((type) => ({
      path: '/api/home/total-record-more',
      body: { type },
      direct: () =>
        type === 0
          ? sql`select date_trunc('minute', f_minute), sum(f_up), sum(f_down) from t_message_count_minute where f_minute >= now() - interval '1 hour' group by 1`
          : sql`select date_trunc(${type === 3 ? 'day' : 'hour'}, f_hour), sum(f_up), sum(f_down) from t_message_count_hour where f_hour >= now() - ${['', '1 day', '7 days', '30 days'][type]}::interval group by 1`,
    })),
    // The device counters the triggers keep (migration 024), and the products they are shown by.
    { path: '/api/home/total-device', direct: () => sql`select c.f_type_id, p.f_device_type, sum(f_count) from t_device_count c left join t_product p on p.f_id = c.f_product_id group by 1, 2` },
    { path: '/api/home/total-device-online-more', direct: () => sql`select p.f_id, p.f_name, sum(f_count), sum(f_count) filter (where f_online = 1) from t_device_count c join t_product p on p.f_id = c.f_product_id group by 1, 2 order by 1` },
    { path: '/api/home/total-warn', direct: () => sql`select count(*) from t_device_alarm where f_intime >= date_trunc('month', now())` },
    { path: '/api/home/total-warn-month-count', direct: () => sql`select date_trunc('day', f_intime), count(*) from t_device_alarm where f_intime >= date_trunc('month', now()) group by 1` },
    { path: '/api/home/total-user', direct: () => sql`select f_admin, count(*) from t_sys_user group by 1` },
  ];
  for (const h of home) {
    const direct = await p95(ROUNDS, () => h.direct().execute(db));
    const server = await p95(ROUNDS, async () => {
      const r = await app.inject({ method: 'POST', url: h.path, headers: { authorization: token }, payload: h.body ?? {} });
      if (r.json().code !== 200) throw new Error(r.body);
    });
    rows.push([`${h.path}${h.body ? ` ${JSON.stringify(h.body)}` : ''}`, server, direct]);
  }
  for (const [label, server, direct] of rows) {
    console.log(`  ${label.padEnd(52)} server p95 ${server.toFixed(1).padStart(7)} ms   direct p95 ${direct.toFixed(1).padStart(7)} ms   ratio ${(server / direct).toFixed(2)}`);
  }
  // The target is each call's p95: the table keeps the slowest of each kind and names it.
  const slowest = (prefix: string) => rows.filter(([label]) => label.startsWith(prefix)).reduce((a, b) => (b[1] > a[1] ? b : a));
  const [records, dashboard] = [slowest('records:'), slowest('/api/home/')];
  const size = `${MESSAGES.toLocaleString('en')} messages`;
  recordResults('message-log', databaseName(database.kind), [
    { target: 'message log', what: `records page and total, slowest p95 of ${rows.filter(([l]) => l.startsWith('records:')).length} filters at ${size} (${records[0].slice(9)})`, measured: msText(records[1]), aim: '≤ 100 ms', met: records[1] <= 100 },
    { target: 'dashboard', what: `/api/home/* calls, slowest p95 at ${size} (${dashboard[0]})`, measured: msText(dashboard[1]), aim: '≤ 50 ms', met: dashboard[1] <= 50 },
  ]);
  await app.close();
  await devices.stop();
} finally {
  await database.close();
  if (base && keep) console.log(`kept database ${name} (REUSE=${name} measures it again)`);
  else if (base) {
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
}

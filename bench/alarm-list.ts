/**
 * The alarm list at scale: 1,000,000 alarms on PostgreSQL (built through the product's own migrations,
 * filled with generate_series in one statement), the door-lock list with its filters through the whole
 * HTTP stack against the same page read with direct SQL (rows, count, house, room, device and person
 * names), the two interleaved round by round. Prints ratios, not times. Needs DATABASE_URL (a fresh database is created and dropped).
 * `npm run bench` runs it after the device list; ALARMS=1000000 ROUNDS=30 by default. KEEP=1 keeps the
 * database and prints its name; REUSE=<that name> measures it again without building.
 */
import pg from 'pg';
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { migrate } from '../server/db/migrate';
import { syncMenus } from '../server/db/menus';
import { seedDemo } from '../server/db/seed';
import { createTokens } from '../server/auth/tokens';
import { buildApp } from '../server/app';
import { startDevices } from '../server/devices/start';
import { unbounded } from './message-log-data';
import { recordResults } from './results';

const ALARMS = Number(process.env.ALARMS ?? 1_000_000);
const ROUNDS = Number(process.env.ROUNDS ?? 30);
if (!process.env.DATABASE_URL) {
  console.log('alarm list benchmark: skipped (set DATABASE_URL to a PostgreSQL server)');
  process.exit(0);
}

async function time(label: string, rounds: number, run: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await run(i); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) await run(i);
  const ms = Number(process.hrtime.bigint() - start) / 1e6 / rounds;
  console.log(`  ${label.padEnd(52)} ${ms.toFixed(2)} ms/call`);
  return ms;
}

/**
 * Direct SQL and the server side by side: after a warm-up of each, one call of each per round, in turns,
 * so a change in the machine's load (other work on the 2 cores) falls on both alike. Mean times.
 */
async function compare(labels: [string, string], rounds: number, direct: (i: number) => Promise<unknown>, server: (i: number) => Promise<unknown>): Promise<[number, number]> {
  for (let i = 0; i < 5; i++) await direct(i), await server(i);
  let d = 0n;
  let s = 0n;
  for (let i = 0; i < rounds; i++) {
    let t = process.hrtime.bigint();
    await direct(i);
    d += process.hrtime.bigint() - t;
    t = process.hrtime.bigint();
    await server(i);
    s += process.hrtime.bigint() - t;
  }
  const times: [number, number] = [Number(d) / 1e6 / rounds, Number(s) / 1e6 / rounds];
  labels.forEach((label, k) => console.log(`  ${label.padEnd(52)} ${times[k].toFixed(2)} ms/call`));
  return times;
}

const base = new URL(process.env.DATABASE_URL);
const reuse = process.env.REUSE;
const name = reuse ?? `iot_bench_alarms_${process.pid}`;
const admin = new pg.Client({ connectionString: base.toString() });
await admin.connect();
if (!reuse) await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(base.toString());
url.pathname = `/${name}`;

const dataDir = mkdtempSync(join(tmpdir(), 'iot-bench-'));
const config = { ...loadConfig({ DATA_DIR: dataDir, DATABASE_URL: url.toString(), LOG_LEVEL: 'error', SERVE_CONSOLE: '0' }), mqttPort: 0 };
const database = await openDatabase(config);
try {
  await migrate(database);
  const { db } = database;
  const started = Date.now();
  if (!reuse) await fill();
  const [{ n }] = (await sql<{ n: number }>`select count(*)::int as n from t_alarm`.execute(db)).rows;
  console.log(`alarm list, ${n} alarms (filled in ${((Date.now() - started) / 1000).toFixed(0)} s), ${ROUNDS} calls each`);

  const devices = await startDevices(config, db, { simulate: 'off' });
  const tokens = createTokens(new TextEncoder().encode('bench-secret-bench-secret-bench-secret'), 3600);
  const app = await buildApp({ config, database, tokens, live: devices.live });
  const login = await app.inject({ method: 'POST', url: '/login', payload: { userName: '13800000000', password: 'Admin@123' } });
  const token = login.json().data.token as string;
  const streets = (await sql<{ id: number }>`select distinct f_street_id as id from t_alarm where f_street_id is not null order by 1`.execute(db)).rows.map((r) => r.id);
  const fmt = (d: Date) => d.toLocaleString('sv-SE', { timeZone: config.timeZone });
  const to = new Date();
  const from = new Date(to.getTime() - 30 * 86_400_000);
  // The door-lock list as the console asks for it: unsigned, last 30 days, one street, page 1 of 10.
  const condition = (i: number) => ({ alarm_type: [4, 3], status: 0, streetId: streets[i % streets.length], time_limit: [fmt(from), fmt(to)] });

  /** A page of alarms read directly: the rows, their count, and the houses, rooms, devices and people they name. */
  const directPage = async (where: ReturnType<typeof sql>) => {
    const rows = (await sql<Record<string, number>>`select * from t_alarm where ${where} order by f_alarm_time desc limit 10`.execute(db)).rows;
    await sql`select count(*) from t_alarm where ${where}`.execute(db);
    const ids = (k: string) => [...new Set(rows.map((r) => r[k]).filter((v) => v != null))];
    const any = (list: number[]) => (list.length ? list : [-1]);
    await sql`select * from t_house_info where f_house_id = any(${any(ids('fHouseId'))})`.execute(db);
    await sql`select * from t_rental_room where f_id = any(${any(ids('fRoomId'))})`.execute(db);
    await sql`select * from t_device where f_id = any(${any(ids('fDeviceId'))})`.execute(db);
    await sql`select f_id, f_chinese_name, f_phone from t_sys_user where f_id = any(${any([...ids('fUserAlarmId'), ...ids('fHandleUserId')])})`.execute(db);
  };
  const [direct, engine] = await compare(['direct SQL (page, count, house/room/device/people)', 'POST /biz/t-alarm/pageList (engine + HTTP)'], ROUNDS,
    async (i) => {
      const c = condition(i);
      await directPage(sql`f_alarm_type in (3, 4) and f_status = 0 and f_street_id = ${c.streetId} and f_alarm_time >= ${from} and f_alarm_time <= ${to}`);
    },
    async (i) => {
      const r = await app.inject({ method: 'POST', url: '/biz/t-alarm/pageList', headers: { authorization: token }, payload: { current: 1, size: 10, condition: condition(i) } });
      if (r.statusCode !== 200 || r.json().code !== 200) throw new Error(r.body);
    });
  const byHouse = await time('POST /biz/t-alarm/pageList (house name, all types)', ROUNDS, async (i) => {
    const r = await app.inject({ method: 'POST', url: '/biz/t-alarm/pageList', headers: { authorization: token }, payload: { current: 1, size: 10, condition: { house_name: ['石牌', '五山', '棠下', '北京', '农林'][i % 5] } } });
    if (r.statusCode !== 200 || r.json().code !== 200) throw new Error(r.body);
  });
  const summary = await time('POST /biz/t-alarm/alarmTypeCount (login summary)', ROUNDS, async () => {
    await app.inject({ method: 'POST', url: '/biz/t-alarm/alarmTypeCount', headers: { authorization: token }, payload: {} });
  });
  console.log(`ratios: engine / direct = ${(engine / direct).toFixed(2)}, house-name search / direct = ${(byHouse / direct).toFixed(2)}, summary / direct = ${(summary / direct).toFixed(2)}`);
  // The demo officer, in charge of one street (server/auth/jurisdiction.ts): the door-lock list as the
  // console first shows it (no filter: the scope narrows it) against the same page read directly.
  const officerToken = (await app.inject({ method: 'POST', url: '/login', payload: { userName: '13800000003', password: 'Officer@123' } })).json().data.token as string;
  const officerStreets = (await sql<{ streets: string }>`select streets from t_sys_user where f_phone = '13800000003'`.execute(db)).rows[0].streets.split(',').map(Number);
  const [officerDirect, officerList] = await compare(["direct SQL, the officer's streets (page, count, names)", 'POST /biz/t-alarm/pageList as the officer'], ROUNDS,
    () => directPage(sql`f_alarm_type in (3, 4) and f_street_id = any(${officerStreets}::int[])`),
    async () => {
      const r = await app.inject({ method: 'POST', url: '/biz/t-alarm/pageList', headers: { authorization: officerToken }, payload: { current: 1, size: 10, condition: { alarm_type: [4, 3] } } });
      if (r.statusCode !== 200 || r.json().code !== 200) throw new Error(r.body);
    });
  const officerSummary = await time("POST /biz/t-alarm/alarmTypeCount as the officer", ROUNDS, async () => {
    await app.inject({ method: 'POST', url: '/biz/t-alarm/alarmTypeCount', headers: { authorization: officerToken }, payload: {} });
  });
  console.log(`officer: direct / server = ${(officerDirect / officerList).toFixed(2)}; summary ${officerSummary.toFixed(1)} ms`);
  // Every other filter of the alarm lists (resources/alarm.resource.json) once through the server, as
  // the lists ask: each list is a few types, then a jurisdiction, a state, a device, a person or a text.
  const community = (await sql<{ id: number }>`select f_community_id as id from t_alarm where f_community_id is not null limit 1`.execute(db)).rows[0]?.id;
  const filters: [string, Record<string, unknown>, number?][] = [
    ['device alarms (types 1, 2, 5, 6)', { alarm_type: [1, 2, 5, 6] }],
    ['door-lock, every state and place', { alarm_type: [4, 3] }],
    ['door-lock, unsigned', { alarm_type: [4, 3], status: 0 }],
    ['door-lock, one community', { alarm_type: [4, 3], communityId: community }],
    ['door-lock, device type', { alarm_type: [4, 3], device_type: 2 }],
    ['one type (gathering)', { alarm_type_id: 14 }],
    ['one type, last 30 days', { alarm_type_id: 14, time_limit: [fmt(from), fmt(to)] }],
    ['keyword', { keyword: '压测报警 12345' }],
    ["one person's alarms", { value: (await sql<{ id: number }>`select f_user_alarm_id as id from t_alarm where f_user_alarm_id is not null limit 1`.execute(db)).rows[0]?.id }],
    ['door-lock, page 500', { alarm_type: [4, 3] }, 500],
  ];
  for (const [label, filter, current] of filters) {
    await time(`  ${label}`, 5, async () => {
      const r = await app.inject({ method: 'POST', url: '/biz/t-alarm/pageList', headers: { authorization: token }, payload: { current: current ?? 1, size: 10, condition: filter } });
      if (r.statusCode !== 200 || r.json().code !== 200) throw new Error(r.body);
    });
  }
  recordResults('alarm-list', 'PostgreSQL', [
    { target: 'lists', what: `door-lock alarm list with its filters, page 1, ${ALARMS.toLocaleString('en')} alarms: direct SQL time / server time`, measured: (direct / engine).toFixed(2), aim: '≥ 0.90', met: direct / engine >= 0.9 },
    { target: 'lists', what: `the same list in an officer's jurisdiction (one street), ${ALARMS.toLocaleString('en')} alarms: direct SQL time / server time; the officer's login summary`, measured: `${(officerDirect / officerList).toFixed(2)}; ${officerSummary.toFixed(1)} ms`, aim: '≥ 0.90', met: officerDirect / officerList >= 0.9 },
  ]);
  await app.close();
  await devices.stop();
} finally {
  await database.close();
  if (process.env.KEEP || reuse) console.log(`kept database ${name} (REUSE=${name} measures it again)`);
  else await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
  rmSync(dataDir, { recursive: true, force: true });
}

/** The demo's houses and devices, then ALARMS alarms over the last 60 days, analysed. */
async function fill() {
  await syncMenus(database.db);
  await seedDemo(database.db);
  const { db } = database;
  // Every alarm belongs to one of the demo's bound devices, over the last 60 days; 80 % are signed.
  await unbounded(db, (trx) => sql`
    INSERT INTO t_alarm (f_alarm_type, f_status, f_alarm_time, f_intime, f_remark, f_house_id, f_room_id, f_user_alarm_id,
                         f_device_id, f_device_type, f_area_id, f_street_id, f_community_id, f_handle_content, f_handle_user_id, f_handle_time)
    SELECT (ARRAY[1,2,3,4,5,6,11,13,14,15,17,18])[(1 + g * 7 % 12)::int],
           CASE WHEN g % 10 < 8 THEN 1 ELSE 0 END,
           now() - ((g * 7919) % 5184000) * interval '1 second',
           now() - ((g * 7919) % 5184000) * interval '1 second' + interval '5 seconds',
           '压测报警 ' || g, b.f_house_id, b.f_room_id, t.f_user_id, b.f_device_id, b.f_device_type,
           h.f_area_id, h.f_street_id, h.f_community_id,
           CASE WHEN g % 10 < 8 THEN '已处理' END, CASE WHEN g % 10 < 8 THEN 1 END,
           CASE WHEN g % 10 < 8 THEN now() - ((g * 7919) % 5184000) * interval '1 second' + interval '1 hour' END
    FROM generate_series(1::bigint, ${ALARMS - 400}::bigint) AS g
    JOIN (SELECT row_number() OVER (ORDER BY f_id) - 1 AS k, * FROM t_house_device) b ON b.k = g % (SELECT count(*) FROM t_house_device)
    JOIN t_house_info h ON h.f_house_id = b.f_house_id
    LEFT JOIN LATERAL (SELECT f_user_id FROM t_tenant_house WHERE f_house_id = b.f_house_id ORDER BY f_id LIMIT 1) t ON true`.execute(trx));
  await unbounded(db, (trx) => sql`ANALYZE`.execute(trx));
  // What autovacuum does after a bulk insert: with the visibility map set, a count reads its index alone.
  await sql`VACUUM t_alarm`.execute(db);
}

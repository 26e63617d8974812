/**
 * Load: CONNECTIONS clients (200) each calling the device list, then the product list, for SECONDS
 * (60) with autocannon, against the embedded PGlite and, when DATABASE_URL is set, PostgreSQL, in the
 * same run. The server runs as its own process, started as `npm start` starts it, so the load
 * generator does not share its event loop. Prints requests a second, p50/p99 latency, errors and
 * client time-outs (TIMEOUT, 10 s) per run; the aim for PGlite is no time-out and p99 under 1 s. The
 * calls accept compressed answers as the console's browser does (ENCODING).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { migrate } from '../server/db/migrate';
import { syncMenus } from '../server/db/menus';
import { seedDemo } from '../server/db/seed';
import { createTokens } from '../server/auth/tokens';
import { freePort, startProcess, stopProcess } from '../tests/api/processes';
import { recordResults } from './results';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 200);
const SECONDS = Number(process.env.SECONDS ?? 60);
const TIMEOUT = Number(process.env.TIMEOUT ?? 10);
const DEVICES = Number(process.env.DEVICES ?? 2000);
const SECRET = 'bench-secret-bench-secret-bench-secret';
/** What the console's browser accepts, so answers are compressed as they are for it (ENCODING= for none). */
const ENCODING = process.env.ENCODING ?? 'gzip, deflate, br, zstd';
const LISTS = [
  { name: 'device list', path: '/biz/t-device/devices' },
  { name: 'product list', path: '/biz/t-product/products' },
];

interface Figures { label: string; rps: number; p50: number; p99: number; errors: number; timeouts: number; non2xx: number }

/** The database the server will open: migrated, seeded, with DEVICES more devices. */
async function prepare(dataDir: string, databaseUrl: string) {
  const database = await openDatabase(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' }));
  try {
    await migrate(database);
    await syncMenus(database.db);
    await seedDemo(database.db);
    const product = await database.db.selectFrom('t_product').select('fId').executeTakeFirstOrThrow();
    for (let i = 0; i < DEVICES; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, DEVICES - i) }, (_, k) => ({ fNumber: `L${String(i + k).padStart(7, '0')}`, fName: `负载设备${i + k}`, fProductId: product.fId, fTypeId: 1, fUserId: 2, fStatus: 1 }));
      await database.db.insertInto('t_device').values(rows).execute();
    }
    const admin = await database.db.selectFrom('t_sys_user').select('fId').where('fPhone', '=', '13800000000').executeTakeFirstOrThrow();
    return admin.fId;
  } finally {
    await database.close();
  }
}

async function load(label: string, url: string, token: string): Promise<Figures> {
  const result = await autocannon({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: TIMEOUT,
    headers: { 'content-type': 'application/json', authorization: token, ...(ENCODING ? { 'accept-encoding': ENCODING } : {}) },
    body: JSON.stringify({ current: 1, size: 10, condition: {} }),
  });
  const f = { label, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, timeouts: result.timeouts, non2xx: result.non2xx };
  console.log(`  ${label.padEnd(34)} ${f.rps.toFixed(0).padStart(6)} req/s  p50 ${String(f.p50).padStart(5)} ms  p99 ${String(f.p99).padStart(5)} ms  errors ${f.errors}  time-outs ${f.timeouts}  non-2xx ${f.non2xx}`);
  return f;
}

async function run(kind: string, databaseUrl: string, env: NodeJS.ProcessEnv = {}): Promise<Figures[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'iot-load-'));
  const adminId = await prepare(dataDir, databaseUrl);
  const port = await freePort();
  const server = await startProcess({
    ...process.env, ...env,
    PORT: String(port), MQTT_PORT: String(await freePort()), DATA_DIR: dataDir, DATABASE_URL: databaseUrl, MQTT_URL: '',
    TOKEN_SECRET: SECRET, SIMULATOR: 'off', SEED: '0', SERVE_CONSOLE: '0', LOG_LEVEL: 'error',
  });
  const token = await createTokens(new TextEncoder().encode(SECRET), 3600).issue(adminId);
  const out: Figures[] = [];
  try {
    for (const list of LISTS) out.push(await load(`${kind}: ${list.name}`, server.url + list.path, token));
    recordResults('load', kind, out.map((f) => ({
      target: 'lists',
      what: `${f.label.slice(kind.length + 2)}, ${CONNECTIONS} clients for ${SECONDS} s: p99, time-outs, errors (${f.rps.toFixed(0)} req/s)`,
      measured: `${f.p99} ms, ${f.timeouts}, ${f.errors + f.non2xx}`,
      aim: 'p99 < 1 s, none, none',
      met: f.p99 < 1000 && !f.timeouts && !f.errors && !f.non2xx,
    })));
  } finally {
    await stopProcess(server, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

console.log(`load: ${CONNECTIONS} clients, ${SECONDS} s a list, client time-out ${TIMEOUT} s, ${DEVICES} extra devices; load average at start ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
await run('PGlite', '');
if (process.env.DATABASE_URL) {
  const name = `load_${process.pid}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  try {
    await run('PostgreSQL', url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
console.log(`load average at end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
process.exit(0);

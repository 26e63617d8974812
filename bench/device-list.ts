/**
 * How much the generic CRUD engine costs over a hand-written query: the device list (page 1, keyword
 * filter, product relation, row scope) through the whole HTTP stack, against the same rows read with
 * one direct query, on the same database in the same run. Prints ratios, not times: the machine's speed
 * cancels out. `npm run bench` (DEVICES=20000 ROUNDS=200 by default).
 */
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
import { keepStatistics } from '../server/db/pgliteUpkeep';
import { databaseName, recordResults } from './results';

const DEVICES = Number(process.env.DEVICES ?? 20000);
const ROUNDS = Number(process.env.ROUNDS ?? 200);

async function time(label: string, rounds: number, run: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 10; i++) await run(i); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) await run(i);
  const ms = Number(process.hrtime.bigint() - start) / 1e6 / rounds;
  console.log(`  ${label.padEnd(46)} ${ms.toFixed(2)} ms/call`);
  return ms;
}

const dataDir = mkdtempSync(join(tmpdir(), 'iot-bench-'));
const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'error', SERVE_CONSOLE: '0' }), mqttPort: 0 };
const database = await openDatabase(config);
await migrate(database);
await syncMenus(database.db);
await seedDemo(database.db);
const { db } = database;
const product = await db.selectFrom('t_product').select('fId').executeTakeFirstOrThrow();
for (let i = 0; i < DEVICES; i += 1000) {
  const rows = Array.from({ length: Math.min(1000, DEVICES - i) }, (_, k) => ({ fNumber: `B${String(i + k).padStart(7, '0')}`, fName: `压测设备${i + k}`, fProductId: product.fId, fTypeId: 1, fUserId: 2, fStatus: 1 }));
  await db.insertInto('t_device').values(rows).execute();
}
// What the server's upkeep does within its first minute (autovacuum's work, which PGlite lacks): the
// planner then knows the table it is asked about.
if (database.kind === 'pglite') await keepStatistics(db);
const devices = await startDevices(config, db, { simulate: 'off' });
const tokens = createTokens(new TextEncoder().encode('bench-secret-bench-secret-bench-secret'), 3600);
const app = await buildApp({ config, database, tokens, live: devices.live });
const login = await app.inject({ method: 'POST', url: '/login', payload: { userName: '13800000001', password: 'Agent@123' } });
const token = login.json().data.token as string;

console.log(`device list, ${DEVICES} devices, ${ROUNDS} calls each (the agent's scope, keyword filter, page 1 of 10)`);
const keyword = (i: number) => `压测设备${(i * 7919) % DEVICES}`;
const direct = await time('direct query (rows, product, count)', ROUNDS, async (i) => {
  const where = db.selectFrom('t_device').where('fUserId', '=', 2).where((eb) => eb.or([eb('fNumber', 'ilike', `%${keyword(i)}%`), eb('fName', 'ilike', `%${keyword(i)}%`)]));
  const rows = await where.selectAll().orderBy('fId', 'desc').limit(10).execute();
  await where.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst();
  const ids = [...new Set(rows.map((r) => r.fProductId))];
  if (ids.length) await db.selectFrom('t_product').selectAll().where('fId', 'in', ids).execute();
});
const engine = await time('POST /biz/t-device/devices (engine + HTTP)', ROUNDS, async (i) => {
  const r = await app.inject({ method: 'POST', url: '/biz/t-device/devices', headers: { authorization: token }, payload: { current: 1, size: 10, condition: { keyword: keyword(i) } } });
  if (r.statusCode !== 200) throw new Error(r.body);
});
const total = await time('POST /biz/t-device/total (counters)', ROUNDS, async () => {
  await app.inject({ method: 'POST', url: '/biz/t-device/total', headers: { authorization: token }, payload: {} });
});
console.log(`ratios: engine / direct = ${(engine / direct).toFixed(2)}, counters / direct = ${(total / direct).toFixed(2)}`);
recordResults('device-list', databaseName(database.kind), [
  { target: 'lists', what: `device list, agent's scope, keyword, page 1, ${DEVICES.toLocaleString('en')} devices: direct SQL time / server time`, measured: (direct / engine).toFixed(2), aim: '≥ 0.90', met: direct / engine >= 0.9 },
]);

await app.close();
await devices.stop();
await database.close();
rmSync(dataDir, { recursive: true, force: true });

/** `npm start`: the database, migrations, demo data, the console build if needed, then the server. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from './config';
import { openDatabase } from './db';
import { clockOf } from './db/clock';
import { migrate } from './db/migrate';
import { assertNoDrift, DriftError } from './db/snapshot';
import { validatePendingConstraints } from './db/constraints';
import { syncMenus } from './db/menus';
import { seedDemo, DEMO_ACCOUNTS } from './db/seed';
import { createTokens, loadSecret } from './auth/tokens';
import { buildApp, CONSOLE_DIR } from './app';
import { startDevices } from './devices/start';
import { startMessageLogUpkeep } from './devices/messageLogUpkeep';
import { startScheduler } from './devices/scheduler';
import { startEnergyRollup } from './devices/energy';
import { startPgliteUpkeep } from './db/pgliteUpkeep';

const ROOT = join(import.meta.dirname, '..');

function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

/** The console is built when dist/app is missing or older than its sources. */
function buildConsoleIfNeeded() {
  const index = join(CONSOLE_DIR, 'index.html');
  const sources = Math.max(newest(join(ROOT, 'app')), newest(join(ROOT, 'adapters')), newest(join(ROOT, 'contract')));
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  console.log('building the console (dist/app)…');
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the console build failed');
}

export async function start() {
  const config = loadConfig();
  if (config.serveConsole && process.env.SKIP_CONSOLE_BUILD !== '1') buildConsoleIfNeeded();
  const database = await openDatabase(config);
  const ran = await migrate(database);
  if (ran.length) console.log(`migrations applied: ${ran.join(', ')}`);
  // Queries are built from the schemas: on tables that differ from them they would fail one by one, later.
  await assertNoDrift(database.db).catch(async (error) => {
    await database.close();
    throw error;
  });
  for (const c of await validatePendingConstraints(database.db))
    console.warn(`constraint ${c.name} of ${c.table} is not validated: rows written before it break it (they are kept; correct or delete them and restart)`);
  await syncMenus(database.db);
  const seeded = config.seed ? await seedDemo(database.db) : false;
  // Sign-ins expire on the database's clock, whatever this host's own says.
  const clock = clockOf(database.db);
  await clock.sync();
  const tokens = createTokens(loadSecret(config.dataDir, process.env.TOKEN_SECRET), config.tokenTtl, clock.now);
  // The days ahead exist before the first message is stored.
  const messageLog = startMessageLogUpkeep(database.db, { retentionDays: config.messageRetentionDays });
  await messageLog.first;
  const devices = await startDevices(config, database.db, { simulate: process.env.SIMULATOR ?? 'demo' });
  const app = await buildApp({ config, database, tokens, live: devices.live });
  const scheduler = startScheduler({ db: database.db, live: devices.live, timeZone: config.timeZone, relay: app.relay });
  await app.listen({ port: config.port, host: config.host });
  const energy = startEnergyRollup(database.db, { timeZone: config.timeZone });
  const statistics = database.kind === 'pglite' ? startPgliteUpkeep(database.db) : null;

  console.log(`\nconsole and API: http://localhost:${config.port}  (database: ${database.kind === 'postgres' ? 'PostgreSQL' : `PGlite in ${config.dataDir}`})`);
  console.log(`MQTT broker: ${devices.url}${config.mqttUrl ? '' : ' (embedded)'}; simulated devices: ${devices.simulator?.devices.length ?? 0}`);
  if (seeded) {
    console.log('demo accounts:');
    for (const a of DEMO_ACCOUNTS) console.log(`  ${a.label.padEnd(14)} ${a.fPhone} / ${a.password}`);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: shutting down`);
    // Calls still arriving are told the server is restarting while the proxy takes it out of rotation;
    // the calls under way finish before the database closes.
    await app.refuseCalls(config.shutdownDrainMs);
    await app.close();
    await energy.stop();
    await statistics?.stop();
    await messageLog.stop();
    await scheduler.stop();
    await devices.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  return { app, database, config };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  start().catch((error) => {
    console.error(error instanceof DriftError ? error.message : error);
    process.exit(1);
  });
}

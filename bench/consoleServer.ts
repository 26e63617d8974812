/**
 * The console as `npm start` serves it, for the browser benchmarks: the built app (dist/app), the API on
 * a fresh PGlite database with the demo data, the embedded broker, no simulator. Builds the console
 * first when asked to or when there is no build.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { migrate } from '../server/db/migrate';
import { syncMenus } from '../server/db/menus';
import { seedDemo } from '../server/db/seed';
import { createTokens } from '../server/auth/tokens';
import { buildApp, CONSOLE_DIR } from '../server/app';
import { startDevices } from '../server/devices/start';

export const ROOT = join(import.meta.dirname, '..');
/** The flags of tests/e2e/playwright.config.ts. */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
export const ADMIN = { phone: '13800000000', password: 'Admin@123' };

/** `vite build` with a config (the console's by default), quietly. */
export function viteBuild(config?: string): void {
  const args = [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn', ...(config ? ['-c', config] : [])];
  const run = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`vite build ${config ?? ''} failed`);
}

export async function startConsole(port: number, { build = false } = {}) {
  if (build || !existsSync(join(CONSOLE_DIR, 'index.html'))) viteBuild();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-console-'));
  const config = { ...loadConfig({ DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' }), port, host: '127.0.0.1', mqttPort: port + 10000, mqttUrl: undefined };
  const database = await openDatabase(config);
  await migrate(database);
  await syncMenus(database.db);
  await seedDemo(database.db);
  const devices = await startDevices(config, database.db, { simulate: 'off' });
  const app = await buildApp({ config, database, tokens: createTokens(new TextEncoder().encode('bench-secret-bench-secret-bench-secret'), config.tokenTtl), live: devices.live });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await app.close();
      await devices.stop();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

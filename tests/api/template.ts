/**
 * Vitest global setup: one migrated and seeded database per backend, built once per run, that every
 * API test server starts from — a copy of the PGlite folder, or a PostgreSQL database created from a
 * template. Each test file still gets a fresh installation of its own, without paying for the
 * migrations and the demo seed again.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';
import { migrate } from '../../server/db/migrate';
import { syncMenus } from '../../server/db/menus';
import { seedDemo } from '../../server/db/seed';

export interface Templates {
  /** A DATA_DIR whose pg/ folder holds the seeded PGlite database. */
  pglite: string;
  /** The name of the seeded PostgreSQL template database, when DATABASE_URL is set. */
  postgres?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    templates: Templates;
  }
}

async function build(config: ReturnType<typeof loadConfig>) {
  const database = await openDatabase(config);
  await migrate(database);
  await syncMenus(database.db);
  await seedDemo(database.db);
  if (database.kind === 'pglite') {
    // Copies start analyzed, as a running server's upkeep leaves them (server/db/pgliteUpkeep.ts), so a
    // test server does not spend its first seconds on it.
    await database.exec('select pg_stat_force_next_flush()');
    await database.exec('vacuum analyze');
  }
  await database.close();
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  const env = { LOG_LEVEL: 'warn', SERVE_CONSOLE: '0' };
  const pglite = mkdtempSync(join(tmpdir(), 'iot-template-'));
  await build(loadConfig({ ...env, DATA_DIR: pglite, DATABASE_URL: '' }));
  let postgres: string | undefined;
  if (process.env.DATABASE_URL) {
    postgres = `iot_template_${process.pid}_${Date.now()}`;
    await admin((c) => c.query(`CREATE DATABASE ${postgres}`));
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${postgres}`;
    await build(loadConfig({ ...env, DATA_DIR: pglite, DATABASE_URL: url.toString() }));
  }
  project.provide('templates', { pglite, postgres });
  return async () => {
    rmSync(pglite, { recursive: true, force: true });
    if (postgres) await admin((c) => c.query(`DROP DATABASE IF EXISTS ${postgres} WITH (FORCE)`));
  };
}

/** Copies the seeded PGlite folder into a test's DATA_DIR. */
export function copyPglite(templates: Templates, dataDir: string) {
  cpSync(join(templates.pglite, 'pg'), join(dataDir, 'pg'), { recursive: true });
}

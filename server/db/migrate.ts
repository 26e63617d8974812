/**
 * Hand-written migrations (server/db/migrations/NNN_*.sql) run once each, in name order. Generated
 * migrations (server/generated/migrations/<entity>.sql) are idempotent DDL and run again whenever their
 * text changes, so editing a schema and restarting adds the new columns and indexes.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Database } from './index';
import { migrations as generated } from '../generated/entities';

const HAND = join(import.meta.dirname, 'migrations');
const GENERATED = join(import.meta.dirname, '..', 'generated', 'migrations');

export async function migrate(database: Database): Promise<string[]> {
  const { db } = database;
  await database.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, hash text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  // Several replicas may start together: one migrates at a time.
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(4242)`.execute(trx);
    const applied = new Map((await trx.selectFrom('schema_migrations').select(['name', 'hash']).execute()).map((r) => [r.name as string, r.hash as string]));
    const ran: string[] = [];
    const run = async (name: string, text: string, again: boolean) => {
      const hash = createHash('sha256').update(text).digest('hex');
      const prior = applied.get(name);
      if (prior === hash || (prior && !again)) return;
      for (const statement of splitStatements(text)) await sql.raw(statement).execute(trx);
      await trx.insertInto('schema_migrations').values({ name, hash }).onConflict((oc) => oc.column('name').doUpdateSet({ hash, appliedAt: new Date() })).execute();
      ran.push(name);
    };
    for (const file of readdirSync(HAND).filter((f) => f.endsWith('.sql')).sort()) await run(file, readFileSync(join(HAND, file), 'utf8'), false);
    for (const entity of generated) await run(`generated/${entity}.sql`, readFileSync(join(GENERATED, `${entity}.sql`), 'utf8'), true);
    return ran;
  });
}

/** Statements of a migration script: split on semicolons that end a line, comments dropped. */
function splitStatements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n')
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
}

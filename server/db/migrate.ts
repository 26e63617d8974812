/**
 * Migrations are one numbered history in server/db/migrations/: hand-written ones (NNN_name.sql) and the
 * ones `npm run gen` writes from schema changes (NNN_schema_*.sql) share the sequence, so a hand-written
 * migration can change a generated table and a generated one can build on a hand-written one. Each runs
 * once, in name order, in its own transaction, and is recorded in schema_migrations. A session advisory
 * lock lets one of several servers starting together migrate while the others wait.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Database } from './index';

export const MIGRATIONS = join(import.meta.dirname, 'migrations');
const LOCK = 4242;

export async function migrate(database: Pick<Database, 'db' | 'kind' | 'exec'>, dir = MIGRATIONS): Promise<string[]> {
  const files = readdirSync(dir).filter((f) => /^\d+_.*\.sql$/.test(f)).sort();
  return database.db.connection().execute(async (conn) => {
    // Neither the wait for another server's migrations nor a migration's own statements (an index built
    // over a million rows) is bound by the statement time-out of the console's calls; the connection
    // gets it back before it returns to the pool.
    if (database.kind === 'postgres') await sql`SET statement_timeout = 0`.execute(conn);
    const free = (await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(${sql.lit(LOCK)}) AS locked`.execute(conn)).rows[0].locked;
    if (!free) {
      console.log('migrations: another server is migrating this database; waiting for it to finish…');
      await sql`SELECT pg_advisory_lock(${sql.lit(LOCK)})`.execute(conn);
    }
    try {
      await sql`CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, hash text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`.execute(conn);
      // Rows of the former scheme, where each entity's DDL re-ran whenever it changed; the baseline
      // migration (the first NNN_schema_*.sql) now stands for them.
      await sql`DELETE FROM schema_migrations WHERE name LIKE 'generated/%'`.execute(conn);
      const applied = new Map((await conn.selectFrom('schema_migrations').select(['name', 'hash']).execute()).map((r) => [r.name as string, r.hash as string]));
      const ran: string[] = [];
      for (const name of files) {
        const text = readFileSync(join(dir, name), 'utf8');
        const hash = createHash('sha256').update(text).digest('hex');
        const prior = applied.get(name);
        if (prior !== undefined) {
          if (prior !== hash) console.warn(`migration ${name} changed after it was applied; it does not run again (write a new migration instead)`);
          continue;
        }
        await conn.transaction().execute(async (trx) => {
          for (const statement of splitStatements(text)) {
            try {
              await sql.raw(statement).execute(trx);
            } catch (e) {
              throw new Error(`migration ${name} failed (nothing of it was applied): ${(e as Error).message}\n  in: ${statement.slice(0, 300)}`);
            }
          }
          await trx.insertInto('schema_migrations').values({ name, hash }).execute();
        });
        ran.push(name);
      }
      return ran;
    } finally {
      await sql`SELECT pg_advisory_unlock(${sql.lit(LOCK)})`.execute(conn);
      if (database.kind === 'postgres') await sql`RESET statement_timeout`.execute(conn);
    }
  });
}

/**
 * Statements of a migration script: split on semicolons that end a line, comments dropped. A semicolon
 * inside a dollar-quoted body (a function, a DO block) does not end the statement.
 */
export function splitStatements(text: string): string[] {
  const script = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('--'))
    .join('\n');
  const out: string[] = [];
  let start = 0;
  let quote: string | null = null;
  // Dollar quotes ($$, $body$) and semicolons that end a line, in order of appearance.
  for (const m of script.matchAll(/\$[A-Za-z_]*\$|;[ \t]*(?=\n|$)/g)) {
    if (m[0].startsWith('$')) quote = quote === null ? m[0] : quote === m[0] ? null : quote;
    else if (quote === null) {
      out.push(script.slice(start, m.index));
      start = m.index + m[0].length;
    }
  }
  out.push(script.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

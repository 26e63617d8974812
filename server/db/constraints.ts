/**
 * Foreign keys and CHECKs the generated migrations add NOT VALID when rows written before them break them
 * (an orphan link, an out-of-range value): they hold for every row written since, and are validated here at
 * start once those rows are put right. The ones still waiting are named in the log, with the fix.
 */
import { sql } from 'kysely';
import type { DB } from './index';

export interface PendingConstraint {
  table: string;
  name: string;
}

/** Validates each NOT VALID constraint the rows now satisfy; answers those that still wait. */
export async function validatePendingConstraints(db: DB): Promise<PendingConstraint[]> {
  const pending = await sql<PendingConstraint>`
    SELECT t.relname AS table, c.conname AS name FROM pg_constraint c
    JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = current_schema() AND c.contype IN ('f', 'c') AND NOT c.convalidated ORDER BY 1, 2`.execute(db);
  const waiting: PendingConstraint[] = [];
  for (const c of pending.rows) {
    try {
      await sql.raw(`ALTER TABLE ${c.table} VALIDATE CONSTRAINT ${c.name}`).execute(db);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== '23503' && code !== '23514') throw error;
      waiting.push(c);
    }
  }
  return waiting;
}

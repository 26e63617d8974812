/**
 * What autovacuum does on PostgreSQL, for the embedded PGlite, which runs PostgreSQL in single-user mode
 * inside this process and so has no autovacuum. Without it the planner never has statistics: a table
 * that was never analyzed is sized by guess, so a keyword search on 100,000 devices reads every row
 * (a sequential scan or a backward walk of the primary key, 0.6–3 s) instead of using its trigram
 * indexes (6 ms); and rows updated again and again (a device's state) leave their dead versions behind
 * for ever.
 *
 * With autovacuum's default thresholds: a table is analyzed once more than 50 rows + 10 % of it changed
 * since its last ANALYZE, and vacuumed once more than 50 rows + 20 % of it are dead or more than 1,000
 * rows + 20 % of it were inserted since its last VACUUM — the vacuum also moves the rows waiting in a
 * trigram (GIN) index's pending list into the index proper, without which the planner prices the index
 * too dear to use. The first run, at start, does whatever the migrations and the demo data made due.
 */
import { sql } from 'kysely';
import type { DB } from '.';
import { periodic, type PeriodicJob } from '../periodic';

export const PGLITE_UPKEEP_MS = Number(process.env.PGLITE_UPKEEP_MS) || 60_000;

export interface UpkeepRun {
  analyzed: string[];
  vacuumed: string[];
}

/** Analyzes and vacuums the tables past autovacuum's thresholds; answers which. */
export async function keepStatistics(db: DB): Promise<UpkeepRun> {
  const { rows } = await sql<{ name: string; vacuum: boolean }>`
    select name, vacuum from (
      select s.relname as name,
        s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0) or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0) as vacuum,
        s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0) as due_analyze
      from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where c.relkind = 'r' and s.schemaname = current_schema()) due
    where vacuum or due_analyze order by 1`.execute(db);
  const run: UpkeepRun = { analyzed: [], vacuumed: [] };
  for (const r of rows) {
    // One table a statement, so requests waiting for the one connection get it in between.
    await sql`${sql.raw(r.vacuum ? 'vacuum analyze' : 'analyze')} ${sql.id(r.name)}`.execute(db);
    run.analyzed.push(r.name);
    if (r.vacuum) run.vacuumed.push(r.name);
  }
  return run;
}

export function startPgliteUpkeep(db: DB, intervalMs = PGLITE_UPKEEP_MS): PeriodicJob<UpkeepRun> {
  return periodic('embedded database statistics', () => keepStatistics(db), intervalMs);
}

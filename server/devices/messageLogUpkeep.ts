/**
 * Upkeep of the message log's partitions (t_emq_message_publish, one partition per calendar day of the
 * server's time zone, migration 021): the days ahead are created before messages arrive, rows that fell
 * into the default partition (a day not created yet, the rows of the table before it was partitioned,
 * a row written with an old time) are moved into their day — the default partition then vacuumed and
 * the days analyzed, so the planner's estimates stay true — and days older than the retention are
 * dropped whole, which frees their space at once and costs no DELETE over millions of rows.
 *
 * Several replicas may run it at the same moment: each change is one transaction under an advisory
 * lock that re-reads the catalogue after taking it, so a day is created or dropped once. DDL waits for
 * its lock at most LOCK_TIMEOUT; a run that gives up is simply repeated at the next interval.
 *
 * The dashboard's roll-ups are not touched: its history outlives the log's retention (docs/performance.md).
 */
import { sql } from 'kysely';
import type { DB } from '../db';
import { periodic, type PeriodicJob } from '../periodic';

export const MESSAGE_LOG = 't_emq_message_publish';
const DEFAULT_PARTITION = `${MESSAGE_LOG}_default`;
const PREFIX = `${MESSAGE_LOG}_p`;
/** Keeps replicas from changing the partitions at the same time. */
const LOCK_KEY = 4244;
/** Days created ahead of today, so a server that was down for a while still finds its day. */
export const DAYS_AHEAD = 7;
const LOCK_TIMEOUT = '2s';
export const UPKEEP_INTERVAL_MS = Number(process.env.MESSAGE_LOG_UPKEEP_MS) || 3_600_000;

export interface UpkeepOptions {
  /** Days of messages kept; 0 keeps them all. */
  retentionDays: number;
  /** The present (tests move it); the server's clock otherwise. */
  now?: Date;
}

export interface UpkeepResult {
  created: string[];
  dropped: string[];
  /** Rows moved out of the default partition into their day. */
  moved: number;
  /** Rows of the default partition older than the retention, deleted. */
  expired: number;
}

/** The partition of one day: t_emq_message_publish_p20261123. */
export const partitionName = (day: string) => PREFIX + day.replaceAll('-', '');

/** The day partitions that exist, as YYYY-MM-DD, oldest first. */
export async function messageLogDays(db: DB): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${MESSAGE_LOG}::regclass and c.relname like ${PREFIX + '%'} order by 1`.execute(db);
  return rows.rows.map((r) => r.name.slice(PREFIX.length).replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3'));
}

export async function keepMessageLog(db: DB, options: UpkeepOptions): Promise<UpkeepResult> {
  const result: UpkeepResult = { created: [], dropped: [], moved: 0, expired: 0 };
  const now = (options.now ?? new Date()).toISOString();
  // Calendar days in the session's time zone (the server's TZ), as the dashboard counts them.
  const today = (await sql<{ d: string }>`select to_char(${now}::timestamptz, 'YYYY-MM-DD') as d`.execute(db)).rows[0].d;
  const cutoff = options.retentionDays > 0 ? addDays(today, -options.retentionDays + 1) : null;

  if (cutoff) {
    // Rows waiting in the default partition that are already past the retention are not worth a day.
    result.expired = await locked(db, async (trx) =>
      Number((await sql`delete from ${sql.table(DEFAULT_PARTITION)} where f_intime < ${cutoff}::timestamp::timestamptz`.execute(trx)).numAffectedRows ?? 0),
    );
  }
  const waiting = (
    await sql<{ d: string }>`select distinct to_char(f_intime, 'YYYY-MM-DD') as d from ${sql.table(DEFAULT_PARTITION)}`.execute(db)
  ).rows.map((r) => r.d);
  const wanted = new Set([...Array.from({ length: DAYS_AHEAD + 1 }, (_, i) => addDays(today, i)), ...waiting]);
  const filled: string[] = [];
  for (const day of [...wanted].sort()) {
    const made = await createMessageLogDay(db, day);
    if (made) {
      result.created.push(made.name);
      result.moved += made.rows;
      if (made.rows) filled.push(made.name);
    }
  }
  if (result.moved || result.expired) await settleMoved(db, filled);
  if (cutoff) {
    for (const day of await messageLogDays(db)) {
      if (day >= cutoff) break;
      const gone = await locked(db, async (trx) => {
        if (!(await messageLogDays(trx)).includes(day)) return false;
        await sql`drop table ${sql.table(partitionName(day))}`.execute(trx);
        return true;
      });
      if (gone) result.dropped.push(partitionName(day));
    }
  }
  return result;
}

/** Creates the partition of one day (YYYY-MM-DD) unless it exists; answers it and the rows moved into it. */
export async function createMessageLogDay(db: DB, day: string): Promise<{ name: string; rows: number } | null> {
  return locked(db, async (trx) => {
    if ((await messageLogDays(trx)).includes(day)) return null;
    const name = partitionName(day);
    // DDL takes no parameters: the bounds are literals (dates this module computed, never input).
    const from = sql`${sql.lit(day)}::timestamp::timestamptz`;
    const to = sql`${sql.lit(addDays(day, 1))}::timestamp::timestamptz`;
    const inDefault = sql`${sql.table(DEFAULT_PARTITION)} where f_intime >= ${from} and f_intime < ${to}`;
    const rows = Number((await sql<{ n: number }>`select count(*) as n from ${inDefault}`.execute(trx)).rows[0].n);
    if (!rows) {
      await sql`create table ${sql.table(name)} partition of ${sql.table(MESSAGE_LOG)} for values from (${from}) to (${to})`.execute(trx);
      return { name, rows };
    }
    // A day cannot be created while the default partition holds rows of it: they move first, as they
    // are (ids and times kept, not counted again by the dashboard's roll-ups), however long a day of a
    // bulk load takes to move.
    await sql`set local statement_timeout = 0`.execute(trx);
    await sql`create table ${sql.table(name)} (like ${sql.table(MESSAGE_LOG)} including defaults)`.execute(trx);
    await sql`insert into ${sql.table(name)} select * from ${inDefault}`.execute(trx);
    await sql`delete from ${inDefault}`.execute(trx);
    await sql`alter table ${sql.table(MESSAGE_LOG)} attach partition ${sql.table(name)} for values from (${from}) to (${to})`.execute(trx);
    return { name, rows };
  });
}

/**
 * After rows left the default partition, the planner would go on counting them there: its pages stay
 * as large, full of dead rows (9,720,011 after a 10,000,000-row load), and the days that took them were
 * never measured, so an unfiltered records page read 19,739,852 "about" for 10,000,000 and slowed to
 * 113–125 ms. The default partition is vacuumed (dead rows gone, its empty pages given back) and it and
 * the days that took rows are analyzed, each a statement of its own outside any transaction (VACUUM
 * takes none), so the estimate is the rows there are again.
 */
async function settleMoved(db: DB, filled: string[]): Promise<void> {
  await db.connection().execute(async (conn) => {
    // Millions of rows take longer than a call's statement may (STATEMENT_TIMEOUT_MS).
    await sql`set statement_timeout = 0`.execute(conn);
    try {
      await sql`vacuum (analyze) ${sql.table(DEFAULT_PARTITION)}`.execute(conn);
      for (const name of filled) await sql`analyze ${sql.table(name)}`.execute(conn);
    } finally {
      await sql`reset statement_timeout`.execute(conn);
    }
  });
}

/** One change to the partitions: a transaction under the upkeep's lock, DDL waiting LOCK_TIMEOUT at most. */
async function locked<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(LOCK_KEY)})`.execute(trx);
    await sql`set local lock_timeout = ${sql.lit(LOCK_TIMEOUT)}`.execute(trx);
    return work(trx);
  });
}

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The upkeep of a server process: once at start, then every interval. */
export function startMessageLogUpkeep(db: DB, options: UpkeepOptions & { intervalMs?: number }): PeriodicJob<UpkeepResult> {
  return periodic('message log upkeep', () => keepMessageLog(db, options), options.intervalMs ?? UPKEEP_INTERVAL_MS);
}

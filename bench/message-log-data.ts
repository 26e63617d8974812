/**
 * Data for the message-log benchmark at the scale of a city: DEVICES devices and MESSAGES messages over
 * the last DAYS days, built through the product's own migrations and demo seed, then filled with
 * INSERT … SELECT generate_series in chunks, counted for the dashboard by the migration's
 * t_message_count_rebuild and ANALYZEd.
 *
 * As any bulk load does, the log's secondary indexes are dropped while it fills and built again from
 * their own definitions afterwards (one sort per index instead of millions of index insertions); the
 * day partitions are created first by the product's upkeep, so rows land in their days directly — or,
 * with `throughDefault`, none is: every row lands in the default partition, as a bulk load of old
 * messages or a log from before partitioning does, and the product's upkeep then moves them into their
 * days (and vacuums and analyzes what it touched) as it would on its next round.
 */
import { sql } from 'kysely';
import type { Database } from '../server/db';
import { migrate } from '../server/db/migrate';
import { syncMenus } from '../server/db/menus';
import { seedDemo } from '../server/db/seed';
import { createMessageLogDay, keepMessageLog, MESSAGE_LOG } from '../server/devices/messageLogUpkeep';

export interface MessageLogSize {
  devices: number;
  messages: number;
  days: number;
  throughDefault?: boolean;
}

/** Payload kinds by share: most messages are telemetry, a few are alarms and acknowledgements. */
export const BIDS = ['telemetry', 'telemetry', 'telemetry', 'telemetry', 'telemetry', 'telemetry', 'telemetry', 'switch', 'alarm', 'refresh'];
/** Bench device numbers: BENCH0000001 … */
export const benchNumber = (i: number) => `BENCH${String(i).padStart(7, '0')}`;

const CHUNK = 1_000_000;

export async function messageLogRows(database: Database): Promise<number> {
  const r = await sql<{ n: number }>`select coalesce(sum(c.reltuples), 0)::bigint as n from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = ${MESSAGE_LOG}::regclass`.execute(database.db);
  return Number(r.rows[0].n);
}

export async function buildMessageLog(database: Database, size: MessageLogSize, log = console.log): Promise<void> {
  const { db } = database;
  const started = Date.now();
  const step = (what: string) => log(`  ${what} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  await migrate(database);
  await syncMenus(db);
  await seedDemo(db);
  const [{ product }] = (await sql<{ product: number }>`select min(f_id) as product from t_product`.execute(db)).rows;
  await unbounded(db, (trx) => sql`
    insert into t_device (f_number, f_name, f_product_id, f_type_id, f_user_id, f_status, f_verify, t_online, f_intime)
    select 'BENCH' || lpad(g::text, 7, '0'), '压测设备' || g, ${product}, 1 + g % 6, case when g % 100 = 0 then 2 else 1 end, 1, 1, (g % 3 = 0)::int, now()
    from generate_series(1, ${size.devices}) g`.execute(trx));
  step(`${size.devices} devices`);

  const today = (await sql<{ d: string }>`select to_char(now(), 'YYYY-MM-DD') as d`.execute(db)).rows[0].d;
  for (let i = size.days; i >= 0 && !size.throughDefault; i--) {
    const d = new Date(`${today}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - i);
    await createMessageLogDay(db, d.toISOString().slice(0, 10));
  }
  const indexes = (
    await sql<{ name: string; def: string }>`
      select i.relname as name, pg_get_indexdef(i.oid) as def
      from pg_index x join pg_class i on i.oid = x.indexrelid
      where x.indrelid = ${MESSAGE_LOG}::regclass and not x.indisprimary`.execute(db)
  ).rows;
  for (const i of indexes) await sql`drop index ${sql.table(i.name)}`.execute(db);
  // Counted once at the end (t_message_count_rebuild) rather than chunk by chunk by the trigger.
  await sql`alter table ${sql.table(MESSAGE_LOG)} disable trigger t_emq_message_publish_count`.execute(db);

  const [{ first }] = (await sql<{ first: number }>`select min(f_id) as first from t_device where f_number like 'BENCH%'`.execute(db)).rows;
  const seconds = size.days * 86400;
  for (let from = 0; from < size.messages; from += CHUNK) {
    const to = Math.min(from + CHUNK, size.messages);
    // Message g: device g * 7919 mod DEVICES (spread over every device), time spread over DAYS days up
    // to now, direction down for every fifth, payloads as the simulator's devices write them.
    await unbounded(db, (trx) => sql`
      insert into t_emq_message_publish (f_device_id, f_device_number, f_product_number, f_direction, f_topic, f_bid, f_payload, f_intime)
      select ${first}::int + k, 'BENCH' || lpad((k + 1)::text, 7, '0'), 'P-BENCH',
             case when g % 5 = 0 then 'down' else 'up' end,
             'dev/P-BENCH/BENCH' || lpad((k + 1)::text, 7, '0') || case when g % 5 = 0 then '/down' else '/up' end,
             b, '{"bid":"' || b || '","mid":' || g || ',"ClientID":"BENCH' || lpad((k + 1)::text, 7, '0') || '","voltage":' || (200 + g % 40) || ',"current":' || (g % 97) || '}',
             now() - ((g * 104729) % ${seconds}) * interval '1 second'
      from generate_series(${from + 1}::bigint, ${to}::bigint) g,
           lateral (select ((g * 7919) % ${size.devices})::int as k, (${sql.val(BIDS)}::text[])[1 + (g % ${BIDS.length})::int] as b) x`.execute(trx));
    step(`${to} messages`);
  }
  for (const i of indexes) {
    // A partitioned index reads "ON ONLY" in its definition, which would build nothing on the partitions.
    await unbounded(db, (trx) => sql.raw(i.def.replace(" ON ONLY ", " ON ")).execute(trx));
    step(`index ${i.name}`);
  }
  await sql`alter table ${sql.table(MESSAGE_LOG)} enable trigger t_emq_message_publish_count`.execute(db);
  await unbounded(db, (trx) => sql`select t_message_count_rebuild(now() - ${size.days + 1} * interval '1 day', now())`.execute(trx));
  step('dashboard roll-ups');
  await unbounded(db, (trx) => sql`analyze`.execute(trx));
  step('analyzed');
  if (size.throughDefault) {
    const moved = await keepMessageLog(db, { retentionDays: 180 });
    step(`upkeep: ${moved.moved} rows moved out of the default partition into ${moved.created.length} days`);
  }
}

/** A bulk statement runs past the server's statement timeout, which guards requests, not loads. */
export function unbounded<T>(db: Database['db'], work: (trx: Database['db']) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local statement_timeout = 0`.execute(trx);
    return work(trx);
  });
}

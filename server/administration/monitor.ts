/**
 * The system monitor and the database monitor (spec 002 §2.17): figures of this server process, its
 * HTTP calls, database pool and MQTT connection, and of the database (sizes, rows, slowest statements,
 * connections). For administrators only, whatever role holds the page's code.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { Forbidden } from '../http/envelope';
import { isAdmin, type User } from '../crud/types';
import type { Database } from '../db';
import type { ServerMetrics } from '../monitor/metrics';
import { systemLoad } from '../monitor/load';
import type { IntakeAlarm, IntakeWatch } from '../monitor/intake';
import type { DB } from '../db';
import { reason, textOf } from '../http/envelope';
import { sendMessage } from '../platform';

/** Distinct from the other advisory locks (server/devices/leader.ts and the ones it names). */
const INTAKE_ALARM_LOCK = 4247;
/** An installation's administrators hear of the intake at most this often, however many replicas watch it. */
const INTAKE_ALARM_QUIET_MINUTES = 5;

/**
 * Tells every active administrator, in the message centre, that device messages were dropped or that storing
 * them falls behind — once for the installation: each replica sees the same broker, so the first to take
 * the lock writes the message and the others find it written.
 */
export async function tellAdministrators(db: DB, alarm: IntakeAlarm): Promise<void> {
  const what = alarm.kind === 'dropped' ? textOf(reason('intake.dropped', { count: alarm.count })) : textOf(reason('intake.lagging', { seconds: alarm.seconds, limit: alarm.limit }));
  console.warn(`device messages: ${what}`);
  await db.transaction().execute(async (trx) => {
    const { rows: [lock] } = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${INTAKE_ALARM_LOCK}) as ok`.execute(trx);
    if (!lock.ok) return;
    const recent = await trx.selectFrom('t_message').select('fId').where('fKind', '=', 'intake').where(sql<boolean>`f_create_time > now() - make_interval(mins => ${INTAKE_ALARM_QUIET_MINUTES})`).limit(1).execute();
    if (recent.length) return;
    const users = await trx.selectFrom('t_sys_user').select('fId').where('fAdmin', '=', 1).where('fStatus', '=', 1).execute();
    await sendMessage(trx, { userIds: users.map((u) => u.fId as number), kind: 'intake', params: { what, time: new Date() } });
  });
}

/** Tables up to this size are counted exactly; larger ones show the planner's estimate. */
const EXACT_COUNT_BYTES = 64 * 1024 * 1024;
const SLOWEST = 20;

function adminOnly(user: User | null) {
  if (!user || !isAdmin(user)) throw new Forbidden();
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

async function rows<T>(database: Database, text: string): Promise<T[]> {
  return (await sql.raw(text).execute(database.db)).rows as T[];
}

/** pg_stat_statements when the server has it loaded; otherwise null and the server's own timings are used. */
async function statementStats(database: Database) {
  try {
    const installed = await rows(database, `select 1 from pg_extension where extname = 'pg_stat_statements'`);
    if (!installed.length) return null;
    const list = await rows<Record<string, unknown>>(
      database,
      `select query, calls, total_exec_time as total, mean_exec_time as mean, max_exec_time as max, rows
       from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
       order by mean_exec_time desc limit ${SLOWEST}`,
    );
    const r2 = (v: unknown) => Math.round(num(v) * 100) / 100;
    return list.map((r) => ({ query: String(r.query), calls: num(r.calls), totalMs: r2(r.total), meanMs: r2(r.mean), maxMs: r2(r.max), rows: num(r.rows) }));
  } catch {
    // Created but not in shared_preload_libraries: the view exists and refuses to be read.
    return null;
  }
}

export async function databaseFigures(database: Database) {
  const [info] = await rows<Record<string, unknown>>(database, `select current_database() as name, pg_database_size(current_database()) as size, version() as version`);
  const tables = await rows<Record<string, unknown>>(
    database,
    // Each size is read from the files once: the total is the table's and its indexes' (as
    // pg_total_relation_size adds them), and the order takes the total already worked out. On PGlite,
    // whose file reads are slow, this halves the call.
    `select *, tablesize + indexes as total from (
       select c.relname as name, c.reltuples as estimate, pg_table_size(c.oid) as tablesize, pg_relation_size(c.oid) as data,
              pg_indexes_size(c.oid) as indexes, s.seq_scan as seq, s.idx_scan as idx, s.n_tup_ins as ins, s.n_tup_upd as upd, s.n_tup_del as del
       from pg_class c join pg_namespace n on n.oid = c.relnamespace left join pg_stat_user_tables s on s.relid = c.oid
       where c.relkind = 'r' and n.nspname = current_schema()) t
     order by total desc, name`,
  );
  // The small tables are counted exactly, all in one statement (one round trip, not one per table).
  // Names come from the catalog, quoted as identifiers.
  const small = tables.filter((t) => num(t.total) <= EXACT_COUNT_BYTES).map((t) => String(t.name));
  const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const exactCounts = new Map(
    small.length
      ? (await rows<{ name: string; n: number }>(database, small.map((name) => `select '${name.replace(/'/g, "''")}' as name, count(*) as n from ${quoted(name)}`).join(' union all '))).map((r) => [r.name, num(r.n)])
      : [],
  );
  const counted = tables.map((t) => {
    const name = String(t.name);
    const exact = exactCounts.get(name);
    return {
      name,
      rows: exact ?? Math.max(0, Math.round(num(t.estimate))),
      exact: exact !== undefined,
      totalBytes: num(t.total), dataBytes: num(t.data), indexBytes: num(t.indexes), seqScans: num(t.seq), indexScans: num(t.idx), inserted: num(t.ins), updated: num(t.upd), deleted: num(t.del),
    };
  });
  const connections = await rows<Record<string, unknown>>(database, `select coalesce(state, 'background') as state, count(*) as n from pg_stat_activity where datname = current_database() group by 1 order by 2 desc`).catch(() => []);
  const [limits] = await rows<{ max: string }>(database, `select current_setting('max_connections') as max`).catch(() => [{ max: '1' }]);
  const [cache] = await rows<Record<string, unknown>>(database, `select blks_hit as hit, blks_read as read, xact_commit as commits, xact_rollback as rollbacks from pg_stat_database where datname = current_database()`).catch(() => [{} as Record<string, unknown>]);
  const fromServer = await statementStats(database);
  const hit = num(cache?.hit);
  const read = num(cache?.read);
  return {
    kind: database.kind,
    name: String(info.name),
    version: String(info.version).split(' on ')[0],
    sizeBytes: num(info.size),
    cacheHitRatio: hit + read ? Math.round((hit / (hit + read)) * 10000) / 100 : null,
    commits: num(cache?.commits),
    rollbacks: num(cache?.rollbacks),
    tables: counted,
    connections: { max: Number(limits.max), byState: connections.map((c) => ({ state: String(c.state), count: num(c.n) })), pool: database.pool() },
    statements: { source: fromServer ? 'pg_stat_statements' : 'server', list: fromServer ?? database.queries.slowest(SLOWEST) },
  };
}

export function registerMonitorRoutes(app: FastifyInstance, ctx: RouteContext, database: Database, metrics: ServerMetrics, intake: IntakeWatch) {
  registerCall(app, ctx, {
    call: 'monitor.system',
    tag: 'monitor',
    handler: async ({ user }) => {
      adminOnly(user);
      return {
        at: new Date().toISOString(),
        process: { ...(await systemLoad()), memory: process.memoryUsage(), node: process.version, pid: process.pid },
        eventLoop: metrics.eventLoop(),
        http: metrics.http(),
        database: { kind: database.kind, pool: database.pool(), statements: database.queries.statements },
        mqtt: { state: ctx.live.state, ...metrics.mqtt() },
        broker: intake.broker(),
        intake: intake.intake(),
      };
    },
  });

  registerCall(app, ctx, {
    call: 'monitor.database',
    tag: 'monitor',
    handler: async ({ user }) => {
      adminOnly(user);
      return databaseFigures(database);
    },
  });
}

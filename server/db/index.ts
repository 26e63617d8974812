/**
 * The database: embedded PGlite in DATA_DIR by default, PostgreSQL when DATABASE_URL is set. One SQL
 * dialect everywhere. Property names (fDeviceId) map to columns (f_device_id) through CamelCasePlugin.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely';
import type { Config } from '../config';
import { QueryStats } from './queryStats';
import { watchReachability } from './reachability';
import { onlyReads, watchDiskSpace } from './diskSpace';
import type { Lending, Lent, PGliteDialect } from './pglite';

// The tables are declared by the schemas and hand-written migrations; queries are built from the
// generated entity models at run time, so the query builder is not typed per table.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DB = Kysely<any>;

/** The embedded databases: one connection, so their statements run one at a time whatever is asked. */
const oneAtATime = new WeakMap<DB, PGliteDialect>();
/** Whether statements sent side by side would only wait for each other (the embedded database). */
export const runsOneAtATime = (db: DB) => oneAtATime.has(db);
/**
 * On the embedded database, lets others' reads run beside the caller's open transaction until it ends the
 * lending (`Lending`, server/db/pglite.ts); undefined on PostgreSQL, where they run beside it anyway.
 */
export const lender = (db: DB): ((lending: Lending) => Lent) | undefined => {
  const dialect = oneAtATime.get(db);
  return dialect && ((lending) => dialect.lend(lending));
};

export interface Database {
  db: DB;
  /** Runs a script of several statements (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Calls back with the payload of every NOTIFY on the channel, from any replica; answers how to stop.
   * The channel name is the caller's constant, never user input.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  kind: 'pglite' | 'postgres';
  /** Whether the database answers now (server/db/reachability.ts); the embedded one always does. */
  reachable(): boolean;
  /** Every statement's count and time since start (the database monitor's slowest statements). */
  queries: QueryStats;
  /** The connection pool's figures (PostgreSQL); PGlite is one connection inside this process. */
  pool(): { total: number; idle: number; waiting: number; max: number } | null;
}

const plugins = [new CamelCasePlugin()];

/** The server notices a silent client after 10 s + 3 × 5 s instead of the system's default two hours. */
export const SERVER_KEEPALIVE = '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3';

interface Bounded {
  unbounded: boolean;
}

/**
 * The pool's client: each statement is given up `deadlineMs` after it was sent when no answer came (the
 * server unreachable), except on a session that lifted its statement_timeout (a migration, the message
 * log's upkeep), whose statements may run for as long as they need until the connection is handed back.
 */
function boundedClient(pg: typeof import('pg').default, deadlineMs: number): typeof import('pg').default.Client {
  const UNBOUND = /^\s*set\s+(local\s+)?statement_timeout\s*(=|to)\s*0\b/i;
  const REBOUND = /^\s*(reset\s+statement_timeout|set\s+(local\s+)?statement_timeout\s*(=|to)\s*'?[1-9])/i;
  return class extends pg.Client implements Bounded {
    unbounded = false;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    override query(...args: any[]): any {
      const [config, ...rest] = args;
      const text = typeof config === 'string' ? config : config?.text;
      if (typeof text === 'string') {
        if (UNBOUND.test(text)) this.unbounded = true;
        else if (REBOUND.test(text)) this.unbounded = false;
      }
      const send = super.query.bind(this) as (...a: unknown[]) => unknown;
      const deadline = { query_timeout: this.unbounded ? 0 : deadlineMs };
      // A prepared Query object (pg's own, `submit`) or a config naming its own deadline passes as it is.
      if (typeof config === 'string') return send({ text: config, ...deadline }, ...rest);
      if (config && typeof config === 'object' && typeof config.submit !== 'function' && config.query_timeout === undefined) return send({ ...config, ...deadline }, ...rest);
      return send(...args);
    }
  } as typeof pg.Client;
}

export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) {
    const pg = await import('pg');
    // Dates come back as Date objects; bigint counts (count(*)) as numbers rather than strings.
    pg.default.types.setTypeParser(20, (v: string) => Number(v));
    // A statement that gets no answer at all (the server cut off) ends a little after the server's own
    // statement_timeout would have ended it (see boundedClient), and a connection that cannot be opened —
    // or a call that waits that long for one of the ten — fails in seconds rather than minutes.
    const pool = new pg.default.Pool({
      connectionString: config.databaseUrl, max: 10, Client: boundedClient(pg.default, config.statementTimeoutMs + 5000),
      // The server's side ends a connection whose replica went silent (a partition) in about 25 s, aborting
      // what it had open, so nothing it sent before being cut off is applied when the network heals.
      options: `-c TimeZone=${config.timeZone} -c statement_timeout=${config.statementTimeoutMs} ${SERVER_KEEPALIVE}`,
      keepAlive: true, connectionTimeoutMillis: 10_000,
    });
    pool.on('release', (_error, client) => ((client as unknown as Bounded).unbounded = false));
    // An idle connection that the server drops (a restart, a terminated backend) must not end the
    // process: the pool replaces it on the next query.
    pool.on('error', (error) => console.warn(`postgres: ${error.message}`));
    // Nor one that breaks while a call holds it (the server ended it after a partition, seen when the
    // network heals): the pool listens only to idle connections, and an unheard 'error' ends the process.
    // The call's own query fails with the error and the connection is not reused.
    pool.on('connect', (client) => client.on('error', (error) => console.warn(`postgres: ${error.message}`)));
    await pool.query('select 1');
    const queries = new QueryStats();
    const db = new Kysely({ dialect: new PostgresDialect({ pool }), plugins, log: queries.log });
    const reachability = watchReachability(config.databaseUrl);
    return {
      db,
      kind: 'postgres',
      queries,
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 }),
      exec: async (sql) => void (await pool.query(sql)),
      listen: (channel, onPayload) => listenPostgres(pg.default, config.databaseUrl!, channel, onPayload),
      reachable: reachability.reachable,
      close: async () => {
        await reachability.stop();
        await db.destroy();
      },
    };
  }
  const { PGliteDialect, openPGlite } = await import('./pglite');
  const dir = join(config.dataDir, 'pg');
  mkdirSync(dir, { recursive: true });
  // After a crash (SIGKILL, power loss) PGlite replays its write-ahead log and opens as usual; what it
  // cannot open is a damaged folder, and then the way back is the copy taken while the server was stopped.
  const client = await openPGlite(dir, {
    parsers: { 20: (v: string) => Number(v) },
  }).catch((error: Error) => {
    throw new Error(
      `the embedded database in ${dir} could not be opened: ${error.message}\n` +
        `  Is another server running on DATA_DIR=${config.dataDir}? Stop it and start again. If it still fails, move ${dir} ` +
        `aside and put back the copy of it taken while the server was stopped (README, "Backups").`,
    );
  });
  await client.exec(`SET TIME ZONE '${config.timeZone.replace(/'/g, '')}'`);
  const queries = new QueryStats();
  const space = watchDiskSpace(dir, config.diskReserveBytes);
  const dialect = new PGliteDialect(client, space);
  const db = new Kysely({ dialect, plugins, log: queries.log });
  oneAtATime.set(db, dialect);
  return {
    db,
    kind: 'pglite',
    queries,
    pool: () => null,
    reachable: () => true,
    exec: async (sql) => {
      if (!onlyReads(sql)) space.checkWrite();
      await client.exec(sql);
    },
    listen: async (channel, onPayload) => {
      const stop = await client.listen(channel, onPayload);
      return async () => void (await stop());
    },
    close: () => db.destroy(),
  };
}

/** Wait before listening again after the listening connection dropped (a server restart). */
const RELISTEN_MS = 3000;

/** A connection of its own that holds LISTEN (a pooled one would be handed back), reconnected when it drops. */
async function listenPostgres(pg: typeof import('pg').default, url: string, channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
  let client: InstanceType<typeof pg.Client> | null = null;
  let stopped = false;
  const retry = () =>
    setTimeout(() => {
      if (!stopped) void connect().catch((e: Error) => (console.warn(`postgres listener: ${e.message}`), retry()));
    }, RELISTEN_MS).unref();
  const connect = async () => {
    const c = new pg.Client({ connectionString: url });
    c.on('notification', (n) => {
      if (n.channel === channel && n.payload) onPayload(n.payload);
    });
    c.on('error', (error) => console.warn(`postgres listener: ${error.message}`));
    c.on('end', () => {
      if (!stopped && client === c) retry();
    });
    await c.connect();
    await c.query(`LISTEN ${channel}`);
    client = c;
  };
  await connect();
  return async () => {
    stopped = true;
    await client?.end().catch(() => undefined);
  };
}

/**
 * Which replica stores the devices' `up` messages: one at a time, so a device's messages are stored in the
 * order the broker delivers them, through one MQTT session that every replica of the installation opens
 * with the same client id (persistent, plain subscription). While no replica holds that session — the
 * broker restarting, the leader killed — the broker queues for it, and whichever replica holds it next
 * receives what was queued (docs/mqtt.md, "One replica ingests").
 *
 * On PostgreSQL the leader is the replica that holds a session-level advisory lock on a connection of its
 * own; the others try to take it every POLL_MS. The lock lives as long as that database session, so a
 * leader killed, or cut off from the database, loses it and another replica takes over. The leader checks
 * its connection on every poll and stops ingesting at once when it fails: it may no longer hold the lock.
 * On PGlite the one process always leads, and so does a server with its own embedded broker.
 */
import pg from 'pg';
import { SERVER_KEEPALIVE } from '../db';

/** Distinct from the other advisory locks (migrations 4242, energy 4243, message log 4244). */
export const LOCK_KEY = 4245;
/**
 * The ingest's writes fence: each write transaction of the leader takes it shared and checks, in the
 * same transaction, that its lock session still holds LOCK_KEY (server/devices/ingest.ts). A new leader
 * takes it exclusively once before it starts, so it waits for any write of the previous leader still
 * open — one sent just before that leader was cut off — and no such write can land after its own.
 */
export const FENCE_KEY = 4246;
const POLL_MS = 2000;
/**
 * A check of the lock's connection that takes longer than this counts as a broken connection. Shorter than
 * the database's own verdict on a silent client (LOCK_SESSION's keepalives, about 25 s), so the leader
 * stops before the lock can pass to another replica, and long enough that a process stalled for a few
 * seconds by a busy machine (its timer firing before it reads the answer) does not give up a sound lock.
 */
const CHECK_TIMEOUT_MS = 15_000;
/**
 * The database's side of the lock's connection: a leader cut off without a word (a network partition)
 * keeps the lock until the server notices, which its TCP keepalive does in about 25 s with these
 * settings instead of the system's default two hours. Named so that it shows in pg_stat_activity.
 */
const LOCK_SESSION = { application_name: 'iot-console ingest lock', options: SERVER_KEEPALIVE };

/** Ends ingesting: `drain` finishes the batch under way first (a clean stop), otherwise it stops at once. */
export type StopIngest = (options: { drain: boolean }) => Promise<void>;

/** What `lead` answers: how to stop, and when ingesting is under way (connected, or given up waiting). */
export interface Ingesting {
  stop: StopIngest;
  ready: Promise<unknown>;
}

export interface Leadership {
  /** Settles once the first attempt to lead is done (and, when it led, ingesting is under way). */
  readonly first: Promise<void>;
  /** Stops ingesting (finishing the batch under way) and releases the lock, so another replica takes over. */
  stop(): Promise<void>;
}

/**
 * Calls `lead` whenever this replica becomes the leader — with the lock session's backend pid, the fence
 * its writes check (none on PGlite) — and what it answers when it stops being one.
 */
export function startLeadership(databaseUrl: string | undefined, lead: (fence?: number) => Ingesting, log: (line: string) => void = console.log): Leadership {
  if (!databaseUrl) {
    const { stop, ready } = lead();
    return { first: ready.then(() => undefined, () => undefined), stop: () => stop({ drain: true }) };
  }

  let client: pg.Client | undefined;
  let stopIngest: StopIngest | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> = Promise.resolve();

  /** Stops ingesting, if it did, and ends the lock's connection, which frees the lock. */
  const release = async (drain: boolean) => {
    const [stop, c] = [stopIngest, client];
    [stopIngest, client] = [undefined, undefined];
    await stop?.({ drain });
    await c?.end().catch(() => undefined);
  };
  const stepDown = async (why: string) => {
    if (stopIngest) log(`device messages: this replica no longer ingests (${why})`);
    await release(false);
  };

  const poll = async () => {
    try {
      if (!client) {
        const c = new pg.Client({ connectionString: databaseUrl, ...LOCK_SESSION, keepAlive: true, connectionTimeoutMillis: CHECK_TIMEOUT_MS, query_timeout: CHECK_TIMEOUT_MS });
        // A connection that breaks takes the lock with it: stop at once rather than at the next poll.
        c.on('error', (error) => void (client === c && stepDown(`database connection: ${error.message}`)));
        c.on('end', () => void (client === c && stepDown('database connection ended')));
        client = c;
        await c.connect();
      }
      if (stopIngest) await client.query('select 1');
      else if ((await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [LOCK_KEY])).rows[0].ok && !stopped) {
        // Whatever the previous leader still has open ends (commits or is aborted) before this one writes.
        const { pid } = (await client.query<{ pid: number }>('select pg_backend_pid() as pid, pg_advisory_lock($1), pg_advisory_unlock($1)', [FENCE_KEY])).rows[0];
        log('device messages: this replica ingests');
        const ingesting = lead(pid);
        stopIngest = ingesting.stop;
        await ingesting.ready.catch(() => undefined);
      }
    } catch (error) {
      await stepDown((error as Error).message);
    }
  };

  const schedule = () => {
    if (stopped) return;
    tick = poll().finally(() => {
      if (!stopped) timer = setTimeout(schedule, POLL_MS);
    });
  };
  schedule();
  const first = tick;

  return {
    first,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await tick;
      // The batch is stored and acknowledged before the lock goes, so the next leader starts after it.
      await release(true);
    },
  };
}

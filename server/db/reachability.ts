/**
 * Whether this replica reaches its PostgreSQL server now. A replica cut off from it (a network partition)
 * gets no error, only silence: each call would wait on the pool until the TCP stack gave up, minutes
 * later, while the other replicas could have answered. A connection of its own asks the server every
 * second. Two answers in a row that take longer than TIMEOUT_MS (the second asked at once) mark the
 * database unreachable until one comes back. Only the time this process was running counts towards the
 * wait (`silence`): a pause of its own (a long computation holding its event loop, a machine too busy to
 * run it) is not the network's silence, and the answer that came in meanwhile is read when it runs again.
 * While unreachable, every call is refused with 503 before anything of it runs (server/app.ts), which a
 * reverse proxy may send to another replica without applying a write twice. Its own connection, because
 * a busy pool (a large ingest batch) is no sign of a lost server.
 */
import pg from 'pg';

const EVERY_MS = 1000;
/** Longer than a busy machine's answer, short enough that few calls wait on a lost server. */
const TIMEOUT_MS = 2500;
/** Failed probes in a row that make the verdict. */
const CONFIRM = 2;

/** The steps in which the wait is counted; a step that took longer (the process paused) counts as this much. */
const STEP_MS = 100;

/**
 * Rejects once `ms` of this process's running time have passed: a step of the timer counts for at most
 * twice STEP_MS however late it fires. `done()` stops it.
 */
function silence(ms: number): { heard: Promise<never>; done: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const heard = new Promise<never>((_, reject) => {
    let waited = 0;
    let last = performance.now();
    const step = () => {
      // Answered between the timer and its setImmediate: nothing more to count.
      if (done) return;
      const now = performance.now();
      waited += Math.min(now - last, 2 * STEP_MS);
      last = now;
      if (waited >= ms) reject(new Error(`no answer in ${ms} ms`));
      // setImmediate first: an answer already read in this turn of the loop settles the race before the check.
      else timer = setTimeout(() => setImmediate(step), STEP_MS);
    };
    timer = setTimeout(() => setImmediate(step), STEP_MS);
  });
  heard.catch(() => undefined);
  return {
    heard,
    done: () => {
      done = true;
      clearTimeout(timer);
    },
  };
}

export interface Reachability {
  reachable(): boolean;
  stop(): Promise<void>;
}

export function watchReachability(connectionString: string, log: (line: string) => void = console.warn): Reachability {
  let reachable = true;
  let client: pg.Client | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let probing: Promise<void> = Promise.resolve();
  let failures = 0;

  const verdict = (ok: boolean, why?: string) => {
    if (ok !== reachable) log(ok ? 'database: reachable again' : `database: unreachable (${why}); calls are refused with 503 until it answers`);
    reachable = ok;
  };
  const answered = async <T>(asked: Promise<T>): Promise<T> => {
    const wait = silence(TIMEOUT_MS);
    try {
      return await Promise.race([asked, wait.heard]);
    } finally {
      wait.done();
    }
  };
  const probe = async () => {
    try {
      if (!client) {
        const c = new pg.Client({ connectionString, keepAlive: true, application_name: 'iot-console reachability' });
        c.on('error', () => undefined);
        client = c;
        await answered(c.connect());
      }
      await answered(client.query('select 1'));
      failures = 0;
      verdict(true);
    } catch (error) {
      if (++failures >= CONFIRM) verdict(false, (error as Error).message);
      const c = client;
      client = undefined;
      // A silent connection may never end by itself: not waited for.
      void c?.end().catch(() => undefined);
    }
  };
  const schedule = () => {
    if (stopped) return;
    probing = probe().finally(() => {
      // A failure is confirmed (or not) at once.
      if (!stopped) timer = setTimeout(schedule, failures && failures < CONFIRM ? 0 : EVERY_MS);
    });
  };
  timer = setTimeout(schedule, EVERY_MS);
  return {
    reachable: () => reachable,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await probing;
      await client?.end().catch(() => undefined);
    },
  };
}

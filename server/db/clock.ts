/**
 * The installation's clock is the database's. Several replicas each have their own clock, and one may run
 * minutes ahead or behind (a host whose time service failed): times that decide something — when a
 * sign-in expires, when a timer fires, when an account lapses — are read on the database's clock, so
 * every replica decides alike. Each replica measures how far its clock is from the database's (half a
 * round trip's error) and adds that to its own; measured again at most a minute later, or when asked.
 */
import { sql, type Kysely } from 'kysely';

/** How old the measured offset may grow before it is measured again. */
const RESYNC_MS = 60_000;

export interface Clock {
  /** The database's time now, in milliseconds since 1970. */
  now(): number;
  /** Measures the offset again now. */
  sync(): Promise<void>;
}

const clocks = new WeakMap<object, Clock>();

/** The clock of a database handle: one per handle, shared by everything that uses it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function clockOf(db: Kysely<any>): Clock {
  let clock = clocks.get(db);
  if (clock) return clock;
  let offset = 0;
  let measuredAt = -Infinity;
  let measuring: Promise<void> | undefined;
  const sync = () =>
    (measuring ??= (async () => {
      const before = Date.now();
      const { rows } = await sql<{ now: Date }>`select now() as now`.execute(db);
      const after = Date.now();
      offset = new Date(rows[0].now).getTime() - (before + after) / 2;
      measuredAt = performance.now();
    })().finally(() => (measuring = undefined)));
  clock = {
    now() {
      if (performance.now() - measuredAt > RESYNC_MS) void sync().catch(() => undefined);
      return Date.now() + offset;
    },
    sync,
  };
  clocks.set(db, clock);
  return clock;
}

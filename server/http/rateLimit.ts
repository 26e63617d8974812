/**
 * The store of the per-minute call limits (the login limits, server/http/route.ts `perMinute` and
 * `perAccountPerMinute`), kept in the database: with several replicas behind one address, a client
 * spreading its guesses over them still meets one count. One upsert per limited call, which also starts a new window once the old one
 * is over.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { DB } from '../db';

interface Counted {
  current: number;
  ttl: number;
}

type Callback = (error: Error | null, result?: Counted) => void;

/** Keys hold the client's account name, whatever its length: long ones are stored by their digest. */
const MAX_KEY = 300;
/** One limited call in this many also deletes the windows that ended a while ago. */
const PRUNE_EVERY = 100;

export function databaseRateLimitStore(db: DB) {
  let calls = 0;
  // The shape @fastify/rate-limit asks of a store: a global one, and a child per route (its key prefix).
  return class DatabaseStore {
    readonly prefix: string;

    /** The plugin passes its global options, which the count does not need. */
    constructor(_options?: unknown, prefix = '') {
      this.prefix = prefix;
    }

    /** The plugin passes the route's options merged with its own; the route names the count. */
    child(routeOptions: object) {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo;
      return new DatabaseStore(undefined, `${String(route?.method ?? '')}${String(route?.url ?? '')}:`);
    }

    /** The plugin passes the route's window, though its types do not say so. */
    incr(key: string, callback: Callback, timeWindow = 60_000) {
      count(db, this.prefix + key, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
      if (++calls % PRUNE_EVERY === 0) void db.deleteFrom('t_rate_limit').where('fResetAt', '<', sql<Date>`now() - interval '1 minute'`).execute().catch(() => undefined);
    }
  };
}

function keyOf(key: string): string {
  return key.length <= MAX_KEY ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** Counts one call under `key` in the current window (shared by every replica): the count so far and the ms left. */
export async function count(db: DB, key: string, windowMs: number): Promise<Counted> {
  // The database's clock for both the window and the time left, so replicas' clocks need not agree.
  const { rows } = await sql<{ count: number; ttl: number }>`
    insert into t_rate_limit as r (f_key, f_count, f_reset_at) values (${keyOf(key)}, 1, now() + ${windowMs} * interval '1 millisecond')
    on conflict (f_key) do update set
      f_count = case when r.f_reset_at <= now() then 1 else r.f_count + 1 end,
      f_reset_at = case when r.f_reset_at <= now() then excluded.f_reset_at else r.f_reset_at end
    returning f_count as count, greatest(0, extract(epoch from (f_reset_at - now())) * 1000)::int as ttl`.execute(db);
  return { current: rows[0].count, ttl: rows[0].ttl };
}

/** The account a limited call names (a login's userName), trimmed as the login trims it: " 1380…" is "1380…". */
export function accountOf(body: unknown): string {
  const name = (body as { userName?: unknown } | null | undefined)?.userName;
  return typeof name === 'string' || typeof name === 'number' ? String(name).trim() : '';
}

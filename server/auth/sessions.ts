/**
 * Who a token belongs to, without database round trips on every call. The user (with its permission
 * codes) and whether a token was revoked are kept in this process; the database announces every change to
 * them as the relay's `session` topic (server/relay.ts; triggers of migrations 017 and 022: logout,
 * password change, a user's status, expiry or roles, a role's menus, a menu's code, a user deleted), and
 * each replica drops what changed when the notice arrives. A write call waits for its own notice before it
 * answers, so the caller's next call sees the change on this replica; other replicas hear it within the
 * notice's delivery time.
 */
import type { DB } from '../db';
import { publish, type Relay } from '../relay';
import type { User } from '../crud/types';
import { loadUser } from './users';

/**
 * The longest an entry is trusted without a notice: a bound on staleness should the listening connection
 * drop and miss one (it reconnects by itself).
 */
const TTL_MS = Number(process.env.SESSION_CACHE_TTL_MS ?? 60_000);
/** Users and tokens kept; the oldest go first beyond this. */
const MAX_ENTRIES = 50_000;
/** How long a write waits for its notices before it stops trusting the cache instead. */
const BARRIER_MS = 2000;

interface Entry<T> {
  value: T;
  /** Date.now() after which the entry is read again. */
  until: number;
}

function put<K, T>(map: Map<K, Entry<T>>, key: K, value: T, until: number) {
  map.delete(key);
  map.set(key, { value, until });
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
}

export class Sessions {
  readonly #users = new Map<number, Entry<User | null>>();
  readonly #revoked = new Map<string, Entry<boolean>>();
  /** Bumped by every notice: a value read before a notice arrived is not kept (it may predate the change). */
  #epoch = 0;
  #barriers = new Map<string, () => void>();
  #next = 0;
  /**
   * Reads under way, by what they read and the epoch they started in: callers arriving together (a
   * page's calls at once, every client after a restart or a notice) share one read instead of each
   * making its own, and none shares a read begun before a notice it has seen.
   */
  readonly #reading = new Map<string, Promise<unknown>>();

  constructor(private readonly db: DB) {}

  /** Hears the notices on the relay's one listening connection; answers how to stop. */
  start(relay: Relay): () => void {
    return relay.on('session', (notice) => this.apply(notice));
  }

  /** The user behind a token, as loadUser answers it, from the cache when nothing changed since. */
  async user(userId: number): Promise<User | null> {
    const now = Date.now();
    const hit = this.#users.get(userId);
    if (hit && hit.until > now && (!hit.value?.expiresAt || hit.value.expiresAt > now)) return hit.value;
    return this.#once(`user:${userId}`, async (epoch) => {
      const user = await loadUser(this.db, userId);
      // An account that expires is read again when it does.
      if (epoch === this.#epoch) put(this.#users, userId, user, Math.min(now + TTL_MS, user?.expiresAt ?? Infinity));
      return user;
    });
  }

  /** Whether the token was revoked at logout. */
  async revoked(jti: string, expiresAt: number): Promise<boolean> {
    const now = Date.now();
    const hit = this.#revoked.get(jti);
    if (hit && hit.until > now) return hit.value;
    return this.#once(`token:${jti}`, async (epoch) => {
      const row = await this.db.selectFrom('t_sys_token_revoked').select('jti').where('jti', '=', jti).executeTakeFirst();
      if (epoch === this.#epoch) put(this.#revoked, jti, !!row, Math.min(now + TTL_MS, expiresAt * 1000));
      return !!row;
    });
  }

  #once<T>(what: string, read: (epoch: number) => Promise<T>): Promise<T> {
    const epoch = this.#epoch;
    const key = `${what}@${epoch}`;
    let reading = this.#reading.get(key) as Promise<T> | undefined;
    if (!reading) {
      reading = read(epoch).finally(() => this.#reading.delete(key));
      this.#reading.set(key, reading);
    }
    return reading;
  }

  /** A notice: `user:<id>`, `token:<jti>`, `all` (roles and menus), or a write's own barrier. */
  apply(payload: string) {
    const at = payload.indexOf(':');
    const kind = at < 0 ? payload : payload.slice(0, at);
    const key = at < 0 ? '' : payload.slice(at + 1);
    if (kind === 'barrier') {
      this.#barriers.get(key)?.();
      return;
    }
    this.#epoch++;
    if (kind === 'user') this.#users.delete(Number(key));
    // A revoked token stays revoked: it is known without asking again.
    else if (kind === 'token') put(this.#revoked, key, true, Date.now() + TTL_MS);
    else this.clear();
  }

  clear() {
    this.#epoch++;
    this.#users.clear();
    this.#revoked.clear();
  }

  /**
   * Resolves once every notice committed before it has been applied here: PostgreSQL delivers a
   * channel's notices in commit order, so hearing this call's own notice on the relay's channel means
   * hearing the earlier ones. Without an answer in time (the listener reconnecting) the cache is emptied
   * instead.
   */
  async settled(): Promise<void> {
    const id = `${process.pid}.${++this.#next}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.#barriers.set(id, () => resolve(true));
      timer = setTimeout(() => resolve(false), BARRIER_MS);
    });
    try {
      await publish(this.db, 'session', [`barrier:${id}`]);
      if (!(await heard)) this.clear();
    } finally {
      clearTimeout(timer);
      this.#barriers.delete(id);
    }
  }
}

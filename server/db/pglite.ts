/**
 * A Kysely dialect for embedded PGlite. PGlite is one connection, so connections are handed out one
 * at a time, in the order asked for: without this lock a transaction of one request would swallow the
 * queries of another.
 */
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  CompiledQuery, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler,
  type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult,
} from 'kysely';

/**
 * Every embedded database opens here, with the extensions the migrations may create (pg_trgm for the
 * lists' keyword search), so the server, the migration replay and the benchmarks get the same one.
 */
export function openPGlite(dir?: string, options: PGliteOptions = {}): Promise<PGlite> {
  return PGlite.create(dir, { ...options, extensions: { pg_trgm, ...options.extensions } });
}

/**
 * The one connection, lent to one caller at a time in arrival order. PGlite answers synchronously, so a
 * queue handed on within microtasks would run to its end in a single turn of the event loop, and Node
 * accepts one new TCP connection per turn — under load, clients connecting waited seconds to be let in
 * at all (200 clients: a quarter of them passed a 10 s time-out before their first answer). So the
 * connection is handed on directly only within a short share of a turn (TURN_MS); past it, it passes in
 * the loop's next turn, after whatever else is waiting. A lone request's statements then follow each
 * other at once instead of each waiting for a turn of the loop.
 */
export class ConnectionLock {
  static readonly TURN_MS = 2;
  #held = false;
  readonly #waiting: (() => void)[] = [];
  /** When the current turn's run of hand-overs began. */
  #since = 0;

  /** Answers the release of the connection once it is this caller's turn. */
  async acquire(): Promise<() => void> {
    if (this.#held) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#since = performance.now();
    this.#held = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (performance.now() - this.#since < ConnectionLock.TURN_MS) return this.#handOn();
      setImmediate(() => {
        this.#since = performance.now();
        this.#handOn();
      });
    };
  }

  #handOn() {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}

class Connection implements DatabaseConnection {
  constructor(private readonly client: PGlite) {}
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.client.query<R>(query.sql, [...query.parameters]);
    return { rows: result.rows, numAffectedRows: result.affectedRows !== undefined ? BigInt(result.affectedRows) : undefined };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream');
  }
}

class PGliteDriver implements Driver {
  readonly #lock = new ConnectionLock();
  readonly #releases = new WeakMap<DatabaseConnection, () => void>();
  constructor(private readonly client: PGlite) {}
  async init() {}
  async acquireConnection() {
    const release = await this.#lock.acquire();
    const connection = new Connection(this.client);
    this.#releases.set(connection, release);
    return connection;
  }
  async releaseConnection(connection: DatabaseConnection) {
    this.#releases.get(connection)?.();
  }
  async beginTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('BEGIN'));
  }
  async commitTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('COMMIT'));
  }
  async rollbackTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }
  async destroy() {
    await this.client.close();
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly client: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver() {
    return new PGliteDriver(this.client);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

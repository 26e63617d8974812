/**
 * A Kysely dialect for embedded PGlite. PGlite is one connection, so connections are handed out one
 * at a time, in the order asked for: without this lock a transaction of one request would swallow the
 * queries of another.
 */
import { PGlite, type PGliteOptions, type Results } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  CompiledQuery, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler,
  type DatabaseConnection, type Dialect, type Driver, type Kysely, type QueryResult,
} from 'kysely';
import { onlyReads, type DiskSpace } from './diskSpace';

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
  readonly #waiting: { resolve: (served: boolean) => void; divertible: boolean }[] = [];
  /** When the current turn's run of hand-overs began. */
  #since = 0;

  /** Answers the release of the connection once it is this caller's turn. */
  acquire(): Promise<() => void>;
  /** The same, or null should the connection be lent meanwhile (`divert`): the caller then no longer waits. */
  acquire(divertible: true): Promise<(() => void) | null>;
  async acquire(divertible = false): Promise<(() => void) | null> {
    if (this.#held) {
      const served = await new Promise<boolean>((resolve) => this.#waiting.push({ resolve, divertible }));
      if (!served) return null;
    } else this.#since = performance.now();
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
    if (next) next.resolve(true);
    else this.#held = false;
  }

  /** Sends the divertible callers away from the queue (their acquire answers null), in their order. */
  divert() {
    const diverted = this.#waiting.filter((w) => w.divertible);
    this.#waiting.splice(0, this.#waiting.length, ...this.#waiting.filter((w) => !w.divertible));
    for (const w of diverted) w.resolve(false);
  }
}

/**
 * Reads let in beside a transaction. PGlite is one session, so while one caller's transaction is open
 * (an import writing a million devices for most of a minute) every other caller waits for its end. The
 * holder of such a transaction may lend the connection (`lend`): between its own statements, others'
 * statements that only read run inside it, each in a savepoint that is always rolled back, as `role`,
 * read-only. The engine itself keeps them from changing anything (read-only: no write, no sequence;
 * the role: no privilege beyond what the holder granted it) and from seeing what the holder changed
 * (the holder grants the role only what it has not changed, or hides its changes from it by row
 * security): they answer what they would answer beside the transaction on PostgreSQL. A statement the
 * role may not run, or that fails for any other reason, had no effect and is run again as usual once the
 * holder's transaction has ended, as is any statement that is not a plain read (`mayReadBeside`).
 */
export interface Lending {
  /** The role the lent reads run as. */
  role: string;
}

/** The savepoint a lent read runs in. */
const LENT = 'iot_lent_read';
/** SQLSTATE 25P02: the transaction failed, and every statement but its rollback is refused. */
const IN_FAILED_TRANSACTION = '25P02';

/**
 * Whether a statement may run inside another caller's transaction: a SELECT, WITH or EXPLAIN (a list's
 * estimated count) that asks nothing of the transaction itself — not its time (now() is when the
 * holder's transaction began), its role or settings, sequences, advisory locks or notifications, nor
 * row locks. A statement wrongly let through by this text check still cannot write (the savepoint is
 * read-only) nor outlive its savepoint; one wrongly held back only waits.
 */
export function mayReadBeside(text: string): boolean {
  return /^\s*\(?\s*(select|with|explain)\b/i.test(text) && !TIED_TO_THE_TRANSACTION.test(text);
}
const TIED_TO_THE_TRANSACTION =
  /\b(now|transaction_timestamp|current_date|current_time|current_timestamp|localtime|localtimestamp|current_user|current_role|session_user|current_setting|set_config|nextval|currval|lastval|setval|txid_\w+|pg_current_xact_id\w*|pg_\w*advisory\w*|pg_notify)\b|\bfor\s+(no\s+key\s+update|update|key\s+share|share)\b/i;

/** The client's statements one after the other, in the order asked: a lent read's three are never split. */
class Wire {
  #tail: Promise<unknown> = Promise.resolve();
  /** Statements asked for and not yet answered. */
  waiting = 0;
  run<T>(work: () => Promise<T>): Promise<T> {
    this.waiting++;
    const done = this.#tail.then(work).finally(() => this.waiting--);
    this.#tail = done.catch(() => undefined);
    return done;
  }
}

/** What the lending holder is given: the end of its lending, and a pause for the reads to get in. */
export interface Lent {
  /** Ends the lending: from then on, others' statements wait for the holder's end again. */
  end(): void;
  /**
   * A pause between two of the holder's statements, for the reads: at least a turn of the event loop,
   * and more turns while reads keep coming (a call's next statement follows its last one's answer within
   * a turn or two), up to `budgetMs`.
   */
  pause(budgetMs: number): Promise<void>;
}

const answer = <R>(result: Results<R>): QueryResult<R> => ({
  rows: result.rows,
  numAffectedRows: result.affectedRows !== undefined ? BigInt(result.affectedRows) : undefined,
});

/**
 * A caller's use of the connection. It holds the lock from its first statement that is not let in
 * beside a lending holder's transaction (or from the start, when nobody lends) until it is released.
 */
class Connection implements DatabaseConnection {
  #release: (() => void) | null = null;
  constructor(private readonly driver: PGliteDriver) {}
  holds(release: () => void) {
    this.#release = release;
  }
  async hold() {
    this.#release ??= await this.driver.lock.acquire();
  }
  release() {
    this.#release?.();
    this.#release = null;
  }
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.#release) {
      const lent = await this.driver.readBeside<R>(query);
      if (lent) return lent;
      await this.hold();
    }
    return this.driver.run<R>(query);
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not stream');
  }
}

class PGliteDriver implements Driver {
  readonly lock = new ConnectionLock();
  readonly #wire = new Wire();
  #lending: Lending | null = null;
  /** Reads answered beside a lending holder so far. */
  #served = 0;
  /** A lent read whose savepoint could not be rolled back: the holder's transaction must not commit. */
  #broken: Error | null = null;
  constructor(
    private readonly client: PGlite,
    private readonly space?: DiskSpace,
  ) {}
  async init() {}
  async acquireConnection() {
    const connection = new Connection(this);
    // Waiting for the lock, a caller is sent on should the holder start lending: its reads may then run beside.
    if (this.#lending) return connection;
    const release = await this.lock.acquire(true);
    if (release) connection.holds(release);
    return connection;
  }
  async releaseConnection(connection: DatabaseConnection) {
    (connection as Connection).release();
  }
  async beginTransaction(c: DatabaseConnection) {
    await (c as Connection).hold();
    await c.executeQuery(CompiledQuery.raw('BEGIN'));
  }
  async commitTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('COMMIT'));
  }
  async rollbackTransaction(c: DatabaseConnection) {
    this.#broken = null;
    await c.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }
  async destroy() {
    await this.client.close();
  }

  /** A statement of the caller holding the connection. */
  run<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.#wire.run(async () => {
      if (this.#broken) throw this.#broken;
      if (this.space && !onlyReads(query.sql)) this.space.checkWrite();
      return answer(await this.client.query<R>(query.sql, [...query.parameters]));
    });
  }

  /**
   * Lets others' reads in between the statements of the caller holding the connection, in its
   * transaction, as `role` (see Lending), until it ends the lending. Only the holder may call it.
   */
  lend(lending: Lending): Lent {
    this.#lending = lending;
    this.lock.divert();
    return {
      end: () => {
        if (this.#lending === lending) this.#lending = null;
      },
      pause: async (budgetMs) => {
        const until = performance.now() + budgetMs;
        for (;;) {
          const served = this.#served;
          await new Promise((resolve) => setImmediate(resolve));
          if ((served === this.#served && !this.#wire.waiting) || performance.now() >= until) return;
          // Reads are running or were answered in that turn: another turn, for the same calls' next ones.
          while (this.#wire.waiting && performance.now() < until) await new Promise((resolve) => setImmediate(resolve));
        }
      },
    };
  }

  /** A read run beside the lending holder's transaction; null when it has to wait for the connection instead. */
  async readBeside<R>(query: CompiledQuery): Promise<QueryResult<R> | null> {
    const lending = this.#lending;
    if (!lending || !mayReadBeside(query.sql)) return null;
    return this.#wire.run(async () => {
      if (this.#lending !== lending || this.#broken) return null;
      let result: Results<R> | null = null;
      try {
        await this.client.exec(`SAVEPOINT ${LENT}; SET LOCAL ROLE ${lending.role}; SET LOCAL transaction_read_only = on`);
        result = await this.client.query<R>(query.sql, [...query.parameters]);
      } catch {
        // Refused or failed: it changed nothing, and runs again once the holder is done.
        result = null;
      }
      try {
        await this.client.exec(`ROLLBACK TO SAVEPOINT ${LENT}; RELEASE SAVEPOINT ${LENT}`);
      } catch (error) {
        // The holder's transaction had already failed (its own rollback follows); anything else means
        // something unforeseen ran in it, which it must then not commit.
        if ((error as { code?: string }).code !== IN_FAILED_TRANSACTION) this.#broken = error as Error;
        this.#lending = null;
        return null;
      }
      if (result) this.#served++;
      return result && answer(result);
    });
  }
}

export class PGliteDialect implements Dialect {
  readonly #driver: PGliteDriver;
  /** `space`: the data folder's disk, whose reserve writes are held to (./diskSpace.ts). */
  constructor(client: PGlite, space?: DiskSpace) {
    this.#driver = new PGliteDriver(client, space);
  }
  /** See Lending: lets others' reads in beside the caller's transaction until it ends the lending. */
  lend(lending: Lending): Lent {
    return this.#driver.lend(lending);
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver() {
    return this.#driver;
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}

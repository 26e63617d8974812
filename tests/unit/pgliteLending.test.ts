import { CamelCasePlugin, Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { ConnectionLock, PGliteDialect, mayReadBeside } from '../../server/db/pglite';

/**
 * The embedded database's one connection lent to others' reads while its holder's transaction is open
 * (server/db/pglite.ts, `Lending`): the reads answer beside it, as the role the holder prepared, and what
 * is not a plain read waits for the holder's end.
 */
describe('reads let in beside a transaction on the embedded database', () => {
  let client: PGlite;
  let dialect: PGliteDialect;
  let db: Kysely<any>;
  const count = async () => Number((await sql<{ n: number }>`select count(*)::int as n from t`.execute(db)).rows[0].n);

  beforeAll(async () => {
    client = await PGlite.create();
    dialect = new PGliteDialect(client);
    db = new Kysely<any>({ dialect, plugins: [new CamelCasePlugin()] });
    await client.exec(`create table t (f_id integer primary key); insert into t values (1), (2); create table other (f_id integer)`);
  });
  afterAll(() => db.destroy());

  it('tells plain reads from what must wait for the holder', () => {
    expect(mayReadBeside('select 1')).toBe(true);
    expect(mayReadBeside('  with x as (select 1) select * from x')).toBe(true);
    expect(mayReadBeside('explain (format json) select 1 from t')).toBe(true);
    for (const text of [
      'insert into t values (3)',
      'commit',
      'rollback',
      'savepoint a',
      'set role postgres',
      'select now()',
      'select f_id from t where f_time > current_timestamp',
      "select set_config('role', 'postgres', true)",
      "select nextval('s')",
      'select pg_advisory_lock(1)',
      'select * from t for update',
      'select * from t for no key update',
    ])
      expect(mayReadBeside(text), text).toBe(false);
  });

  it('answers reads while the holder writes, showing only what was committed, and runs the rest after it', async () => {
    const events: string[] = [];
    let letGo!: () => void;
    const holding = new Promise<void>((resolve) => (letGo = resolve));
    const holder = db.transaction().execute(async (trx) => {
      await sql`insert into t values (3)`.execute(trx);
      await sql.raw(`create role lending_reader nologin`).execute(trx);
      await sql.raw(`grant select on t to lending_reader`).execute(trx);
      await sql.raw(`create policy committed on t for select to lending_reader using (xmin <> pg_current_xact_id()::xid)`).execute(trx);
      await sql.raw(`alter table t enable row level security`).execute(trx);
      // A call already waiting for the connection when lending starts is let in too.
      const waiting = count().then((n) => events.push(`read before lending: ${n}`));
      const lent = dialect.lend({ role: 'lending_reader' });
      await waiting;
      await sql`insert into t values (4)`.execute(trx);
      await holding;
      lent.end();
      await sql.raw(`alter table t disable row level security`).execute(trx);
      await sql.raw(`drop policy committed on t`).execute(trx);
      await sql.raw(`drop owned by lending_reader`).execute(trx);
      await sql.raw(`drop role lending_reader`).execute(trx);
      events.push('commit');
    });
    await new Promise((r) => setTimeout(r, 20));
    // Reads answer while the holder's transaction is open; they see t as committed.
    events.push(`read: ${await count()}`);
    // A write, a read of a table the role may not read, and a statement of the transaction itself wait.
    const write = sql`insert into other values (1)`.execute(db).then(() => events.push('write'));
    const refused = sql`select count(*) from other`.execute(db).then(() => events.push('refused read'));
    const ending = sql.raw('commit').execute(db).catch(() => undefined).then(() => events.push('commit statement'));
    await new Promise((r) => setTimeout(r, 20));
    events.push(`read: ${await count()}`);
    letGo();
    await holder;
    await Promise.all([write, refused, ending]);
    expect(events.slice(0, 4)).toEqual(['read before lending: 2', 'read: 2', 'read: 2', 'commit']);
    expect(events.slice(4).sort()).toEqual(['commit statement', 'refused read', 'write']);
    expect(await count()).toBe(4);
    expect((await sql`select count(*)::int as n from other`.execute(db)).rows).toEqual([{ n: 1 }]);
  });

  it('sends reads to wait for the end of a holder whose transaction failed, and the holder still rolls back', async () => {
    const events: string[] = [];
    const failing = db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into t values (10)`.execute(trx);
        await sql.raw(`create role failing_reader nologin`).execute(trx);
        await sql.raw(`grant select on t to failing_reader`).execute(trx);
        const lent = dialect.lend({ role: 'failing_reader' });
        try {
          await sql`insert into t values (1)`.execute(trx);
        } catch (error) {
          // The transaction has failed; a read asked now cannot run in it.
          const read = count().then((n) => events.push(`read: ${n}`));
          await new Promise((r) => setTimeout(r, 20));
          events.push('rollback');
          lent.end();
          void read;
          throw error;
        }
      })
      .catch(() => events.push('refused'));
    await failing;
    await new Promise((r) => setTimeout(r, 20));
    expect(events[0]).toBe('rollback');
    expect(events.slice(1).sort()).toEqual(['read: 4', 'refused']);
    expect((await sql`select count(*)::int as n from pg_roles where rolname = 'failing_reader'`.execute(db)).rows).toEqual([{ n: 0 }]);
  });

  it('sends waiting callers away only when they may be let in beside', async () => {
    const lock = new ConnectionLock();
    const first = await lock.acquire();
    const plain = lock.acquire();
    const divertible = lock.acquire(true);
    lock.divert();
    expect(await divertible).toBeNull();
    first();
    const release = await plain;
    expect(typeof release).toBe('function');
    release();
  });
});

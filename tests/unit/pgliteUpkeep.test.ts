import { CamelCasePlugin, Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openPGlite, PGliteDialect } from '../../server/db/pglite';
import { keepStatistics } from '../../server/db/pgliteUpkeep';

/** PGlite's statistics reach pg_stat_user_tables at the next report, at most once a second. */
async function flushStatistics(db: Kysely<any>) {
  await sql`select pg_stat_force_next_flush()`.execute(db);
  await sql`select 1`.execute(db);
}

const plan = async (db: Kysely<any>, query: string) => (await sql.raw<{ 'QUERY PLAN': string }>(`explain ${query}`).execute(db)).rows.map((r) => r['QUERY PLAN']).join('\n');

describe('statistics of the embedded database', () => {
  it('analyzes changed tables so keyword searches use their trigram indexes, vacuums dead rows, and leaves quiet tables alone', async () => {
    const client = await openPGlite();
    const db = new Kysely<any>({ dialect: new PGliteDialect(client), plugins: [new CamelCasePlugin()] });
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create table t_thing (f_id serial primary key, f_number varchar(64), f_name varchar(128), f_state int)`.execute(db);
    await sql`create index t_thing_number on t_thing using gin (f_number gin_trgm_ops)`.execute(db);
    await sql`create index t_thing_name on t_thing using gin (f_name gin_trgm_ops)`.execute(db);
    // As in the product: the migrations create tables and indexes empty, the rows come later.
    await sql`insert into t_thing (f_number, f_name, f_state) select 'L' || lpad(g::text, 7, '0'), '设备' || g, 0 from generate_series(1, 100000) g`.execute(db);
    const search = `select * from t_thing where f_number::text ilike '%12345%' or f_name::text ilike '%12345%' order by f_id desc limit 10`;
    // Never analyzed, the table's size is guessed from its pages and the trigram indexes look useless.
    expect(await plan(db, search)).not.toContain('Bitmap Index Scan');
    await flushStatistics(db);

    const first = await keepStatistics(db);
    expect(first.analyzed).toContain('t_thing');
    expect(await plan(db, search)).toContain('Bitmap Index Scan on t_thing_number');

    await flushStatistics(db);
    expect((await keepStatistics(db)).analyzed).not.toContain('t_thing');

    await sql`update t_thing set f_state = 1 where f_id <= 50000`.execute(db);
    await flushStatistics(db);
    const after = await keepStatistics(db);
    expect(after.vacuumed).toContain('t_thing');
    const [{ dead }] = (await sql<{ dead: number }>`select n_dead_tup::int as dead from pg_stat_user_tables where relname = 't_thing'`.execute(db)).rows;
    expect(dead).toBe(0);
    await db.destroy();
  }, 120_000);
});

/**
 * Bulk inserts of demo data: one INSERT … SELECT FROM unnest(arrays) per chunk — a handful of
 * parameters instead of thousands, which is what makes tens of thousands of rows cheap on PGlite (a
 * multi-row VALUES of 500 rows binds 5,000 parameters and parses them all). Columns are
 * [property, SQL array type]; `returning` lists properties to read back, in insertion order.
 */
import { sql } from 'kysely';
import type { DB } from '../index';

const snake = (c: string) => c.replace(/[A-Z]/g, (ch) => '_' + ch.toLowerCase());

export async function bulkInsert(db: DB, table: string, columns: [string, string][], rows: Record<string, unknown>[], returning: string[] = [], size = 10000) {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < rows.length; i += size) {
    const part = rows.slice(i, i + size);
    const arrays = columns.map(([c, type]) => sql`${part.map((r) => (r[c] instanceof Date ? (r[c] as Date).toISOString() : r[c] ?? null))}::${sql.raw(type)}`);
    const back = returning.length ? sql` returning ${sql.join(returning.map((c) => sql.ref(snake(c))))}` : sql``;
    const result = await sql<Record<string, unknown>>`insert into ${sql.table(table)} (${sql.join(columns.map(([c]) => sql.ref(snake(c))))}) select * from unnest(${sql.join(arrays)})${back}`.execute(db);
    out.push(...result.rows);
  }
  return out;
}

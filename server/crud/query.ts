/** Paging, filters and sorting of list calls, all taken from the resource file, never from raw input. */
import { CompiledQuery, sql, type Expression, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { refuse } from '../http/envelope';
import { INT_MAX } from '../http/guard';
import type { DB } from '../db';
import type { EntityModel, FieldModel, Query } from './types';
import { entities } from '../generated/entities';

export interface PageRequest {
  current: number;
  size: number;
  condition: Record<string, unknown>;
  orders: { column: string; asc: boolean }[];
}

const MAX_PAGE = 10000;
/** Beyond any page a person reads; keeps OFFSET inside bigint and the scan bounded. */
const MAX_CURRENT = 100000;
/** A search text longer than this is not a search: it only makes `ilike` slow. */
export const MAX_PATTERN = 100;
/** Values of one `in` filter. */
const MAX_IN = 1000;

/** The page a legacy request asks for: a whole number from 1 to MAX_CURRENT, 1 when it is not one. */
export function pageNumber(value: unknown): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? Math.min(n, MAX_CURRENT) : 1;
}

/**
 * The list's condition: body.condition, and the filter keys given at the top level of the body, the way
 * the legacy cascader lookups send them (`{ fCommunityid: 3 }`, `{ areaid: 440106 }`). Only declared
 * filter keys are taken; body.condition wins where both name a key.
 */
export function conditionOf(entity: EntityModel, body: Record<string, unknown>): Record<string, unknown> {
  const nested = body.condition && typeof body.condition === 'object' ? (body.condition as Record<string, unknown>) : {};
  const top = Object.fromEntries(entity.filters.filter((f) => f.key in body && f.key !== 'condition').map((f) => [f.key, body[f.key]]));
  return { ...top, ...nested };
}

const int = (v: unknown, fallback: number, max = MAX_PAGE) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? Math.min(n, max) : fallback;
};

/**
 * The page a hand-written list is asked for: `current`, and `size` (or `pageSize`) up to `max` rows,
 * `defaultSize` when it is not a whole number from 1.
 */
export function pageAt(body: Record<string, unknown>, defaultSize: number, max = MAX_PAGE): { current: number; size: number } {
  return { current: pageNumber(body.current), size: int(body.size ?? body.pageSize, defaultSize, max) };
}

/**
 * The lists that may hold millions of rows (the message and operation logs, the devices a gateway's
 * picker offers) are not counted whole: at the scale of a city a count of every matching row costs as
 * much as reading them. Their total is exact up to
 * HUGE_LIST rows (a count that stops there), beyond it the planner's estimate, answered with
 * `estimated: true` so the console can say "about"; paging reaches the newest HUGE_LIST rows, since
 * deeper pages would skip millions of rows — those are refused with the advice to narrow the search.
 */
export const HUGE_LIST = 10_000;

/**
 * Refuses a page of a huge list past the rows it can reach (`HUGE_LIST`), saying how to narrow it: by
 * time where the list has a time filter (the logs), else by adding conditions.
 */
export function checkReachable(at: { current: number; size: number }, byTime = true): void {
  if (at.current > 1 && at.current * at.size > HUGE_LIST) throw refuse(byTime ? 'query.pageUnreachable' : 'query.pageUnreachableNoTime', { max: HUGE_LIST });
}

/** The number of rows a query matches: exact when at most `cap`, else the planner's estimate (at least cap + 1). */
export async function countUpTo(
  db: DB,
  query: SelectQueryBuilder<any, any, any>,
  cap = HUGE_LIST,
  read: <R>(q: SelectQueryBuilder<any, any, R>) => Promise<R[]> = (q) => q.execute(),
): Promise<{ total: number; estimated: boolean }> {
  const probe = query.clearSelect().select(sql<number>`1`.as('one'));
  const [counted] = await read(db.selectFrom(probe.limit(cap + 1).as('t')).select((eb) => eb.fn.countAll<number>().as('n')));
  const n = Number(counted.n);
  if (n <= cap) return { total: n, estimated: false };
  const compiled = probe.compile();
  const plan = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]));
  const json = Object.values(plan.rows[0])[0];
  const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: { 'Plan Rows': number } }[];
  return { total: Math.max(Math.round(parsed[0].Plan['Plan Rows']), cap + 1), estimated: true };
}

/**
 * `column = any($1)`: the column is one of the given values, sent as one array parameter rather than one
 * parameter each (`in ($1, …, $6000)` for a select list of every product), so the statement's text is
 * the same for any number of values and binds in one piece.
 */
export function among(column: Expression<unknown>, values: readonly unknown[]): RawBuilder<boolean> {
  return sql<boolean>`${column} = any(${[...values]})`;
}

/**
 * `column = any(array(values))`: the column is one of a subquery's values, for use inside an `or`. There
 * `column in (values)` is tested row by row against every row of the table (a hashed subplan: 111 ms for
 * an ordinary user's devices among 500,000), whereas the array is worked out once and each side of the
 * `or` is read from its index (4 ms).
 */
export function amongValues(column: Expression<unknown>, values: SelectQueryBuilder<any, any, any>): RawBuilder<boolean> {
  return sql<boolean>`${column} = any(array(${values}))`;
}

export function pageRequest(entity: EntityModel, body: Record<string, unknown>): PageRequest {
  const condition = conditionOf(entity, body);
  const asked = Array.isArray(body.orders) ? (body.orders as { column?: unknown; asc?: unknown }[]) : [];
  const orders = asked
    .filter((o) => typeof o?.column === 'string' && entity.sort.allowed.includes(o.column))
    .map((o) => ({ column: o.column as string, asc: o.asc === true || o.asc === 'true' }));
  return {
    current: int(body.current, 1, MAX_CURRENT),
    size: int(body.size ?? body.pageSize, entity.pageSize),
    condition,
    orders: orders.length ? orders : entity.sort.default,
  };
}

export function blank(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/** Whether a list's condition searches text: a `like` filter (a keyword, a name) given a value. */
export function searchesText(entity: EntityModel, condition: Record<string, unknown>): boolean {
  return entity.filters.some((f) => f.op === 'like' && !blank(condition[f.key]));
}

/**
 * The planner's cost of evaluating an operator while a list searches text: ten times its default
 * (0.0025). In a UTF-8 database `ilike` lower-cases each value character by character, far more than
 * the default assumes, so the planner took a scan of the whole table for cheaper than the trigram
 * indexes: a device keyword search at 100,000 devices read every row, 150 ms for the total and 33 ms for
 * the page, against 9 and 8 ms through the indexes. With this cost a rare text goes through the indexes
 * and a text in most rows still walks the sort's index until the page is full.
 */
const TEXT_SEARCH_OPERATOR_COST = '0.025';

/** Runs the statements of a text search in a transaction of their own that tells the planner that cost. */
export async function plannedForText<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local cpu_operator_cost = ${sql.lit(TEXT_SEARCH_OPERATOR_COST)}`.execute(trx);
    return work(trx);
  });
}

/** One statement of a text search, so planned (a query built on any database runs in the transaction). */
export async function searchingText<R>(db: DB, query: { compile(): CompiledQuery<R> }): Promise<R[]> {
  return plannedForText(db, async (trx) => (await trx.executeQuery(query.compile())).rows);
}

/**
 * The `ilike` pattern that finds `text` anywhere, with its wildcards taken literally; a text longer
 * than MAX_PATTERN is refused, so no search can hold the database (or PGlite's single thread) for long.
 */
export function containing(text: unknown): string {
  const s = String(text ?? '');
  if (s.length > MAX_PATTERN) throw refuse('query.tooLong', { max: MAX_PATTERN });
  return `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
}

const WALL = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/;

/**
 * One condition value checked against the column it is compared with, so a wrong type or range is a
 * refusal with a message, never a database error: integers within the column's range, finite numbers,
 * dates that parse, scalars only, search texts of a bounded length.
 */
function checked(field: FieldModel | undefined, op: string, value: unknown): unknown {
  const label = field?.labels ?? '';
  const bad = () => refuse('query.fieldInvalid', { label });
  if (value !== null && typeof value === 'object') throw bad();
  if (op === 'like') {
    const text = String(value);
    if (text.length > MAX_PATTERN) throw refuse('query.fieldTooLong', { label, max: MAX_PATTERN });
    return text;
  }
  switch (field?.type) {
    case 'integer': {
      const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isInteger(n) || Math.abs(n) > INT_MAX) throw bad();
      return n;
    }
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) throw bad();
      return n;
    }
    case 'date-time':
      if (typeof value !== 'string' || !WALL.test(value.trim()) || Number.isNaN(Date.parse(value.trim().replace(' ', 'T')))) throw bad();
      return value.trim();
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw bad();
    default:
      if (typeof value === 'boolean') throw bad();
      return String(value);
  }
}

export function applyFilters(query: Query, entity: EntityModel, condition: Record<string, unknown>): Query {
  for (const f of entity.filters) {
    const raw = condition[f.key];
    if (blank(raw)) continue;
    let fields = f.fields ?? [f.field!];
    if (f.selectBy) {
      const chosen = f.selectBy.fields[String(condition[f.selectBy.key] ?? '')];
      if (chosen) fields = [chosen];
    }
    // A relation's fields are matched on the related rows: `fHouseId in (select … where house name like …)`.
    const rel = f.relation ? entity.relations[f.relation] : undefined;
    const target = rel ? entities[rel.entity] : undefined;
    const model = target ?? entity;
    const list = f.op === 'in' || f.op === 'between' ? (Array.isArray(raw) ? raw : String(raw).split(',')) : null;
    if (list && list.length > MAX_IN) throw refuse('query.tooManyValues', { max: MAX_IN });
    if (!list && Array.isArray(raw)) throw refuse('query.fieldInvalid', { label: model.fields[fields[0]]?.labels ?? '' });
    if (f.op === 'between' && list!.length !== 2) continue;
    query = query.where((eb) => {
      const match = eb.or(
        fields.map((field) => {
          const col = `${model.table}.${field}`;
          const declared = model.fields[field];
          if (list) {
            // [from, to] of a range may leave either end empty.
            const values = list.map((v) => (f.op === 'between' && blank(v) ? null : checked(declared, f.op, v)));
            if (f.op === 'in') return eb(col, 'in', values);
            const [from, to] = values;
            // A range whose start is after its end matches nothing; say so rather than answer an empty page.
            if (from !== null && to !== null && (from as string | number) > (to as string | number)) throw refuse('query.rangeInverted');
            return eb.and([...(from === null ? [] : [eb(col, '>=', from)]), ...(to === null ? [] : [eb(col, '<=', to)])]);
          }
          const value = checked(declared, f.op, raw);
          switch (f.op) {
            case 'like':
              return eb(sql`${sql.ref(col)}::text`, 'ilike', containing(value));
            case 'gte':
              return eb(col, '>=', value);
            case 'lte':
              return eb(col, '<=', value);
            default:
              return eb(col, '=', value);
          }
        }),
      );
      if (!rel || !target) return match;
      return eb(`${entity.table}.${rel.from}`, 'in', eb.selectFrom(target.table).select(`${target.table}.${target.primaryKey}`).where(() => match));
    });
  }
  return query;
}

/**
 * The CRUD engine: serves the standard actions (list, get, save, delete, status, set, all) of every
 * entity from its generated model, with the entity's server module adding scope, hooks and computed
 * fields. Custom actions are handlers of that module.
 */
import type { SelectQueryBuilder } from 'kysely';
import { Refusal, refuse, NotFound, Forbidden } from '../http/envelope';
import { givenIdList, isId } from '../http/guard';
import { entities } from '../generated/entities';
import { hooksOf } from './hooks';
import { formatRow } from './format';
import { cleanHtmlFields } from './html';
import { HUGE_LIST, among, applyFilters, blank, checkReachable, conditionOf, countUpTo, pageRequest, plannedForText, searchesText, searchingText } from './query';
import { runsOneAtATime, type DB } from '../db';
import { checkOrder, validateBody, fieldReason, fieldRefusal } from './validate';
import type { CallContext, EntityModel, Query, Services, User } from './types';
import { creates, rowKey } from './access';
import { maskRows, scopeQuery } from './scope';

type Row = Record<string, unknown>;

export { hooksOf };

export function entity(name: string): EntityModel {
  const e = entities[name];
  if (!e) throw new Error(`unknown entity ${name}`);
  return e;
}

/** Every read and write of an entity starts here, so its declared scope always applies (server/crud/scope.ts). */
export function scoped(ctx: Services, model: EntityModel, user: User): Query {
  return scopeQuery(ctx.db.selectFrom(model.table).selectAll(model.table), model, user, hooksOf(model));
}

/**
 * Formats rows and attaches their relations (a device's tProduct) and computed fields; personal fields,
 * the related rows' too, leave masked unless the caller (`ctx.user`, when the context has one) may see them.
 */
export async function present(ctx: Services & { user?: User }, model: EntityModel, rows: Row[]): Promise<Row[]> {
  // Rich text is cleaned again on the way out: a row written around the API is served clean too.
  const out = rows.map((r) => cleanHtmlFields(model, formatRow(r, ctx.timeZone)));
  // The relations are read side by side, each a statement of its own, and beside the entity's own
  // reads (afterRead): a page waits for the slowest of them, not for their sum.
  const related = Promise.all(
    Object.entries(model.relations).map(async ([name, rel]) => {
      const target = entity(rel.entity);
      const ids = [...new Set(out.map((r) => r[rel.from]).filter((v) => v !== null && v !== undefined))];
      const rows = ids.length ? await ctx.db.selectFrom(target.table).selectAll().where((eb) => among(eb.ref(target.primaryKey), ids)).execute() : [];
      const shown = rows.map((r) => formatRow(r, ctx.timeZone));
      maskRows(target, shown, ctx.user);
      const byId = new Map(shown.map((r) => [r[target.primaryKey], r]));
      for (const r of out) r[name] = byId.get(r[rel.from]) ?? null;
    }),
  ).then(() => undefined);
  await Promise.all([related, hooksOf(model).afterRead?.(out, ctx, related)]);
  maskRows(model, out, ctx.user);
  return out;
}

const keyOf = rowKey;

function idOf(model: EntityModel, body: Row): number {
  const id = keyOf(model, body);
  if (!isId(id)) throw new Refusal(fieldReason(model, model.primaryKey, 'required'));
  return id;
}

async function findScoped(ctx: CallContext, id: number): Promise<Row> {
  const { entity: model } = ctx;
  const row = await scoped(ctx, model, ctx.user).where(`${model.table}.${model.primaryKey}`, '=', id).executeTakeFirst();
  if (!row) throw refuse('data.notFound');
  return row;
}

/**
 * A route with codes by value (a document list's type): the user must hold the code for the row's value,
 * or the route's own code for a value no variant names. The route-level check only asked for any of them.
 */
function requireCodeFor(ctx: CallContext, value: unknown, creating = false) {
  const byValue = ctx.route.byValue;
  if (!byValue) return;
  const p = ctx.route.permission;
  const base = typeof p === 'string' ? p : creating ? p.create : p.update;
  const one = Array.isArray(value) && value.length === 1 ? value[0] : value;
  const code = one === undefined || one === null || Array.isArray(one) ? base : (byValue.codes[String(one)] ?? base);
  if (!ctx.user.permissions.has(code)) throw new Forbidden();
}

export async function list(ctx: CallContext) {
  const { entity: model } = ctx;
  const page = pageRequest(model, ctx.body);
  if (ctx.route.byValue) requireCodeFor(ctx, page.condition[ctx.route.byValue.key]);
  let filtered = applyFilters(scoped(ctx, model, ctx.user), model, page.condition);
  for (const [key, condition] of Object.entries(hooksOf(model).conditions ?? {})) if (!blank(page.condition[key])) filtered = condition(filtered, page.condition[key]);
  const order = page.orders.map((o) => ({ column: `${model.table}.${o.column}`, asc: o.asc }));
  const p = await pageOf(ctx, filtered, page, order, { searching: searchesText(model, page.condition), total: () => hooksOf(model).keptTotal?.(page.condition, ctx) });
  return pageAnswer(p, await present(ctx, model, p.rows));
}

/** One page of a list and its total, as every list answers them. */
export interface Page {
  rows: Row[];
  total: number;
  current: number;
  size: number;
  pages: number;
  /** A huge list's total is the planner's estimate; its pages reach the newest `reachable` rows. */
  estimated?: true;
  reachable?: number;
}

/** A page as the lists answer it: its records (its rows as the list shows them), and where it stands. */
export const pageAnswer = <T>(p: Page, records: T[]) => ({
  records,
  total: p.total,
  current: p.current,
  size: p.size,
  pages: p.pages,
  ...(p.estimated ? { estimated: p.estimated, reachable: p.reachable } : {}),
});

/**
 * Reads one page of a built list query and its total. They do not depend on each other: on PostgreSQL
 * they run side by side on two of the pool's connections, so a list waits for the slower of the two
 * rather than for both in turn. The statements of a list that searches text are planned knowing what
 * `ilike` costs (`searchingText`). `total` answers the total instead of a count where a list keeps one;
 * a `huge` list (one that may hold millions of rows) is counted up to HUGE_LIST rows and estimated beyond,
 * and a page past them is refused with the advice to narrow the search (by time where `byTime`).
 */
export async function pageOf(
  ctx: Services,
  query: Query,
  at: { current: number; size: number },
  order: { column: string; asc: boolean }[],
  options: { searching?: boolean; total?: () => Promise<number | null | undefined> | undefined; huge?: boolean; byTime?: boolean } = {},
): Promise<Page> {
  if (options.huge) checkReachable(at, options.byTime);
  type Read = <R>(q: SelectQueryBuilder<any, any, R>) => Promise<R[]>;
  const counting = async (db: DB, read: Read): Promise<{ total: number; estimated: boolean }> => {
    if (options.huge) return countUpTo(db, query, HUGE_LIST, read);
    const kept = await options.total?.();
    if (kept !== null && kept !== undefined) return { total: Number(kept), estimated: false };
    const [counted] = await read(query.clearSelect().select((eb) => eb.fn.countAll<number>().as('total')));
    return { total: Number(counted.total), estimated: false };
  };
  let q = query;
  for (const o of order) q = q.orderBy(o.column, o.asc ? 'asc' : 'desc');
  const page = q.limit(at.size).offset((at.current - 1) * at.size);
  let counted: { total: number; estimated: boolean };
  let rows: Row[];
  if (!options.searching) [counted, rows] = await Promise.all([counting(ctx.db, (s) => s.execute()), page.execute()]);
  else if (!runsOneAtATime(ctx.db)) [counted, rows] = await Promise.all([counting(ctx.db, (s) => searchingText(ctx.db, s)), searchingText(ctx.db, page)]);
  else {
    // The embedded database runs one statement at a time whatever is asked of it: a text search's count
    // and page share one transaction that tells the planner what `ilike` costs, instead of one each.
    [counted, rows] = await plannedForText(ctx.db, async (trx) => {
      const read: Read = async (s) => (await trx.executeQuery(s.compile())).rows;
      return [await counting(trx, read), await read(page)] as const;
    });
  }
  return { rows, ...pageStanding(at, counted) };
}

/** Where a page stands in its list: an estimated total's pages end at the newest HUGE_LIST rows. */
export function pageStanding(at: { current: number; size: number }, { total, estimated }: { total: number; estimated: boolean }): Omit<Page, 'rows'> {
  const reachable = estimated ? Math.min(total, HUGE_LIST) : total;
  return { total, current: at.current, size: at.size, pages: Math.ceil(reachable / at.size), ...(estimated ? { estimated: true as const, reachable } : {}) };
}

export async function all(ctx: CallContext) {
  const { entity: model, route } = ctx;
  let q = applyFilters(scoped(ctx, model, ctx.user), model, conditionOf(model, ctx.body));
  for (const o of model.sort.default) q = q.orderBy(`${model.table}.${o.column}`, o.asc ? 'asc' : 'desc');
  // The selects calling it need a few fields of every row: those alone, without relations or computed
  // fields (every product of a large catalogue: 4.9 MB of rows for three fields of each).
  if (route.fields) return (await q.clearSelect().select(route.fields.map((f) => `${model.table}.${f}`)).limit(10000).execute()).map((r) => formatRow(r, ctx.timeZone));
  return present(ctx, model, await q.limit(10000).execute());
}

export async function get(ctx: CallContext) {
  const row = await findScoped(ctx, idOf(ctx.entity, ctx.body));
  if (ctx.route.byValue) requireCodeFor(ctx, row[ctx.route.byValue.field]);
  return (await present(ctx, ctx.entity, [row]))[0];
}

/**
 * A duplicate is refused with the field's message before the database's unique index would be hit;
 * two saves racing past this check meet the index, and server/db/errors.ts answers the same message.
 */
async function checkUnique(ctx: CallContext, values: Row, id?: number) {
  const { entity: model } = ctx;
  for (const field of model.unique) {
    if (values[field] === undefined || values[field] === null) continue;
    let q = ctx.db.selectFrom(model.table).select(model.primaryKey).where(field, '=', values[field]);
    if (id) q = q.where(model.primaryKey, '!=', id);
    if (await q.executeTakeFirst()) throw fieldRefusal(model, field, 'unique', 409);
  }
}

/**
 * A comma list of another entity's ids (a product's functions, its send and receive libraries) names rows
 * that exist — and that have the values the schema asks of them (x-refWhere) — or is refused.
 */
async function checkIdLists(ctx: CallContext, values: Row) {
  const { entity: model } = ctx;
  for (const [field, f] of Object.entries(model.fields)) {
    if (!f.idsOf || values[field] === null || values[field] === undefined) continue;
    const ids = givenIdList(String(values[field]));
    if (!ids) throw fieldRefusal(model, field, 'format');
    values[field] = ids.length ? ids.join(',') : null;
    if (!ids.length) continue;
    const target = entity(f.idsOf.entity);
    let q = ctx.db.selectFrom(target.table).select((eb) => eb.fn.countAll<number>().as('n')).where((eb) => among(eb.ref(target.primaryKey), ids));
    for (const [k, v] of Object.entries(f.idsOf.where ?? {})) q = v === null ? q.where(k, 'is', null) : q.where(k, '=', v);
    const [{ n }] = await q.execute();
    if (Number(n) !== ids.length) throw fieldRefusal(model, field, 'ref');
  }
}

export async function save(ctx: CallContext) {
  const { entity: model } = ctx;
  const hooks = hooksOf(model);
  const rawId = keyOf(model, ctx.body);
  // The same reading of the body as the permission check's (server/crud/access.ts).
  const creating = creates(model, ctx.body);
  const values = validateBody(model, ctx.body, creating ? 'create' : 'update', ctx.user);
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    let row: Row;
    if (!creating && !isId(rawId)) idOf(model, ctx.body);
    const byField = ctx.route.byValue?.field;
    await checkIdLists(tctx, values);
    if (creating) {
      if (byField) requireCodeFor(ctx, values[byField], true);
      await hooks.beforeSave?.(values, tctx);
      await checkUnique(tctx, values);
      row = await trx.insertInto(model.table).values(values).returningAll().executeTakeFirstOrThrow();
    } else {
      const id = idOf(model, ctx.body);
      const existing = await findScoped(tctx, id);
      if (byField) {
        requireCodeFor(ctx, existing[byField]);
        if (byField in values) requireCodeFor(ctx, values[byField]);
      }
      checkOrder(model, values, existing);
      await hooks.beforeSave?.(values, tctx, existing);
      await checkUnique(tctx, values, id);
      row = Object.keys(values).length
        ? await trx.updateTable(model.table).set(values).where(model.primaryKey, '=', id).returningAll().executeTakeFirstOrThrow()
        : existing;
    }
    await hooks.afterSave?.(row, tctx, creating);
    return (await present(tctx, model, [row]))[0];
  });
}

export async function remove(ctx: CallContext) {
  const { entity: model } = ctx;
  const row = await findScoped(ctx, idOf(model, ctx.body));
  if (ctx.route.byValue) requireCodeFor(ctx, row[ctx.route.byValue.field]);
  await ctx.db.transaction().execute(async (trx) => {
    await hooksOf(model).beforeDelete?.(row, { ...ctx, db: trx });
    await trx.deleteFrom(model.table).where(model.primaryKey, '=', row[model.primaryKey]).execute();
  });
  return null;
}

/** `status`: sets the route's field to the value the body gives, checked against the field's options. */
export async function status(ctx: CallContext) {
  const field = ctx.route.field!;
  const values = validateBody({ ...ctx.entity, required: [field] }, { [field]: ctx.body[field] }, 'update', ctx.user);
  return setFields(ctx, { [field]: values[field] });
}

/** `set`: sets the fields to the constants the resource file gives (e.g. able-device sets fStatus 1). */
export async function set(ctx: CallContext) {
  return setFields(ctx, ctx.route.set!);
}

async function setFields(ctx: CallContext, values: Row) {
  const { entity: model } = ctx;
  const row = await findScoped(ctx, idOf(model, ctx.body));
  if (ctx.route.byValue) requireCodeFor(ctx, row[ctx.route.byValue.field]);
  await ctx.db.updateTable(model.table).set(values).where(model.primaryKey, '=', row[model.primaryKey]).execute();
  return null;
}

export const standardActions: Record<string, (ctx: CallContext) => Promise<unknown>> = { list, all, get, save, delete: remove, status };

export { NotFound };

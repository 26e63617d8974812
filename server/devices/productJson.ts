/**
 * Description libraries: the products that use each one, the rules of their references (query
 * library, parent), what deleting one takes with it, and the demo products' links to the demo
 * libraries of migration 005.
 */
import { sql } from 'kysely';
import { refuse } from '../http/envelope';
import type { CallContext, Services } from '../crud/types';
import type { DB } from '../db';
import { storedIdList } from '../http/guard';

export const RECEIVE = 1;
export const SEND = 2;

/**
 * The names of the products that use each library of a page, in the products' order. The links are comma
 * lists in the product's row, read in the database as storedIdList reads them (items of digits, blanks
 * around them allowed, anything else naming nothing), so only the page's libraries come back rather
 * than every product of the catalogue.
 */
export async function afterRead(rows: Record<string, unknown>[], ctx: Services) {
  if (!rows.length) return;
  const found = await sql<{ id: string; names: string }>`
    select l.id, string_agg(p.f_name, ',' order by p.f_id) as names
    from t_product p
    cross join lateral (
      select distinct btrim(x, E' \t\r\n')::bigint as id
      from unnest(string_to_array(concat_ws(',', p.f_send_json_ids, p.f_receive_json_ids), ',')) x
      where btrim(x, E' \t\r\n') ~ '^[0-9]{1,10}$'
    ) l
    where l.id = any(${rows.map((r) => r.fId as number)}::bigint[])
    group by l.id`.execute(ctx.db);
  const names = new Map(found.rows.map((f) => [Number(f.id), f.names]));
  for (const r of rows) r.productNames = names.get(r.fId as number) ?? '';
}

export async function beforeSave(values: Record<string, unknown>, ctx: CallContext, existing?: Record<string, unknown>) {
  const type = Number(values.fType ?? existing?.fType ?? RECEIVE);
  // Only a send library has a query button; a receive library is itself what a query reads.
  if (type !== SEND) {
    if ('fSearchJsonId' in values || existing?.fSearchJsonId) values.fSearchJsonId = null;
  } else if (values.fSearchJsonId !== undefined && values.fSearchJsonId !== null) {
    const target = await ctx.db.selectFrom('t_product_json').select(['fId', 'fType']).where('fId', '=', values.fSearchJsonId as number).executeTakeFirst();
    if (!target) throw refuse('library.searchMissing');
    if (target.fType !== RECEIVE) throw refuse('library.searchNotReceive');
  }
  if (values.fJsonParentId !== undefined && values.fJsonParentId !== null) {
    if (existing && values.fJsonParentId === existing.fId) throw refuse('library.parentSelf');
    const parent = await ctx.db.selectFrom('t_product_json').select('fId').where('fId', '=', values.fJsonParentId as number).executeTakeFirst();
    if (!parent) throw refuse('library.parentMissing');
  }
}

/**
 * A library still named by a product or a function, or the parent of another library, stays; otherwise its fields
 * go with it and the libraries that queried through it lose their query button.
 */
export async function beforeDelete(row: Record<string, unknown>, ctx: CallContext) {
  const id = row.fId as number;
  const products = await ctx.db.selectFrom('t_product').select(['fName', 'fSendJsonIds', 'fReceiveJsonIds']).execute();
  const user = products.find((p) => storedIdList(p.fSendJsonIds).includes(id) || storedIdList(p.fReceiveJsonIds).includes(id));
  if (user) throw refuse('library.usedByProduct', { name: user.fName });
  const fn = await ctx.db.selectFrom('t_product_function').select('fName').where('fProductJsonId', '=', id).executeTakeFirst();
  if (fn) throw refuse('library.usedByFunction', { name: fn.fName });
  const child = await ctx.db.selectFrom('t_product_json').select('fId').where('fJsonParentId', '=', id).executeTakeFirst();
  if (child) throw refuse('library.hasChildren');
  await ctx.db.updateTable('t_product_json').set({ fSearchJsonId: null }).where('fSearchJsonId', '=', id).execute();
  await ctx.db.updateTable('t_product_json_conf').set({ fJsonSubId: null }).where('fJsonSubId', '=', id).execute();
  await ctx.db.deleteFrom('t_product_json_conf').where('fProductJsonId', '=', id).execute();
}

/** Which demo libraries (by type and bid) each demo product offers, in panel order. */
const DEMO_LINKS: Record<string, { send: string[]; receive: string[] }> = {
  'P-SW-485': { send: ['switch', 'lock', 'refresh'], receive: ['telemetry'] },
  'P-GW-WIFI': { send: ['switch', 'lock', 'set-threshold', 'refresh'], receive: ['telemetry', 'read-threshold'] },
  'P-4G-SW': { send: ['switch', 'lock', 'refresh'], receive: ['telemetry'] },
  'P-GW-4G': { send: ['switch', 'lock', 'set-threshold', 'refresh'], receive: ['telemetry', 'read-threshold'] },
  'P-WIFI-PLUG': { send: ['switch', 'lock', 'refresh'], receive: ['telemetry'] },
  'P-RG-MCCB': { send: ['switch', 'lock', 'set-threshold', 'refresh'], receive: ['telemetry', 'read-threshold'] },
};

/**
 * Gives the demo products the demo libraries. The seed creates products after migrations have run, so
 * migration 005 cannot link them on a fresh database; products that already have links are left alone.
 */
export async function linkDemoLibraries(db: DB): Promise<void> {
  const libraries = await db.selectFrom('t_product_json').select(['fId', 'fType', 'fBid']).orderBy('fId').execute();
  const idOf = (type: number, bid: string) => libraries.find((l) => l.fType === type && l.fBid === bid)?.fId;
  const ids = (type: number, bids: string[]) => bids.map((b) => idOf(type, b)).filter((id): id is number => id !== undefined).join(',');
  const products = await db.selectFrom('t_product').select(['fId', 'fNumber', 'fSendJsonIds', 'fReceiveJsonIds']).where('fNumber', 'in', Object.keys(DEMO_LINKS)).execute();
  for (const p of products) {
    if (p.fSendJsonIds || p.fReceiveJsonIds) continue;
    const links = DEMO_LINKS[p.fNumber as string];
    await db
      .updateTable('t_product')
      .set({ fSendJsonIds: ids(SEND, links.send) || null, fReceiveJsonIds: ids(RECEIVE, links.receive) || null })
      .where('fId', '=', p.fId)
      .execute();
  }
}

/**
 * Product functions (spec 001 §2.10): a named function for devices, gateways or both, described by one
 * description library. Catalogue data: whoever holds the codes sees every row.
 */
import { refuse } from '../http/envelope';
import type { CallContext, Services } from '../crud/types';

export async function beforeSave(values: Record<string, unknown>, ctx: CallContext) {
  if (values.fProductJsonId === undefined || values.fProductJsonId === null) return;
  const library = await ctx.db.selectFrom('t_product_json').select('fId').where('fId', '=', values.fProductJsonId as number).executeTakeFirst();
  if (!library) throw refuse('library.libraryMissing');
}

/** The library's name beside its id (productJsonName of spec 001 §3). */
export async function afterRead(rows: Record<string, unknown>[], ctx: Services) {
  const ids = [...new Set(rows.map((r) => r.fProductJsonId).filter((v): v is number => typeof v === 'number'))];
  const libraries = ids.length ? await ctx.db.selectFrom('t_product_json').select(['fId', 'fName']).where('fId', 'in', ids).execute() : [];
  const name = new Map(libraries.map((l) => [l.fId, l.fName]));
  for (const r of rows) r.productJsonName = typeof r.fProductJsonId === 'number' ? name.get(r.fProductJsonId) ?? null : null;
}

/** A function still offered by a product stays, so the product's function list never points at nothing. */
export async function beforeDelete(row: Record<string, unknown>, ctx: CallContext) {
  const id = Number(row.fId);
  const products = await ctx.db.selectFrom('t_product').select(['fName', 'fFunctionIds']).where('fFunctionIds', 'is not', null).execute();
  const user = products.find((p) => String(p.fFunctionIds ?? '').split(',').map((s) => Number(s.trim())).includes(id));
  if (user) throw refuse('library.functionInUse', { name: user.fName });
}

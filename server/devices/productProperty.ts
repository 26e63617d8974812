/**
 * A product's properties (spec 000 §3, §7): name and value pairs the product drawer edits as one list.
 * /biz/t-product-property/addorupdate takes the whole list and replaces the product's properties with it,
 * so a row removed in the console is removed here; it takes the legacy array of rows, or
 * `{ fProductId, list }` so an emptied list can still say which product it belongs to.
 */
import { refuse } from '../http/envelope';
import { validateBody } from '../crud/validate';
import type { CallContext } from '../crud/types';

type Row = Record<string, unknown>;

/** More rows than any product needs: a bound on what one save writes. */
const MAX_PROPERTIES = 100;

export async function saveAll(ctx: CallContext) {
  const raw = ctx.body.items ?? ctx.body.list;
  if (!Array.isArray(raw)) throw refuse('product.propertiesInvalid');
  if (raw.length > MAX_PROPERTIES) throw refuse('product.propertiesTooMany', { max: MAX_PROPERTIES });
  const rows = raw.map((item) => (item && typeof item === 'object' && !Array.isArray(item) ? (item as Row) : {}));
  const productIds = new Set(rows.map((r) => r.fProductId ?? ctx.body.fProductId).map(Number));
  if (!rows.length && ctx.body.fProductId !== undefined) productIds.add(Number(ctx.body.fProductId));
  if (productIds.size !== 1) throw refuse(productIds.size ? 'product.propertiesOneProduct' : 'product.propertiesProductRequired');
  const fProductId = [...productIds][0];
  if (!Number.isInteger(fProductId) || fProductId <= 0) throw refuse('product.propertiesProductRequired');
  const product = await ctx.db.selectFrom('t_product').select('fId').where('fId', '=', fProductId).executeTakeFirst();
  if (!product) throw refuse('product.notFound');

  const values = rows.map((r) => validateBody(ctx.entity, { ...r, fProductId }, 'create', ctx.user));
  const seen = new Set<string>();
  for (const v of values) {
    const name = String(v.fName);
    if (seen.has(name)) throw refuse('product.propertyDuplicate', { name });
    seen.add(name);
  }
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('t_product_property').where('fProductId', '=', fProductId).execute();
    if (values.length) await trx.insertInto('t_product_property').values(values.map((v) => ({ fProductId, fName: v.fName, fValue: v.fValue }))).execute();
  });
  return values.length;
}

/** Products: their device counts, and no deleting a product that still has devices. */
import { refuse } from '../http/envelope';
import type { CallContext, Services } from '../crud/types';
import { among } from '../crud/query';

export async function afterRead(rows: Record<string, unknown>[], ctx: Services) {
  const ids = rows.map((r) => r.fId as number);
  if (!ids.length) return;
  // From the counters the device table's triggers keep (migration 024), not a count of every device.
  const counts = await ctx.db
    .selectFrom('t_device_count')
    .select(['fProductId', (eb) => eb.fn.sum<number>('fCount').as('n')])
    .where((eb) => among(eb.ref('fProductId'), ids))
    .groupBy('fProductId')
    .execute();
  const byProduct = new Map(counts.map((c) => [c.fProductId, Number(c.n)]));
  for (const r of rows) r.deviceCount = byProduct.get(r.fId) ?? 0;
}

export async function beforeDelete(row: Record<string, unknown>, ctx: CallContext) {
  const device = await ctx.db.selectFrom('t_device').select('fId').where('fProductId', '=', row.fId as number).executeTakeFirst();
  if (device) throw refuse('product.hasDevices');
}

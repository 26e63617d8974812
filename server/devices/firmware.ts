/**
 * Firmware versions (spec 000 §3, §5): a version belongs to one product; its upgrade records go with it.
 */
import { refuse } from '../http/envelope';
import type { CallContext } from '../crud/types';

type Row = Record<string, unknown>;

export async function beforeSave(values: Row, ctx: CallContext, existing?: Row) {
  const productId = values.fProductId ?? existing?.fProductId;
  if (values.fProductId !== undefined || !existing) {
    const product = await ctx.db.selectFrom('t_product').select('fId').where('fId', '=', Number(productId)).executeTakeFirst();
    if (!product) throw refuse('firmware.productMissing');
  }
  // The upgrade command carries the signature; devices compare it in lower case.
  if (typeof values.fMd5Sign === 'string') values.fMd5Sign = values.fMd5Sign.toLowerCase();
}

export async function beforeDelete(row: Row, ctx: CallContext) {
  await ctx.db.deleteFrom('t_firmware_update_device').where('fFirmwareId', '=', row.fId as number).execute();
}

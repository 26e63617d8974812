/** The one door of the device drawer's calls to a device: the user's row scope. */
import { refuse } from '../http/envelope';
import { entity, scoped } from '../crud/engine';
import { containing } from '../crud/query';
import type { Query, Services, User } from '../crud/types';

export interface VisibleDevice {
  fId: number;
  fNumber: string;
  fName: string | null;
  fTypeId: number | null;
  fProductId: number | null;
  fUserId: number | null;
  tOnline: number | null;
}

/** The device if the user may see it; one it may not see is answered as missing, never as forbidden. */
export async function visibleDevice(ctx: Services, user: User, id: unknown): Promise<VisibleDevice> {
  const fId = Number(id);
  if (!Number.isInteger(fId) || fId <= 0) throw refuse('device.noneChosen');
  const row = await scoped(ctx, entity('device'), user).where('t_device.fId', '=', fId).executeTakeFirst();
  if (!row) throw refuse('device.notFound');
  return row as VisibleDevice;
}

/** A device's type: its own fTypeId, else its product's fDeviceType (as the console reads it). */
export async function deviceType(ctx: Services, device: Pick<VisibleDevice, 'fId' | 'fTypeId'>): Promise<number> {
  if (device.fTypeId !== null && device.fTypeId !== undefined) return Number(device.fTypeId);
  const row = await ctx.db
    .selectFrom('t_device')
    .innerJoin('t_product', 't_product.fId', 't_device.fProductId')
    .select('t_product.fDeviceType')
    .where('t_device.fId', '=', device.fId)
    .executeTakeFirst();
  return Number(row?.fDeviceType ?? 0);
}

/** Whether a device keyword was given: a list narrowed by it is a text search (`pageOf`'s `searching`). */
export const hasKeyword = (keyword: unknown) => String(keyword ?? '').trim() !== '';

/**
 * Devices of `query` whose number or name holds the keyword (by 1: the number only, 2: the name only, as
 * the legacy pickers' select_type says); all of them without a keyword.
 */
export function matchingKeyword(query: Query, keyword: unknown, by?: unknown): Query {
  if (!hasKeyword(keyword)) return query;
  const like = containing(String(keyword).trim());
  const only = String(by ?? '');
  return query.where((eb) =>
    only === '1' ? eb('t_device.fNumber', 'ilike', like) : only === '2' ? eb('t_device.fName', 'ilike', like) : eb.or([eb('t_device.fNumber', 'ilike', like), eb('t_device.fName', 'ilike', like)]),
  );
}

/** The devices the user sees, narrowed by the keyword (number or name). */
export const devicesMatching = (ctx: Services, user: User, keyword: unknown, by?: unknown): Query => matchingKeyword(scoped(ctx, entity('device'), user), keyword, by);

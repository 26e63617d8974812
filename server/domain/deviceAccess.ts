/** The one door of the device drawer's calls to a device: the user's row scope. */
import { Refusal } from '../http/envelope';
import { entity, scoped } from '../crud/engine';
import type { Services, User } from '../crud/types';

export interface VisibleDevice {
  fId: number;
  fNumber: string;
  fName: string | null;
  fTypeId: number | null;
  fUserId: number | null;
  tOnline: number | null;
}

/** The device if the user may see it; one it may not see is answered as missing, never as forbidden. */
export async function visibleDevice(ctx: Services, user: User, id: unknown): Promise<VisibleDevice> {
  const fId = Number(id);
  if (!Number.isInteger(fId) || fId <= 0) throw new Refusal('请先选择设备');
  const row = await scoped(ctx, entity('device'), user).where('t_device.fId', '=', fId).executeTakeFirst();
  if (!row) throw new Refusal('设备不存在或无权操作');
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

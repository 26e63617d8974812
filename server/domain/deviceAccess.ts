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

/**
 * Link tables that file devices under something: t_group_device under a group, t_sys_user_room_device
 * under a room. Deleting a device leaves its links behind, so only links to a device that still exists
 * count: a group or room holding nothing else is empty, and deleting it takes those links along.
 */
import type { PlainReasonCode } from '../../contract/generated/reasons';
import type { DB } from '../db';
import { refuse } from '../http/envelope';

export interface DeviceLinks {
  table: string;
  /** The column naming what the devices are filed under (fGroupId, fRoomId). */
  holder: string;
}

/** Before a holder is deleted: refused with `refusal` while a device is filed under it, else its links left go. */
export async function releaseDeviceLinks(db: DB, links: DeviceLinks, holderId: number, refusal: PlainReasonCode) {
  const bound = await db
    .selectFrom(`${links.table} as l`)
    .innerJoin('t_device as d', 'd.fId', 'l.fDeviceId')
    .select('l.fId')
    .where(`l.${links.holder}`, '=', holderId)
    .executeTakeFirst();
  if (bound) throw refuse(refusal);
  // Links to devices deleted since are all that can be left.
  await db.deleteFrom(links.table).where(links.holder, '=', holderId).execute();
}

/** How many devices are filed under each of the holders; a holder with none is absent. */
export async function deviceCounts(db: DB, links: DeviceLinks, holderIds: number[]): Promise<Map<number, number>> {
  const counts = await db
    .selectFrom(`${links.table} as l`)
    .innerJoin('t_device as d', 'd.fId', 'l.fDeviceId')
    .select([`l.${links.holder} as holder`, (eb) => eb.fn.countAll<number>().as('n')])
    .where(`l.${links.holder}`, 'in', holderIds)
    .groupBy(`l.${links.holder}`)
    .execute();
  return new Map(counts.map((c) => [Number(c.holder), Number(c.n)]));
}

/**
 * Rooms of a rental house. The status is the lease state of the room (leaseStatus: 1 not rented,
 * 2 renting, 3 returned) read from its leases, never typed in; the house's resident count follows
 * the renting leases. A room somebody rents is not deleted.
 */
import { refuse } from '../http/envelope';
import { maskPhone } from '../../contract/personal';
import type { CallContext, Services } from '../crud/types';

type Row = Record<string, unknown>;

export async function beforeSave(values: Row, ctx: CallContext, existing?: Row) {
  const houseId = Number(values.fHouseId ?? existing?.fHouseId);
  const house = Number.isInteger(houseId) && houseId > 0 ? await ctx.db.selectFrom('t_house_info').select('fHouseId').where('fHouseId', '=', houseId).executeTakeFirst() : undefined;
  if (!house) throw refuse('rentalRoom.houseMissing');
  if (existing && houseId !== Number(existing.fHouseId)) throw refuse('rentalRoom.houseChanged');
  const room = String(values.fRoom ?? existing?.fRoom ?? '').trim();
  let same = ctx.db.selectFrom('t_rental_room').select('fId').where('fHouseId', '=', houseId).where('fRoom', '=', room);
  if (existing) same = same.where('fId', '<>', existing.fId as number);
  if (await same.executeTakeFirst()) throw refuse('rentalRoom.numberTaken');
  values.fRoom = room;
  if (!existing) values.fStatus = 1;
}

export async function beforeDelete(row: Row, ctx: CallContext) {
  const renting = await ctx.db.selectFrom('t_tenant_house').select('fId').where('fRoomId', '=', row.fId as number).where('fStatus', '=', 2).executeTakeFirst();
  if (renting) throw refuse('rentalRoom.rented');
  await ctx.db.deleteFrom('t_tenant_house').where('fRoomId', '=', row.fId as number).execute();
}

/** fStatus from the leases, and tenants: the current tenants' names with the phone masked 3+4. */
export async function afterRead(rows: Row[], ctx: Services) {
  const ids = rows.map((r) => Number(r.fId));
  if (!ids.length) return;
  const leases = await ctx.db
    .selectFrom('t_tenant_house as l')
    .leftJoin('t_sys_user as u', 'u.fId', 'l.fUserId')
    .select(['l.fRoomId', 'l.fStatus', 'u.fChineseName', 'u.fPhone'])
    .where('l.fRoomId', 'in', ids)
    .orderBy('l.fStartTime')
    .execute();
  for (const r of rows) {
    const mine = leases.filter((l) => Number(l.fRoomId) === Number(r.fId));
    const renting = mine.filter((l) => Number(l.fStatus) === 2);
    r.fStatus = renting.length ? 2 : mine.some((l) => Number(l.fStatus) === 3) ? 3 : 1;
    r.tenants = renting.map((l) => `${l.fChineseName ?? ''}${l.fPhone ? ` (${maskPhone(String(l.fPhone))})` : ''}`).join('、');
  }
}

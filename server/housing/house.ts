/**
 * Houses of the address model; the rental houses (fRental 1) are kept from the 出租屋 screen. Who sees
 * which house is declared by resources/house.resource.json (the caller's jurisdiction; administrators
 * every house); writes need house:add/edit/del. The
 * community, street and district of a house are those of its building, so the form only picks the
 * building and the filters by district, street and community stay true.
 */
import { refuse } from '../http/envelope';
import type { CallContext, Services } from '../crud/types';

type Row = Record<string, unknown>;

export async function beforeSave(values: Row, ctx: CallContext, existing?: Row) {
  const buildId = Number(values.fBuildId ?? existing?.fBuildId);
  const place = Number.isInteger(buildId) && buildId > 0
    ? await ctx.db
        .selectFrom('t_build_info as b')
        .innerJoin('t_community as c', 'c.id', 'b.fCommunityid')
        .innerJoin('t_street_info as s', 's.fStreetId', 'c.fStreet')
        .select(['b.id', 'c.id as communityId', 's.fStreetId', 's.fStreetName', 's.fAreaId'])
        .where('b.id', '=', buildId)
        .executeTakeFirst()
    : undefined;
  if (!place) throw refuse('house.buildingMissing');
  Object.assign(values, { fBuildId: place.id, fCommunityId: place.communityId, fStreetId: place.fStreetId, fStreetName: place.fStreetName, fAreaId: place.fAreaId });
  if (!existing) values.fRental ??= 1;
}

/** A house with rooms is not deleted: its rooms (and their leases) go first, on purpose. */
export async function beforeDelete(row: Row, ctx: CallContext) {
  const room = await ctx.db.selectFrom('t_rental_room').select('fId').where('fHouseId', '=', row.fHouseId as number).executeTakeFirst();
  if (room) throw refuse('house.hasRooms');
}

/** roomCount: the rooms of each house; fId repeats fHouseId for the generic list and form. */
export async function afterRead(rows: Row[], ctx: Services) {
  const ids = rows.map((r) => Number(r.fHouseId));
  if (!ids.length) return;
  const counts = await ctx.db
    .selectFrom('t_rental_room')
    .select(['fHouseId', (eb) => eb.fn.countAll<number>().as('n')])
    .where('fHouseId', 'in', ids)
    .groupBy('fHouseId')
    .execute();
  const by = new Map(counts.map((c) => [Number(c.fHouseId), Number(c.n)]));
  for (const r of rows) Object.assign(r, { fId: r.fHouseId, roomCount: by.get(Number(r.fHouseId)) ?? 0 });
}

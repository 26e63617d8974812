/**
 * A staff member's jurisdiction (辖区): the regions and streets whose rental houses — and the alarms
 * raised in them — the member sees. It is set on the system user (spec 002 §4: `fAreaIds` and `streets`,
 * comma lists of t_area_info and t_street_info codes); a region of any level covers the regions under it
 * (a city its districts). The cached caller (server/auth/sessions.ts) holds it worked out, the regions'
 * descendants included; migration 034 announces a change of either list or of the region tree, so the
 * cache is read again.
 *
 * Administrators see everything and need none. An agent sees the alarms of its own devices and those of
 * its jurisdiction; anyone else only the alarms of their jurisdiction. One-touch alerts follow the people
 * renting in it. The rental houses, their rooms, leases, devices and people, and the tenants, are seen by
 * jurisdiction as their resources declare (server/crud/scope.ts): a member without one sees none.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db';
import { givenIdList, storedIdList } from '../http/guard';
import { refuse } from '../http/envelope';
import type { PlainReasonCode } from '../../contract/generated/reasons';
import { isAdmin, type Jurisdiction, type User } from '../crud/types';

export type { Jurisdiction };


/** The chosen regions with every region under them; nothing chosen, nothing at all. */
export async function loadJurisdiction(db: DB, stored: { fAreaIds?: unknown; streets?: unknown }): Promise<Jurisdiction | undefined> {
  const chosen = storedIdList(stored.fAreaIds);
  const streets = storedIdList(stored.streets);
  if (!chosen.length && !streets.length) return undefined;
  const areas = chosen.length
    ? (
        await sql<{ code: number }>`
          WITH RECURSIVE under(code) AS (
            SELECT f_area_id FROM t_area_info WHERE f_area_id = ANY(${chosen}::int[])
            UNION SELECT a.f_area_id FROM t_area_info a JOIN under u ON a.f_high_area_id = u.code)
          SELECT code FROM under`.execute(db)
      ).rows.map((r) => Number(r.code))
    : [];
  return { areas, streets };
}

/** Whether a row with this region and street lies in the jurisdiction. */
export function covers(j: Jurisdiction | undefined, row: { fAreaId?: unknown; fStreetId?: unknown }): boolean {
  if (!j) return false;
  return j.areas.includes(Number(row.fAreaId)) || j.streets.includes(Number(row.fStreetId));
}

/** The condition "in the jurisdiction" on a table's region and street columns (false without one). */
export function withinJurisdiction(eb: ExpressionBuilder<any, any>, table: string, j: Jurisdiction | undefined): Expression<SqlBool> {
  if (!j) return sql<SqlBool>`false`;
  const parts: Expression<SqlBool>[] = [];
  if (j.areas.length) parts.push(eb(`${table}.fAreaId`, '=', sql<number>`any(${j.areas}::int[])`));
  if (j.streets.length) parts.push(eb(`${table}.fStreetId`, '=', sql<number>`any(${j.streets}::int[])`));
  return eb.or(parts);
}

/** The people with a current lease (status 2) of a house in the jurisdiction, as a subquery of user ids. */
export function rentingIn(eb: ExpressionBuilder<any, any>, j: Jurisdiction) {
  return eb
    .selectFrom('t_tenant_house as l')
    .innerJoin('t_house_info as h', 'h.fHouseId', 'l.fHouseId')
    .select('l.fUserId')
    .where('l.fStatus', '=', 2)
    .where((w) => withinJurisdiction(w, 'h', j));
}

/** Who sees an alarm (server/security/alarm.ts scope says the same in SQL): for the live stream. */
export function seesAlarm(user: User, alarm: { ownerId: number | null; fAreaId?: unknown; fStreetId?: unknown }): boolean {
  if (isAdmin(user)) return true;
  if (user.fAdmin === 2 && alarm.ownerId === user.fId) return true;
  return covers(user.jurisdiction, alarm);
}

/**
 * The users whose jurisdiction covers a region and street (an alarm's addressees): their lists are
 * matched against the region and every region above it.
 */
export function coveringUsers(db: DB, fAreaId: number | null, fStreetId: number | null) {
  return sql<{ fId: number }>`
    WITH RECURSIVE above(code) AS (
      SELECT f_area_id FROM t_area_info WHERE f_area_id = ${fAreaId ?? -1}
      UNION SELECT a.f_high_area_id FROM t_area_info a JOIN above ON a.f_area_id = above.code WHERE a.f_high_area_id <> 0)
    SELECT u.f_id AS "fId" FROM t_sys_user u
    WHERE (u.f_area_ids ~ '^[0-9]+(,[0-9]+)*$' AND string_to_array(u.f_area_ids, ',')::int[] && ARRAY(SELECT code FROM above))
       OR (u.streets ~ '^[0-9]+(,[0-9]+)*$' AND ${fStreetId ?? -1}::int = ANY(string_to_array(u.streets, ',')::int[]))`.execute(db);
}

/** The codes of a list a save writes, each an existing one; null to clear, undefined when absent. */
type Refused = PlainReasonCode & `jurisdiction.${string}`;

async function checkedCodes(db: DB, value: unknown, table: 't_area_info' | 't_street_info', column: 'fAreaId' | 'fStreetId', malformed: Refused, missing: Refused): Promise<string | null | undefined> {
  if (value === undefined) return undefined;
  const ids = givenIdList(value);
  if (!ids) throw refuse(malformed);
  if (!ids.length) return null;
  const known = await db.selectFrom(table).select(column).where(column, 'in', ids).execute();
  if (known.length !== ids.length) throw refuse(missing);
  if (ids.join(',').length > 500) throw refuse('jurisdiction.tooMany');
  return ids.join(',');
}

/**
 * The lists a save writes, checked: ids only, each an existing region or street; stored as the comma
 * lists the legacy user carries (null when empty). Absent keys are left as they are.
 */
export async function checkJurisdiction(db: DB, body: Record<string, unknown>): Promise<{ fAreaIds?: string | null; streets?: string | null }> {
  const [fAreaIds, streets] = [
    await checkedCodes(db, body.fAreaIds, 't_area_info', 'fAreaId', 'jurisdiction.areasMalformed', 'jurisdiction.areasMissing'),
    await checkedCodes(db, body.streets, 't_street_info', 'fStreetId', 'jurisdiction.streetsMalformed', 'jurisdiction.streetsMissing'),
  ];
  return { ...(fAreaIds !== undefined ? { fAreaIds } : {}), ...(streets !== undefined ? { streets } : {}) };
}

/** The names of users' regions and streets, for the form's chips: code → name. */
export async function jurisdictionNames(db: DB, rows: { fAreaIds?: unknown; streets?: unknown }[]): Promise<{ areas: Map<number, string>; streets: Map<number, string> }> {
  const areaIds = [...new Set(rows.flatMap((r) => storedIdList(r.fAreaIds)))];
  const streetIds = [...new Set(rows.flatMap((r) => storedIdList(r.streets)))];
  const [areas, streets] = await Promise.all([
    areaIds.length ? db.selectFrom('t_area_info').select(['fAreaId', 'fAreaName']).where('fAreaId', 'in', areaIds).execute() : [],
    streetIds.length ? db.selectFrom('t_street_info').select(['fStreetId', 'fStreetName']).where('fStreetId', 'in', streetIds).execute() : [],
  ]);
  return {
    areas: new Map(areas.map((a) => [Number(a.fAreaId), String(a.fAreaName)])),
    streets: new Map(streets.map((s) => [Number(s.fStreetId), String(s.fStreetName)])),
  };
}

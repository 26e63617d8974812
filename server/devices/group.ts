/**
 * Device groups (spec 000 §2–§7): a tree of groups, each owned by an agent. Administrators see every
 * group, anyone else the groups they own. A group is deleted only once it has no sub-groups and no
 * devices, so a click can never take a subtree or its bindings with it.
 */
import { sql } from 'kysely';
import { refuse } from '../http/envelope';
import { isAdmin } from '../crud/types';
import type { CallContext, Query, Services, User } from '../crud/types';
import { deviceCounts, releaseDeviceLinks, type DeviceLinks } from '../crud/deviceLinks';

type Row = Record<string, unknown>;

/** The devices filed under each group. */
const GROUP_DEVICES: DeviceLinks = { table: 't_group_device', holder: 'fGroupId' };

export function scope(query: Query, user: User): Query {
  if (isAdmin(user)) return query;
  return query.where('t_group.fUserId', '=', user.fId);
}

/** The ids of a group and everything below it. */
async function subtree(ctx: CallContext, id: number): Promise<Set<number>> {
  const { rows } = await sql<{ fId: number }>`
    with recursive tree as (
      select f_id from t_group where f_id = ${id}
      union
      select g.f_id from t_group g join tree t on g.f_parent_id = t.f_id
    )
    select f_id from tree`.execute(ctx.db);
  return new Set(rows.map((r) => Number(r.fId)));
}

export async function beforeSave(values: Row, ctx: CallContext, existing?: Row) {
  if (values.fParentId === null || (!existing && values.fParentId === undefined)) values.fParentId = 0;
  const parentId = Number(values.fParentId ?? existing?.fParentId ?? 0);
  if (existing && parentId === Number(existing.fId)) throw refuse('group.parentSelf');
  if (parentId > 0) {
    const parent = await scope(ctx.db.selectFrom('t_group').select('t_group.fId'), ctx.user).where('t_group.fId', '=', parentId).executeTakeFirst();
    if (!parent) throw refuse('group.parentMissing');
    if (existing && (await subtree(ctx, Number(existing.fId))).has(parentId)) throw refuse('group.parentInSubtree');
  }
  if (!isAdmin(ctx.user)) {
    if (!existing) values.fUserId = ctx.user.fId;
  } else if (values.fUserId !== undefined && values.fUserId !== null) {
    const agent = await ctx.db.selectFrom('t_sys_user').select('fId').where('fId', '=', values.fUserId as number).where('fAdmin', '=', 2).executeTakeFirst();
    if (!agent) throw refuse('group.agentMissing');
  }
}

export async function beforeDelete(row: Row, ctx: CallContext) {
  const child = await ctx.db.selectFrom('t_group').select('fId').where('fParentId', '=', row.fId as number).executeTakeFirst();
  if (child) throw refuse('group.hasChildren');
  await releaseDeviceLinks(ctx.db, GROUP_DEVICES, row.fId as number, 'group.hasDevices');
}

/** deviceCount: the devices bound to each group (links to deleted devices do not count). */
export async function afterRead(rows: Row[], ctx: Services) {
  const ids = rows.map((r) => r.fId as number);
  if (!ids.length) return;
  const byGroup = await deviceCounts(ctx.db, GROUP_DEVICES, ids);
  for (const r of rows) r.deviceCount = byGroup.get(Number(r.fId)) ?? 0;
}

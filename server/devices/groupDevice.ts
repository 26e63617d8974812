/**
 * Which devices a group holds. A link is visible when its group is; binding needs both the group and
 * the device in the caller's scope, so nobody files a device they cannot see.
 */
import { refuse } from '../http/envelope';
import type { CallContext, Query, User } from '../crud/types';
import { entity, pageAnswer, pageOf, present, scoped } from '../crud/engine';
import { pageRequest } from '../crud/query';
import { batchRows } from '../http/guard';
import { devicesMatching, hasKeyword } from './deviceAccess';
import { scope as groupScope } from './group';

type Row = Record<string, unknown>;

export function scope(query: Query, user: User): Query {
  return query.where((eb) => eb('t_group_device.fGroupId', 'in', groupScope(eb.selectFrom('t_group').select('t_group.fId') as Query, user)));
}

async function requireGroup(ctx: CallContext, groupId: unknown): Promise<number> {
  const id = Number(groupId);
  const group = Number.isInteger(id) && id > 0 ? await scoped(ctx, entity('group'), ctx.user).where('t_group.fId', '=', id).executeTakeFirst() : undefined;
  if (!group) throw refuse('group.notFound');
  return id;
}

const groupIdOf = (ctx: CallContext) => {
  const c = (ctx.body.condition ?? {}) as Row;
  return c.group_id ?? c.groupId ?? c.fGroupId ?? ctx.body.fGroupId;
};


const keywordOf = (ctx: CallContext) => ((ctx.body.condition ?? {}) as Row).keyword;

/** A page of devices, newest first, 10 rows unless asked otherwise. */
function page(ctx: CallContext, query: Query) {
  const req = pageRequest({ ...ctx.entity, pageSize: 10 }, ctx.body);
  return pageOf(ctx, query, req, [{ column: 't_device.fId', asc: false }], { searching: hasKeyword(keywordOf(ctx)) });
}

/** The group's links, each with its device (tDevice), for the devices the caller sees. */
export async function devicesByGroup(ctx: CallContext) {
  const groupId = await requireGroup(ctx, groupIdOf(ctx));
  const devices = devicesMatching(ctx, ctx.user, keywordOf(ctx)).clearSelect().select('t_device.fId');
  const q = ctx.db
    .selectFrom('t_group_device')
    .innerJoin('t_device', 't_device.fId', 't_group_device.fDeviceId')
    .selectAll('t_group_device')
    .where('t_group_device.fGroupId', '=', groupId)
    .where('t_group_device.fDeviceId', 'in', devices);
  const p = await page(ctx, q);
  const records = await present(ctx, ctx.entity, p.rows);
  const byId = new Map((await present(ctx, entity('device'), records.map((r) => r.tDevice as Row).filter(Boolean))).map((d) => [d.fId, d]));
  for (const r of records) r.tDevice = byId.get(r.fDeviceId) ?? r.tDevice;
  return pageAnswer(p, records);
}

/** Devices the caller sees that the group does not hold yet: the bind picker. */
export async function devicesNotInGroup(ctx: CallContext) {
  const groupId = await requireGroup(ctx, groupIdOf(ctx));
  const q = devicesMatching(ctx, ctx.user, keywordOf(ctx)).where('t_device.fId', 'not in', ctx.db.selectFrom('t_group_device').select('t_group_device.fDeviceId').where('t_group_device.fGroupId', '=', groupId));
  const p = await page(ctx, q);
  return pageAnswer(p, await present(ctx, entity('device'), p.rows));
}

/** `[{ fDeviceId, fGroupId }]`: files the devices; ones already in the group stay as they are. */
export async function bindDevices(ctx: CallContext) {
  const items = batchRows(ctx.body, 'group.noneToBind');
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    let added = 0;
    for (const item of items) {
      const groupId = await requireGroup(tctx, item.fGroupId);
      const deviceId = Number(item.fDeviceId);
      const device = Number.isInteger(deviceId) && deviceId > 0 ? await scoped(tctx, entity('device'), ctx.user).where('t_device.fId', '=', deviceId).executeTakeFirst() : undefined;
      if (!device) throw refuse('device.notFound');
      const exists = await trx.selectFrom('t_group_device').select('fId').where('fGroupId', '=', groupId).where('fDeviceId', '=', deviceId).executeTakeFirst();
      if (exists) continue;
      await trx.insertInto('t_group_device').values({ fGroupId: groupId, fDeviceId: deviceId }).execute();
      added++;
    }
    return { added };
  });
}

/** Link rows (`fId`, or `fGroupId` with `fDeviceId`) of groups the caller sees are removed. */
export async function unbindDevices(ctx: CallContext) {
  const items = batchRows(ctx.body, 'group.noneToUnbind');
  return ctx.db.transaction().execute(async (trx) => {
    let removed = 0;
    for (const item of items) {
      let q = scope(trx.selectFrom('t_group_device').select('t_group_device.fId'), ctx.user);
      if (item.fId !== undefined && item.fId !== null && item.fId !== '') q = q.where('t_group_device.fId', '=', Number(item.fId));
      else q = q.where('t_group_device.fGroupId', '=', Number(item.fGroupId)).where('t_group_device.fDeviceId', '=', Number(item.fDeviceId));
      const link = await q.executeTakeFirst();
      if (!link) throw refuse('group.linkMissing');
      await trx.deleteFrom('t_group_device').where('fId', '=', link.fId as number).execute();
      removed++;
    }
    return { removed };
  });
}

/**
 * Use/remove (spec 000 §3 canUse/isUse, §4): an administrator or agent sees devices by role, and adds
 * one to its own account (the devices its app shows as "mine") through a t_user_device row, or removes
 * it again. An ordinary user's account is the share table itself, so removing would only hide the device
 * for good; those rows are managed by sharing, and canUse stays 0 for them.
 */
import type { FastifyInstance } from 'fastify';
import { Answer, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { reason, refuse } from '../http/envelope';
import { entity, pageAnswer, pageOf, present, scoped } from '../crud/engine';
import { applyFilters, pageAt, searchesText } from '../crud/query';
import type { Services, User } from '../crud/types';
import { visibleDevice } from './deviceAccess';

/** Whether the user's own account is something separate from what the user sees. */
export const mayUse = (user: User) => user.fAdmin === 1 || user.fAdmin === 2;

/** Rows of a device list carry canUse and isUse for the caller. */
export async function afterRead(rows: Record<string, unknown>[], ctx: Services) {
  const user = (ctx as Services & { user?: User }).user;
  const ids = rows.map((r) => r.fId as number).filter((id) => Number.isInteger(id));
  const used = new Set<number>();
  if (user && ids.length) {
    const found = await ctx.db.selectFrom('t_user_device').select('fDeviceId').where('fUserId', '=', user.fId).where('fDeviceId', 'in', ids).execute();
    for (const f of found) used.add(f.fDeviceId as number);
  }
  const can = user && mayUse(user) ? 1 : 0;
  for (const r of rows) {
    r.canUse = can;
    r.isUse = used.has(r.fId as number) ? 1 : 0;
  }
}

export function registerUseRoutes(app: FastifyInstance, ctx: RouteContext) {
  registerCall(app, ctx, {
    call: 'device.mine',
    handler: async ({ user, body }) => {
      const model = entity('device');
      const condition = body.condition && typeof body.condition === 'object' ? (body.condition as Record<string, unknown>) : {};
      const mine = applyFilters(scoped(ctx, model, user!), model, condition).where((eb) =>
        eb('t_device.fId', 'in', eb.selectFrom('t_user_device').select('t_user_device.fDeviceId').where('t_user_device.fUserId', '=', user!.fId)),
      );
      const p = await pageOf(ctx, mine, pageAt(body, 10, 10000), [{ column: 't_device.fId', asc: false }], { searching: searchesText(model, condition) });
      return pageAnswer(p, await present({ ...ctx, user: user! } as Services, model, p.rows));
    },
  });

  registerCall(app, ctx, {
    call: 'device.use',
    write: true,
    handler: async ({ user, body }) => {
      const device = await visibleDevice(ctx, user!, body.fId ?? body.deviceId);
      if (!mayUse(user!)) throw refuse('use.notAllowed');
      const existing = await ctx.db.selectFrom('t_user_device').select('fId').where('fUserId', '=', user!.fId).where('fDeviceId', '=', device.fId).executeTakeFirst();
      if (existing) {
        await ctx.db.deleteFrom('t_user_device').where('fId', '=', existing.fId).execute();
        return new Answer({ isUse: 0 }, reason('use.removed'));
      }
      await ctx.db
        .insertInto('t_user_device')
        .values({ fUserId: user!.fId, fDeviceId: device.fId, fOwner: 1 })
        .onConflict((oc) => oc.columns(['fUserId', 'fDeviceId']).doNothing())
        .execute();
      return new Answer({ isUse: 1 }, reason('use.added'));
    },
  });
}

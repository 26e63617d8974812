/**
 * The gateway page (spec 000 §2, §7): gateway cards (device types 2 and 4) with their first child
 * devices, a child list per gateway, the picker of devices that may be bound, and binding itself. A
 * binding is a row of t_gateway_device (one gateway per child); the command service reads it on every
 * command, so a child is reached through its new gateway at once.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Answer, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { reason, refuse } from '../http/envelope';
import type { Query, Services, User } from '../crud/types';
import { entity, pageAnswer, pageOf, present, scoped } from '../crud/engine';
import { devicesMatching, hasKeyword, matchingKeyword } from './deviceAccess';
import { pageAt } from '../crud/query';
import { batchRows } from '../http/guard';

type Row = Record<string, unknown>;

export const GATEWAY_TYPES = [2, 4];
/** Spec 000 §9: gateway cards 8 a page, children 4, the picker 10. */
const CARD_SIZE = 8;
const CHILD_SIZE = 4;
const PICKER_SIZE = 10;

const conditionOf = (body: Row) => (body.condition && typeof body.condition === 'object' ? (body.condition as Row) : {});

function devices(ctx: Services, user: User): Query {
  return scoped(ctx, entity('device'), user);
}

/** A page of devices, oldest first: `{ current, size }` of the body, `defaultSize` without a size. */
function paged(ctx: Services, query: Query, body: Row, defaultSize: number, searching: boolean, huge = false) {
  // The picker has no time to narrow by: a keyword or a device type narrows it.
  return pageOf(ctx, query, pageAt(body, defaultSize, 10000), [{ column: 't_device.fId', asc: true }], { searching, huge, byTime: false });
}

/** The children of a gateway (or of several) the user sees, each with the link's id and its gateway. */
function children(ctx: Services, user: User, gatewayIds: number | number[]): Query {
  return devices(ctx, user)
    .innerJoin('t_gateway_device', 't_gateway_device.fDeviceId', 't_device.fId')
    .select(['t_gateway_device.fId as gatewayDeviceId', 't_gateway_device.fGatewayId'])
    .where('t_gateway_device.fGatewayId', 'in', [gatewayIds].flat());
}

/** What a missing gateway refuses, by the call that looked for it. */
type GatewayMissing = 'gateway.missingForQuery' | 'gateway.missingForBind' | 'gateway.missingForUnbind';

async function requireGateway(ctx: Services, user: User, id: unknown, missing: GatewayMissing): Promise<Row> {
  const gatewayId = Number(id);
  const gateway = Number.isInteger(gatewayId) && gatewayId > 0
    ? await devices(ctx, user).where('t_device.fId', '=', gatewayId).where('t_device.fTypeId', 'in', GATEWAY_TYPES).executeTakeFirst()
    : undefined;
  if (!gateway) throw refuse(missing);
  return gateway;
}

/** Gateway cards: `{ current, size, condition: { keyword, select_type (1 number, 2 name) } }`. */
export async function gatewayCards(ctx: Services, user: User, body: Row) {
  const c = conditionOf(body);
  const q = devicesMatching(ctx, user, c.keyword, c.select_type).where('t_device.fTypeId', 'in', GATEWAY_TYPES);
  const p = await paged(ctx, q, body, CARD_SIZE, hasKeyword(c.keyword));
  const records = await present(ctx, entity('device'), p.rows);
  // Every card's children in two statements, whatever the number of cards: how many each gateway has,
  // and the first CHILD_SIZE of each (ranked per gateway).
  const ids = records.map((g) => g.fId as number);
  const all = children(ctx, user, ids);
  const [counts, first] = ids.length
    ? await Promise.all([
        all.clearSelect().select(['t_gateway_device.fGatewayId', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('t_gateway_device.fGatewayId').execute(),
        ctx.db
          .selectFrom(all.select(sql<number>`row_number() over (partition by t_gateway_device.f_gateway_id order by t_device.f_id)`.as('childRank')).as('c'))
          .selectAll('c')
          .where('c.childRank', '<=', CHILD_SIZE)
          .orderBy('c.fId')
          .execute(),
      ])
    : [[], []];
  const shown = await present(ctx, entity('device'), first.map(({ childRank: _, ...row }) => row));
  for (const gateway of records) {
    gateway.gatewayDeviceLength = Number(counts.find((c) => c.fGatewayId === gateway.fId)?.n ?? 0);
    gateway.tGatewayDevices = shown.filter((c) => c.fGatewayId === gateway.fId);
  }
  return pageAnswer(p, records);
}

/** One gateway's children, 4 a page: `{ current, size, condition: { gateway_id } }`. */
export async function gatewayChildren(ctx: Services, user: User, body: Row) {
  const c = conditionOf(body);
  const gateway = await requireGateway(ctx, user, c.gateway_id ?? c.gatewayId ?? body.gateway_id, 'gateway.missingForQuery');
  const p = await paged(ctx, children(ctx, user, gateway.fId as number), body, CHILD_SIZE, false);
  return pageAnswer(p, await present(ctx, entity('device'), p.rows));
}

/**
 * Devices that may become a gateway's child: seen by the user, of the asked type (default 1, the 485
 * device), not a gateway, not bound anywhere yet; optionally by name, number and group.
 */
export async function bindableDevices(ctx: Services, user: User, body: Row) {
  const c = conditionOf(body);
  let q = devices(ctx, user)
    .where('t_device.fTypeId', 'not in', GATEWAY_TYPES)
    // An anti-join (not `not in`), which the planner estimates well: the picker's estimated total is its.
    .where((eb) => eb.not(eb.exists(eb.selectFrom('t_gateway_device').select('t_gateway_device.fId').whereRef('t_gateway_device.fDeviceId', '=', 't_device.fId'))));
  const type = Number(c.type_id ?? 1);
  if (Number.isInteger(type) && type > 0) q = q.where('t_device.fTypeId', '=', type);
  q = matchingKeyword(matchingKeyword(q, c.name, 2), c.number, 1);
  const groupId = Number(c.group_id);
  if (Number.isInteger(groupId) && groupId > 0) q = q.where('t_device.fId', 'in', ctx.db.selectFrom('t_group_device').select('t_group_device.fDeviceId').where('t_group_device.fGroupId', '=', groupId));
  // A city may have a million unbound devices of a type: past 10,000 the picker's total is an estimate.
  const p = await paged(ctx, q, body, PICKER_SIZE, hasKeyword(c.name) || hasKeyword(c.number), true);
  return pageAnswer(p, await present(ctx, entity('device'), p.rows));
}

/** `[{ fGatewayId, fDeviceId }]`: all bound, or none when one of them cannot be. */
export async function bindChildren(ctx: Services, user: User, body: Row) {
  const items = batchRows(body, 'gateway.noChildren');
  await ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    for (const item of items) {
      const gateway = await requireGateway(tctx, user, item.fGatewayId, 'gateway.missingForBind');
      const deviceId = Number(item.fDeviceId);
      const device = Number.isInteger(deviceId) && deviceId > 0 ? await devices(tctx, user).where('t_device.fId', '=', deviceId).executeTakeFirst() : undefined;
      if (!device) throw refuse('gateway.childMissing');
      if (GATEWAY_TYPES.includes(Number(device.fTypeId))) throw refuse('gateway.childIsGateway');
      const bound = await trx.selectFrom('t_gateway_device').select('fGatewayId').where('fDeviceId', '=', deviceId).executeTakeFirst();
      if (bound) throw refuse('gateway.childBound', { number: String(device.fNumber) });
      await trx.insertInto('t_gateway_device').values({ fGatewayId: gateway.fId, fDeviceId: deviceId }).execute();
    }
  });
  return new Answer(null, reason('gateway.childrenAdded'));
}

/** `{ fGatewayId, fDeviceId }` (or the link's `gatewayDeviceId`): the child leaves its gateway. */
export async function unbindChild(ctx: Services, user: User, body: Row) {
  const linkId = Number(body.gatewayDeviceId);
  let q = ctx.db.selectFrom('t_gateway_device').selectAll();
  q = Number.isInteger(linkId) && linkId > 0 ? q.where('fId', '=', linkId) : q.where('fDeviceId', '=', Number(body.fDeviceId) || 0).where('fGatewayId', '=', Number(body.fGatewayId) || 0);
  const link = await q.executeTakeFirst();
  if (!link) throw refuse('gateway.linkMissing');
  await requireGateway(ctx, user, link.fGatewayId, 'gateway.missingForUnbind');
  const child = await devices(ctx, user).where('t_device.fId', '=', link.fDeviceId as number).executeTakeFirst();
  if (!child) throw refuse('gateway.unbindChildMissing');
  await ctx.db.deleteFrom('t_gateway_device').where('fId', '=', link.fId as number).execute();
  return new Answer(null, reason('gateway.childRemoved'));
}

export function registerGatewayRoutes(app: FastifyInstance, ctx: RouteContext) {
  const services = (): Services => ({ db: ctx.db, timeZone: ctx.timeZone });
  registerCall(app, ctx, { call: 'gateway.cards', handler: ({ user, body }) => gatewayCards(services(), user!, body) });
  registerCall(app, ctx, { call: 'gateway.children', handler: ({ user, body }) => gatewayChildren(services(), user!, body) });
  registerCall(app, ctx, { call: 'gateway.bindable', handler: ({ user, body }) => bindableDevices(services(), user!, body) });
  registerCall(app, ctx, { call: 'gateway.bind', write: true, handler: ({ user, body }) => bindChildren(services(), user!, body) });
  registerCall(app, ctx, { call: 'gateway.unbind', write: true, handler: ({ user, body }) => unbindChild(services(), user!, body) });
}

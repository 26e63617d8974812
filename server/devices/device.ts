/**
 * Devices: who sees which (scope), what is derived on save (type from the product, the owner), and the
 * calls beyond CRUD (counters, activation).
 */
import { sql } from 'kysely';
import { Answer } from '../http/route';
import { refuse } from '../http/envelope';
import { idList } from '../http/guard';
import { isAdmin } from '../crud/types';
import type { CallContext, Query, Services, User } from '../crud/types';
import { list as listRows, scoped } from '../crud/engine';
import { amongValues, blank } from '../crud/query';
import { positioned } from './deviceLocation';

/** List rows carry canUse and isUse (spec 000 §3). */
export { afterRead } from './deviceUse';

/**
 * The device list's conditions beyond its declared filters (spec 000 §7):
 * - `is_gps: 1`: only the devices with a position a map can draw, as the dashboard's map asks;
 * - `area`: an area number — the devices installed in a place (its rooms' devices) whose district is
 *   that area or lies under it. An area no place is in lists no device.
 */
export const conditions = {
  is_gps: (query: Query, value: unknown) => (Number(value) === 1 ? positioned(query) : query),
  area: (query: Query, value: unknown) => {
    const area = Number(value);
    if (!Number.isSafeInteger(area)) throw refuse('device.areaMalformed');
    return query.where(
      sql<boolean>`t_device.f_id IN (WITH RECURSIVE under(id) AS (
             SELECT f_area_id FROM t_area_info WHERE f_area_id = ${area}
             UNION SELECT a.f_area_id FROM t_area_info a JOIN under ON a.f_high_area_id = under.id)
           SELECT d.f_device_id FROM t_sys_user_room_device d JOIN t_sys_user_home h ON h.f_id = d.f_home_id
           WHERE h.f_city_code IN (SELECT id::text FROM under))`,
    );
  },
};

/** The fields of a device a picker shows (`isList: 0`): the sharing dialog lists up to 10,000 of them. */
const PICKER_FIELDS = ['fId', 'fNumber', 'fName', 'fProductId', 'fTypeId', 'tOnline', 'fStatus'] as const;

const said = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true';
const saidNo = (value: unknown) => value === false || value === 0 || value === '0' || value === 'false';

/**
 * The device list as the legacy console asks for it (spec 000 §7). `isList: 0` is a picker's call: each
 * device's picker fields only, without its product, sharing state or the like (the list page sends
 * `isList: 1`, and a call saying neither gets the full rows too). `isRefresh: 1` is the list's automatic
 * refresh: the page's online devices are also asked for fresh values, which arrive as telemetry and show
 * on the next reload (as `/devices-refresh` does for the devices it names).
 */
export async function list(ctx: CallContext) {
  const page = await listRows(ctx);
  const condition = (ctx.body.condition ?? {}) as Record<string, unknown>;
  if (said(condition.isRefresh)) {
    const online = page.records.filter((r) => Number(r.tOnline) === 1).map((r) => Number(r.fId));
    if (online.length) void ctx.request?.server.askDevicesForFresh(ctx.user, online).catch(() => undefined);
  }
  if (!saidNo(condition.isList)) return page;
  return { ...page, records: page.records.map((r) => Object.fromEntries(PICKER_FIELDS.filter((f) => f in r).map((f) => [f, r[f]]))) };
}

/** Administrators see every device, agents the ones they own, ordinary users their own and shared ones. */
export function scope(query: Query, user: User): Query {
  if (isAdmin(user)) return query;
  if (user.fAdmin === 2) return query.where('t_device.fUserId', '=', user.fId);
  return query.where((eb) =>
    eb.or([
      eb('t_device.fUserId', '=', user.fId),
      amongValues(eb.ref('t_device.fId'), eb.selectFrom('t_user_device').select('t_user_device.fDeviceId').where('t_user_device.fUserId', '=', user.fId)),
    ]),
  );
}

/**
 * The device counters (migration 024, by activation state since 028), for an administrator: at the
 * scale of a city a count of every device costs 70 ms and more on every page of the list.
 */
function keptCounts(ctx: Services, productId: unknown) {
  const q = ctx.db.selectFrom('t_device_count');
  return blank(productId) ? q : q.where('fProductId', '=', Number(productId));
}

/** The conditions the device counters are kept by (migrations 024, 028); select_type only says what a keyword is. */
const KEPT_BY = new Set(['product_id', 'online', 'status', 'select_type']);

/** The device list's total for an administrator who filters by product, online and activation state alone (or not at all). */
export async function keptTotal(condition: Record<string, unknown>, ctx: CallContext): Promise<number | undefined> {
  if (!isAdmin(ctx.user) || Object.entries(condition).some(([key, value]) => !KEPT_BY.has(key) && !blank(value))) return undefined;
  let q = keptCounts(ctx, condition.product_id).select((eb) => eb.fn.coalesce(eb.fn.sum<number>('fCount'), sql<number>`0`).as('n'));
  if (!blank(condition.online)) q = q.where('fOnline', '=', Number(condition.online));
  if (!blank(condition.status)) q = q.where('fStatus', '=', Number(condition.status));
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export async function beforeSave(values: Record<string, unknown>, ctx: CallContext, existing?: Record<string, unknown>) {
  if (!existing) {
    const product = await ctx.db.selectFrom('t_product').select(['fId', 'fDeviceType']).where('fId', '=', values.fProductId as number).executeTakeFirst();
    if (!product) throw refuse('device.productMissing');
    values.fTypeId = product.fDeviceType;
    // A device added by an agent is the agent's; an administrator may name the agent.
    if (ctx.user.fAdmin === 2) values.fUserId = ctx.user.fId;
    if (!isAdmin(ctx.user) && ctx.user.fAdmin !== 2) values.fUserId = null;
  }
  if (values.fUserId !== undefined && values.fUserId !== null) {
    const agent = await ctx.db.selectFrom('t_sys_user').select('fId').where('fId', '=', values.fUserId as number).where('fAdmin', '=', 2).executeTakeFirst();
    if (!agent) throw refuse('device.agentMissing');
  }
}

/** An ordinary user who adds a device owns it through the share table, so its scope includes it. */
export async function afterSave(row: Record<string, unknown>, ctx: CallContext, created: boolean) {
  if (created && ctx.user.fAdmin === 0) {
    await ctx.db.insertInto('t_user_device').values({ fUserId: ctx.user.fId, fDeviceId: row.fId, fOwner: 1 }).execute();
  }
}

export async function beforeDelete(row: Record<string, unknown>, ctx: CallContext) {
  await ctx.db.deleteFrom('t_user_device').where('fDeviceId', '=', row.fId as number).execute();
}

/** An administrator's counters are kept (one row per product, type and states). */
function keptTotals(ctx: CallContext, productId: number | undefined) {
  return keptCounts(ctx, productId)
    .select([
      sql<number>`coalesce(sum(f_count), 0)`.as('allCount'),
      sql<number>`coalesce(sum(f_count) filter (where f_online = 1), 0)`.as('onlineCount'),
      sql<number>`coalesce(sum(f_count) filter (where f_online in (0, -1)), 0)`.as('onlineNotCount'),
      sql<number>`coalesce(sum(f_count) filter (where f_status in (0, -1)), 0)`.as('noCount'),
    ])
    .executeTakeFirstOrThrow();
}

/** Anyone else's are counted over the devices in their scope. */
function countedTotals(ctx: CallContext, productId: number | undefined) {
  let q = scoped(ctx, ctx.entity, ctx.user);
  if (productId) q = q.where('t_device.fProductId', '=', productId);
  return q
    .clearSelect()
    .select([
      (eb) => eb.fn.countAll<number>().as('allCount'),
      sql<number>`count(*) filter (where t_device.t_online = 1)`.as('onlineCount'),
      sql<number>`count(*) filter (where coalesce(t_device.t_online, 0) = 0)`.as('onlineNotCount'),
      sql<number>`count(*) filter (where coalesce(t_device.f_status, 0) = 0)`.as('noCount'),
    ])
    .executeTakeFirstOrThrow();
}

/** Counters of the device list: all, online, offline, not activated; optionally for one product. */
export async function total(ctx: CallContext) {
  const given = Number(ctx.body.productId ?? ctx.body.product_id);
  const productId = Number.isInteger(given) && given > 0 ? given : undefined;
  const row = (isAdmin(ctx.user) ? await keptTotals(ctx, productId) : await countedTotals(ctx, productId)) as Record<string, number>;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
}

/** Activation: the device becomes enabled and verified, and its registration date is set once. */
export async function activation(ctx: CallContext) {
  const [id] = idList(ctx.body.fId, 'fId');
  const device = id && (await scoped(ctx, ctx.entity, ctx.user).where('t_device.fId', '=', id).executeTakeFirst());
  if (!device) throw refuse('device.activationMissing');
  await ctx.db
    .updateTable('t_device')
    .set({ fStatus: 1, fVerify: 1, fRegisteredDate: device.fRegisteredDate ?? new Date() })
    .where('fId', '=', id)
    .execute();
  // The endpoint's notice (device.activation.done in its resource file).
  return ctx.route.notice ? new Answer(null, { code: ctx.route.notice, params: {} }) : null;
}

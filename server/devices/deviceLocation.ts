/**
 * The device location page (spec 000 §2, §3 device location, §9 map rules): positions of the devices
 * the user sees under the page's condition, and their alarms. Only positions the map can draw leave the
 * server, so the list and the markers agree.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { entity, pageAnswer, pageOf, scoped } from '../crud/engine';
import { applyFilters, pageAt, searchesText } from '../crud/query';
import { formatRow } from '../crud/format';
import type { Query, User } from '../crud/types';
import { zh } from './words';

/** The legacy map drew at most this many markers. */
export const MARKER_CAP = 9999;
/** Below this magnitude a coordinate is a placeholder (0/0, 1/1), not a position. */
const MIN_MAGNITUDE = 5;

/** The alarm fields' description names (zh-CN); the console shows its own language and falls back to these. */
export const FIELD_NAMES: Record<string, string> = {
  voltage: zh('deviceData.voltage'),
  current: zh('deviceData.current'),
  power: zh('deviceData.power'),
  energy: zh('deviceData.energy'),
  temperature: zh('deviceData.temperature'),
  leakage: zh('deviceData.leakage'),
};
export const KIND_NAMES: Record<string, string> = {
  overtemperature: zh('location.kind.overtemperature'),
  overcurrent: zh('location.kind.overcurrent'),
  'current-jump': zh('location.kind.currentJump'),
  'temperature-jump': zh('location.kind.temperatureJump'),
};

/** Spec 000 §9: lng −180..180, lat −90..90, neither zero, both more than 5 in magnitude. */
export function validPosition(lng: unknown, lat: unknown): boolean {
  const x = Number(lng);
  const y = Number(lat);
  if (lng === null || lat === null || lng === undefined || lat === undefined || !Number.isFinite(x) || !Number.isFinite(y)) return false;
  return x >= -180 && x <= 180 && y >= -90 && y <= 90 && Math.abs(x) > MIN_MAGNITUDE && Math.abs(y) > MIN_MAGNITUDE;
}

/**
 * Devices with a position the map can draw, written as the device schema's partial index "positioned"
 * writes it, word for word, so that the planner reads the newest such devices from that index instead of
 * walking every device newest first until enough have a position.
 */
export const positioned = (query: Query): Query =>
  query.where(sql<boolean>`t_device.f_gps_longitude between -180 and 180 and t_device.f_gps_latitude between -90 and 90
      and abs(t_device.f_gps_longitude) > ${sql.lit(MIN_MAGNITUDE)} and abs(t_device.f_gps_latitude) > ${sql.lit(MIN_MAGNITUDE)}`);

function conditionOf(body: Record<string, unknown>): Record<string, unknown> {
  return body.condition && typeof body.condition === 'object' ? (body.condition as Record<string, unknown>) : {};
}

function devicesOf(ctx: RouteContext, user: User, condition: Record<string, unknown>) {
  const model = entity('device');
  return applyFilters(scoped(ctx, model, user), model, condition);
}

export async function deviceLocations(ctx: RouteContext, user: User, condition: Record<string, unknown>) {
  const rows = await positioned(devicesOf(ctx, user, condition))
    .clearSelect()
    .leftJoin('t_product', 't_product.fId', 't_device.fProductId')
    .select(['t_device.fId', 't_device.fNumber', 't_device.fName', 't_device.fTypeId', 't_device.fGpsLongitude', 't_device.fGpsLatitude', 't_device.tOnline', 't_device.fProductId', 't_product.fName as productName'])
    .orderBy('t_device.fId', 'desc')
    .limit(MARKER_CAP)
    .execute();
  return rows.map((r) => ({ ...r, fGpsLongitude: Number(r.fGpsLongitude), fGpsLatitude: Number(r.fGpsLatitude) }));
}

export async function deviceAlarms(ctx: RouteContext, user: User, body: Record<string, unknown>) {
  const c = conditionOf(body);
  const visible = devicesOf(ctx, user, c).clearSelect().select('t_device.fId');
  const query = ctx.db
    .selectFrom('t_device_alarm as a')
    .innerJoin('t_device as d', 'd.fId', 'a.fDeviceId')
    .where('a.fActive', '=', 1)
    .where('a.fDeviceId', 'in', visible as never)
    .select(['a.fId', 'a.fDeviceId', 'd.fNumber', 'd.fName', 'a.fKind', 'a.fField', 'a.fValue', 'a.fLimit', 'a.fLevel', 'a.fIntime']);
  const order = [{ column: 'a.fIntime', asc: false }, { column: 'a.fId', asc: false }];
  const p = await pageOf(ctx, query as Query, pageAt(body, 5, 1000), order, { searching: searchesText(entity('device'), c) });
  return pageAnswer(
    p,
    p.rows.map((r) => ({
      ...formatRow(r, ctx.timeZone),
      fFieldName: FIELD_NAMES[String(r.fField)] ?? String(r.fField),
      fKindName: KIND_NAMES[String(r.fKind)] ?? String(r.fKind),
    })),
  );
}

export function registerLocationRoutes(app: FastifyInstance, ctx: RouteContext) {
  registerCall(app, ctx, {
    call: 'device.locations',
    handler: async ({ user, body }) => deviceLocations(ctx, user!, conditionOf(body)),
  });
  registerCall(app, ctx, {
    call: 'device.alarmLocations',
    handler: async ({ user, body }) => deviceAlarms(ctx, user!, body),
  });
}

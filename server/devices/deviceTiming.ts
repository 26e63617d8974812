/**
 * Device timers (spec 000 §3–§5): a timer switches its device on or off at a wall-clock time on one
 * weekday, every day, or once, optionally switching back after some seconds. A timer is visible and
 * changeable exactly when its device is; the scheduler (server/devices/scheduler.ts) fires them.
 */
import { Refusal, answered, languageOfRequest, reason, refuse, textOf } from '../http/envelope';
import { isAdmin } from '../crud/types';
import type { CallContext, Query, User } from '../crud/types';
import { entity, pageAnswer, pageOf, present, scoped } from '../crud/engine';
import { applyFilters, pageRequest, searchesText } from '../crud/query';
import { validateBody } from '../crud/validate';
import { scope as deviceScope } from './device';
import { batchRows, idList } from '../http/guard';

type Row = Record<string, unknown>;

/** fValidType: 1–7 Monday–Sunday, 8 once, 9 every day. */
export const VALID_ONCE = 8;
export const VALID_DAILY = 9;
/** fOpt: 1 switches on, 2 switches off. */
export const OPT_ON = 1;

/** Gateways have no switch of their own, so the console hides their timers and the server refuses them. */
const NO_TIMER_TYPES = new Set([2, 4]);

const DEFAULTS: Row = { fValidType: VALID_DAILY, fState: 1, fOpt: OPT_ON, fReverse: 0, fReverseSecond: 60 };

// ---------------------------------------------------------------------------------------------------
// Wall-clock time in the configured zone

export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** ISO weekday: 1 Monday … 7 Sunday, the numbering of fValidType. */
  weekday: number;
}

const partFormatters = new Map<string, Intl.DateTimeFormat>();

export function localTime(date: Date, timeZone: string): LocalTime {
  let f = partFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' });
    partFormatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(date).map((p) => [p.type, p.value]));
  const year = Number(parts.year);
  const month = Number(parts.month);
  const day = Number(parts.day);
  const dow = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
  return { year, month, day, hour: Number(parts.hour) % 24, minute: Number(parts.minute), weekday: dow === 0 ? 7 : dow };
}

/** The instant at which the zone's clocks show the given date and time. */
export function zonedInstant(year: number, month: number, day: number, hour: number, minute: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const offsetAt = (t: number) => {
    const l = localTime(new Date(t), timeZone);
    return Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute) - Math.floor(t / 60_000) * 60_000;
  };
  const first = wall - offsetAt(wall);
  // Around a daylight-saving change the offset at the guess may differ from the offset at the answer.
  const second = wall - offsetAt(first);
  return new Date(second);
}

export const HHMM = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;

/** "HH:mm" of an instant in the zone. */
export function hhmm(date: Date, timeZone: string): string {
  const l = localTime(date, timeZone);
  return `${String(l.hour).padStart(2, '0')}:${String(l.minute).padStart(2, '0')}`;
}

/**
 * The first time strictly after `after` at which a timer of this time and validity is due, or null
 * when the input cannot be scheduled.
 */
export function nextRunTime(time: string, validType: number, after: Date, timeZone: string): Date | null {
  const m = HHMM.exec(time);
  if (!m || !Number.isInteger(validType) || validType < 1 || validType > 9) return null;
  const today = localTime(after, timeZone);
  for (let i = 0; i <= 8; i++) {
    const d = new Date(Date.UTC(today.year, today.month - 1, today.day + i));
    const dow = d.getUTCDay() === 0 ? 7 : d.getUTCDay();
    if (validType <= 7 && dow !== validType) continue;
    const at = zonedInstant(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), Number(m[1]), Number(m[2]), timeZone);
    if (at.getTime() > after.getTime()) return at;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Scope and hooks

/** A row of a device-owned table is in scope exactly when its device is. */
export function scopeByDevice(table: string) {
  return (query: Query, user: User): Query => {
    if (isAdmin(user)) return query;
    return query.where((eb) => eb(`${table}.fDeviceId`, 'in', deviceScope(eb.selectFrom('t_device').select('t_device.fId') as Query, user)));
  };
}

export const scope = scopeByDevice('t_device_timing');

/** The device a row is for, if the user may see it; a refusal otherwise. */
export async function requireDevice(ctx: CallContext, deviceId: unknown, options: { timers?: boolean } = {}): Promise<Row> {
  const id = Number(deviceId);
  const device = Number.isInteger(id) && id > 0 ? await scoped(ctx, entity('device'), ctx.user).where('t_device.fId', '=', id).executeTakeFirst() : undefined;
  if (!device) throw refuse('device.notFound');
  if (options.timers && NO_TIMER_TYPES.has(Number(device.fTypeId))) throw refuse('timer.unsupported');
  return device;
}

/**
 * How a save of a device-owned row starts: a new row, or one moved to another device, must name a device
 * the user may see; a field sent as null, or left out of a new row, takes its default.
 */
export async function settleDeviceRow(values: Row, ctx: CallContext, existing: Row | undefined, defaults: Row, options: { timers?: boolean } = {}) {
  if (!existing || (values.fDeviceId !== undefined && values.fDeviceId !== existing.fDeviceId)) await requireDevice(ctx, values.fDeviceId, options);
  for (const [field, value] of Object.entries(defaults)) {
    if (values[field] === null || (!existing && values[field] === undefined)) values[field] = value;
  }
}

/** Blank defaulted fields take their defaults, and the next run follows from time, validity and state. */
export async function beforeSave(values: Row, ctx: CallContext, existing?: Row) {
  await settleDeviceRow(values, ctx, existing, DEFAULTS, { timers: true });
  if (!existing) values.fUserId = ctx.user.fId;
  const merged = { ...existing, ...values };
  values.fRunNextTime = Number(merged.fState) === 1 ? nextRunTime(String(merged.fTime), Number(merged.fValidType), new Date(), ctx.timeZone) : null;
}

// ---------------------------------------------------------------------------------------------------
// Handlers

/** Creates or updates one timer inside the caller's transaction; `own` limits updates to the user's own timers. */
async function saveOne(ctx: CallContext, body: Row, own = false): Promise<Row> {
  const model = ctx.entity;
  const creating = body.fId === undefined || body.fId === null || body.fId === '';
  const values = validateBody(model, body, creating ? 'create' : 'update', ctx.user);
  let existing: Row | undefined;
  if (!creating) {
    existing = await scoped(ctx, model, ctx.user).where('t_device_timing.fId', '=', Number(body.fId)).executeTakeFirst();
    if (!existing || (own && existing.fUserId !== ctx.user.fId)) throw refuse('data.notFound');
  }
  await beforeSave(values, ctx, existing);
  const row = existing
    ? await ctx.db.updateTable(model.table).set(values).where('fId', '=', existing.fId).returningAll().executeTakeFirstOrThrow()
    : await ctx.db.insertInto(model.table).values(values).returningAll().executeTakeFirstOrThrow();
  return (await present(ctx, model, [row]))[0];
}

/** The edit form's rows (a JSON array), saved together or not at all. */
export async function saves(ctx: CallContext) {
  const items = batchRows(ctx.body, 'timer.none');
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    const saved: Row[] = [];
    for (const item of items) saved.push(await saveOne(tctx, item));
    return saved;
  });
}


const COPIED = ['fTime', 'fValidType', 'fState', 'fOpt', 'fReverse', 'fReverseSecond'] as const;

/**
 * Copies a timer to other devices the user may see. A device that already has a timer at the same
 * time and validity gets that timer updated, so syncing twice does not double the switching.
 */
export async function shareSaves(ctx: CallContext) {
  const deviceIds = idList(ctx.body.deviceIds, 'deviceIds');
  if (!deviceIds.length) throw refuse('timer.noDevicesChosen');
  const source = await scoped(ctx, ctx.entity, ctx.user).where('t_device_timing.fId', '=', Number(ctx.body.deviceTimingId)).executeTakeFirst();
  if (!source) throw refuse('timer.notFound');
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    let copied = 0;
    const refused: string[] = [];
    for (const deviceId of deviceIds) {
      if (deviceId === source.fDeviceId) continue;
      let device: Row;
      try {
        device = await requireDevice(tctx, deviceId, { timers: true });
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        refused.push(String(deviceId));
        continue;
      }
      const twin = await trx
        .selectFrom('t_device_timing')
        .select('fId')
        .where('fDeviceId', '=', device.fId as number)
        .where('fTime', '=', source.fTime as string)
        .where('fValidType', '=', source.fValidType as number)
        .orderBy('fId')
        .executeTakeFirst();
      const body: Row = { fDeviceId: device.fId, ...Object.fromEntries(COPIED.map((f) => [f, source[f]])) };
      if (twin) body.fId = twin.fId;
      await saveOne(tctx, body);
      copied++;
    }
    if (!copied) throw refused.length ? refuse('timer.nothingSyncedRefused', { refused: refused.length }) : refuse('timer.nothingSynced');
    // The legacy summary (zh-CN) beside the same by code, in the caller's language.
    const errorMsg = refused.length ? textOf(reason('timer.syncRefused', { refused: refused.length })) : '';
    const summary = refused.length ? reason('timer.syncedSomeRefused', { count: copied, refused: refused.length }) : reason('timer.synced', { count: copied });
    const language = ctx.request ? languageOfRequest(ctx.request) : 'zh-CN';
    return { successMsg: textOf(summary), errorMsg, count: copied, refused: refused.length, summary: answered(summary, language) };
  });
}

/** A page of the user's own timers (the ones it created), optionally of one device. */
export async function userList(ctx: CallContext) {
  const model = ctx.entity;
  const page = pageRequest(model, ctx.body);
  const filtered = applyFilters(scoped(ctx, model, ctx.user).where('t_device_timing.fUserId', '=', ctx.user.fId), model, page.condition);
  const p = await pageOf(ctx, filtered, page, page.orders.map((o) => ({ ...o, column: `t_device_timing.${o.column}` })), { searching: searchesText(model, page.condition) });
  return pageAnswer(p, await present(ctx, model, p.rows));
}

/** Saves one of the user's own timers: a new one, or one it created earlier. */
export async function userSave(ctx: CallContext) {
  return ctx.db.transaction().execute((trx) => saveOne({ ...ctx, db: trx }, ctx.body, true));
}

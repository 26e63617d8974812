/**
 * Upgrade records (spec 000 §3, §4, §7): which devices a firmware version is to be pushed to. A record
 * is visible exactly when its device is, and only devices of the firmware's product can be added. The
 * push itself and the status transitions live in server/devices/upgrades.ts.
 */
import { Answer } from '../http/route';
import { reason, refuse } from '../http/envelope';
import type { CallContext, Query } from '../crud/types';
import { entity, pageAnswer, pageOf, present, scoped } from '../crud/engine';
import { pageRequest } from '../crud/query';
import { hasKeyword, matchingKeyword } from './deviceAccess';
import { scopeByDevice } from './deviceTiming';

type Row = Record<string, unknown>;

/** fStatus of an upgrade record. */
export const UPGRADE = { failed: -1, waiting: 0, sending: 1, success: 2 } as const;


export const scope = scopeByDevice('t_firmware_update_device');

async function firmwareOf(ctx: CallContext, id: unknown): Promise<Row> {
  const fId = Number(id);
  const row = Number.isInteger(fId) && fId > 0 ? await ctx.db.selectFrom('t_firmware').selectAll().where('fId', '=', fId).executeTakeFirst() : undefined;
  if (!row) throw refuse('firmware.notFound');
  return row;
}

/** The user's devices of the firmware's product that have no record for it yet. */
function candidates(ctx: CallContext, firmware: Row): Query {
  return scoped(ctx, entity('device'), ctx.user)
    .where('t_device.fProductId', '=', firmware.fProductId as number)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('t_firmware_update_device as u')
            .select('u.fId')
            .whereRef('u.fDeviceId', '=', 't_device.fId')
            .where('u.fFirmwareId', '=', firmware.fId as number),
        ),
      ),
    );
}

/** The device picker: a page of devices that may still be added, optionally narrowed by number or name. */
export async function undevices(ctx: CallContext) {
  const page = pageRequest(entity('device'), ctx.body);
  const condition = page.condition;
  const firmware = await firmwareOf(ctx, condition.fFirmwareId ?? ctx.body.fFirmwareId);
  const q = matchingKeyword(candidates(ctx, firmware), condition.keyword);
  const p = await pageOf(ctx, q, page, [{ column: 't_device.fId', asc: true }], { searching: hasKeyword(condition.keyword) });
  return pageAnswer(p, await present(ctx, entity('device'), p.rows));
}

async function insertRecords(ctx: CallContext, firmwareId: number, deviceIds: number[]): Promise<number> {
  if (!deviceIds.length) return 0;
  await ctx.db
    .insertInto('t_firmware_update_device')
    .values(deviceIds.map((fDeviceId) => ({ fFirmwareId: firmwareId, fDeviceId, fStatus: UPGRADE.waiting, fProgress: 0 })))
    .execute();
  return deviceIds.length;
}

/** Adds the chosen devices (a JSON array of { fDeviceId, fFirmwareId }); devices already added are skipped. */
export async function addDevices(ctx: CallContext) {
  const raw = ctx.body.items ?? ctx.body.list ?? ctx.body.records;
  const items: Row[] = Array.isArray(raw) ? raw.filter((i): i is Row => Boolean(i) && typeof i === 'object') : [];
  if (!items.length && Array.isArray(ctx.body.deviceIds)) {
    for (const d of ctx.body.deviceIds) items.push({ fDeviceId: d, fFirmwareId: ctx.body.fFirmwareId });
  }
  const wanted = items.filter((i) => Number(i.fDeviceId) > 0);
  if (!wanted.length) throw refuse('upgrade.noneChosen');
  const firmwareIds = new Set(wanted.map((i) => Number(i.fFirmwareId)));
  if (firmwareIds.size !== 1) throw refuse('firmware.notFound');
  const firmware = await firmwareOf(ctx, [...firmwareIds][0]);
  const ids = [...new Set(wanted.map((i) => Number(i.fDeviceId)))];
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    await lockFirmware(tctx, firmware.fId as number);
    const allowed = await scoped(tctx, entity('device'), ctx.user).clearSelect().select('t_device.fId').where('t_device.fId', 'in', ids).where('t_device.fProductId', '=', firmware.fProductId as number).execute();
    if (allowed.length !== ids.length) throw refuse('device.notFound');
    const existing = await trx.selectFrom('t_firmware_update_device').select('fDeviceId').where('fFirmwareId', '=', firmware.fId as number).where('fDeviceId', 'in', ids).execute();
    const known = new Set(existing.map((r) => Number(r.fDeviceId)));
    const count = await insertRecords(tctx, firmware.fId as number, ids.filter((id) => !known.has(id)));
    return new Answer({ count, skipped: ids.length - count }, reason('upgrade.devicesAdded'));
  });
}

/** Adds every device of the firmware's product the user may see and that is not added yet. */
export async function addAll(ctx: CallContext) {
  const firmware = await firmwareOf(ctx, ctx.body.fFirmwareId);
  const productId = ctx.body.fProductId;
  if (productId !== undefined && productId !== null && productId !== '' && Number(productId) !== Number(firmware.fProductId)) throw refuse('upgrade.productMismatch');
  return ctx.db.transaction().execute(async (trx) => {
    const tctx = { ...ctx, db: trx };
    await lockFirmware(tctx, firmware.fId as number);
    const rows = await candidates(tctx, firmware).clearSelect().select('t_device.fId').orderBy('t_device.fId').execute();
    const count = await insertRecords(tctx, firmware.fId as number, rows.map((r) => Number(r.fId)));
    if (!count) throw refuse('upgrade.nothingToAdd');
    return new Answer({ count }, reason('upgrade.devicesAdded'));
  });
}

/** Two concurrent adds for one firmware would otherwise both see a device as not yet added. */
async function lockFirmware(ctx: CallContext, firmwareId: number) {
  await ctx.db.selectFrom('t_firmware').select('fId').where('fId', '=', firmwareId).forUpdate().executeTakeFirst();
}

/** A record that is being sent cannot be removed: its device is flashing and will report back. */
export async function beforeDelete(row: Row) {
  if (Number(row.fStatus) === UPGRADE.sending) throw refuse('upgrade.busy');
}

/**
 * Switch schedules (the timed-switch panel): every day at fBeginTime the scheduler sets channel fWhich
 * of the device to fSwitch, and marks the row executed. Visible and changeable exactly when the device is.
 */
import { refuse } from '../http/envelope';
import type { CallContext } from '../crud/types';
import { present, scoped } from '../crud/engine';
import { requireDevice, scopeByDevice } from './deviceTiming';

type Row = Record<string, unknown>;

export const scope = scopeByDevice('t_device_switch');

const DEFAULTS: Row = { fSwitch: 0, fWhich: 1 };

/** A changed time, switch or channel makes the row due again at its (new) time. */
export async function beforeSave(values: Row, ctx: CallContext, existing?: Row) {
  if (!existing || (values.fDeviceId !== undefined && values.fDeviceId !== existing.fDeviceId)) await requireDevice(ctx, values.fDeviceId);
  for (const [field, value] of Object.entries(DEFAULTS)) {
    if (values[field] === null || (!existing && values[field] === undefined)) values[field] = value;
  }
  const changed = !existing || ['fBeginTime', 'fSwitch', 'fWhich'].some((f) => values[f] !== undefined && values[f] !== existing[f]);
  if (changed) values.fIsExecute = 0;
}

/** Every schedule of one device (`{ fDeviceId }`), by time. */
export async function listOfDevice(ctx: CallContext) {
  const condition = (ctx.body.condition ?? {}) as Row;
  const deviceId = Number(ctx.body.fDeviceId ?? condition.fDeviceId);
  if (!Number.isInteger(deviceId) || deviceId <= 0) throw refuse('device.required');
  const rows = await scoped(ctx, ctx.entity, ctx.user)
    .where('t_device_switch.fDeviceId', '=', deviceId)
    .orderBy('t_device_switch.fBeginTime')
    .orderBy('t_device_switch.fId')
    .execute();
  return present(ctx, ctx.entity, rows);
}

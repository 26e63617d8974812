/**
 * Switch schedules (the timed-switch panel): every day at fBeginTime the scheduler sets channel fWhich
 * of the device to fSwitch, and marks the row executed. Visible and changeable exactly when the device is.
 */
import type { CallContext } from '../crud/types';
import { scopeByDevice, settleDeviceRow } from './deviceTiming';
import { rowsOfDevice } from './deviceRows';

type Row = Record<string, unknown>;

export const scope = scopeByDevice('t_device_switch');

const DEFAULTS: Row = { fSwitch: 0, fWhich: 1 };

/** A changed time, switch or channel makes the row due again at its (new) time. */
export async function beforeSave(values: Row, ctx: CallContext, existing?: Row) {
  await settleDeviceRow(values, ctx, existing, DEFAULTS);
  const changed = !existing || ['fBeginTime', 'fSwitch', 'fWhich'].some((f) => values[f] !== undefined && values[f] !== existing[f]);
  if (changed) values.fIsExecute = 0;
}

/** Every schedule of one device (`{ fDeviceId }`), by time. */
export const listOfDevice = rowsOfDevice('fBeginTime');

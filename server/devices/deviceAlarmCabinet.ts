/**
 * Alarm-cabinet thresholds (spec 000 §3, §5): per gas channel of a device, the measuring range, two
 * alarm levels, the unit and the gas name. A row is visible and changeable exactly when its device is.
 */
import { refuse } from '../http/envelope';
import type { CallContext } from '../crud/types';
import { scopeByDevice, settleDeviceRow } from './deviceTiming';
import { rowsOfDevice } from './deviceRows';

type Row = Record<string, unknown>;

export const scope = scopeByDevice('t_device_alarm_cabinet');

/** Spec 000 §9: switch 1, min 0, max 100, both levels 100, not enabled. */
const DEFAULTS: Row = { fSwitch: 1, fMin: 0, fMax: 100, fAlarmOne: 100, fAlarmTwo: 100, fState: 0 };

const blank = (v: unknown) => v === undefined || v === null || String(v).trim() === '';

export async function beforeSave(values: Row, ctx: CallContext, existing?: Row) {
  await settleDeviceRow(values, ctx, existing, DEFAULTS);
  const merged = { ...existing, ...values };
  if (blank(merged.fUnit)) throw refuse('device.cabinet.unitRequired');
  if (Number(merged.fMin) > Number(merged.fMax)) throw refuse('device.cabinet.minAboveMax');
  if (blank(merged.fGasEn) && blank(merged.fGasCh)) throw refuse('device.cabinet.gasNameRequired');
  values.fBeginTime = new Date();
}

/** Every row of one device (`{ fDeviceId }`), by channel. */
export const listOfDevice = rowsOfDevice('fSwitch');

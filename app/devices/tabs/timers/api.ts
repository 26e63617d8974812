/** Shapes and codes of the timers tab and the timed-switch panel (their calls: deviceTiming.*, deviceSwitch.*). */
import type { CallRow } from '../../../../adapters/dataProvider';
import type { EditedRow } from '../shared';

/** Permission codes (spec 000 §6: group:edit and group:del gate timer edit and delete). */
export const CODES = { timerList: 'deviceTiming:list', scheduleList: 'deviceSwitch:list', edit: 'group:edit', del: 'group:del' };

/** A timer as the timer list answers it, or a new one in the form (without its id yet). */
export type Timer = Omit<CallRow<'deviceTiming.list'>, 'fId'> & { fId?: number };

/** A daily schedule of the timed switch while it is edited (a row of the timed-switch list). */
export type Schedule = EditedRow<'deviceSwitch'>;

/** Defaults of a new timer (spec 000 §9): validity every day, enabled, switch on, reverse after 60 s. */
export const NEW_TIMER: Timer = { fTime: '', fValidType: 9, fState: 1, fOpt: 1, fReverse: 0, fReverseSecond: 60 };
/** A new schedule row starts with zeros (channel 1, the lowest there is). */
export const NEW_SCHEDULE: Schedule = { fBeginTime: '00:00', fSwitch: 0, fWhich: 1 };

export const VALID_TYPES = [9, 8, 1, 2, 3, 4, 5, 6, 7];
export const CHANNELS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/** Gateways (types 2 and 4) have no timers. */
export const hasTimers = (device: { fId: number; fTypeId?: unknown; tProduct?: unknown }) => {
  const type = device.fTypeId ?? (device.tProduct as Record<string, unknown> | undefined)?.fDeviceType;
  return ![2, 4].includes(Number(type));
};

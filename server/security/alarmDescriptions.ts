/**
 * What an alarm says when the device sent no remark of its own: one sentence per alarm type, with the
 * number of people where the device counted them (a gathering, a room over its count). A real device's
 * alarm and the demo history read alike, from these texts of the catalogue (schemas/reasons/security.json,
 * `alarm.remark.*`), stored in the spec's zh-CN words.
 */
import { reason, textOf, type Reason } from '../http/envelope';

const DESCRIPTIONS: Record<number, (count?: number) => Reason> = {
  14: (n) => (n ? reason('alarm.remark.gatheringCounted', { count: n }) : reason('alarm.remark.gathering')),
  15: () => reason('alarm.remark.lateHours'),
  17: (n) => (n ? reason('alarm.remark.overOccupancyCounted', { count: n }) : reason('alarm.remark.overOccupancy')),
  18: () => reason('alarm.remark.cardMismatch'),
  11: () => reason('alarm.remark.stranger'),
  13: () => reason('alarm.remark.watchedPerson'),
};

/** The description of an alarm of this type, with the people counted if the device says; null for types that need none. */
export function describeAlarm(type: number, count?: number): string | null {
  const described = DESCRIPTIONS[type]?.(count && Number.isInteger(count) && count > 0 ? count : undefined);
  return described ? textOf(described) : null;
}

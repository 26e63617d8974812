/** The location page's map rules (spec 000 §9); its calls are device.locations and device.alarmLocations. */
import type { CallRow } from '../../../adapters/dataProvider';

export const CENTER: [number, number] = [31.2, 121.5];
export const ZOOM = 10;
export const DEVICE_ZOOM = 15;
export const PAGE_SIZE = 5;
export const PAGE_SIZES = [5, 10, 20, 50, 100];

/** A device with a position the map can draw, as the locations call answers it. */
export type LocatedDevice = CallRow<'device.locations'>;

/** An active alarm of a located device, as the alarm locations call answers it. */
export type AlarmRow = CallRow<'device.alarmLocations'>;

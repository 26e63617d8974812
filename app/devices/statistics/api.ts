/**
 * The statistics calls (device.statistics and its export, docs/api.md, spec 000 §7) and the range defaults of
 * spec 000 §9, shared by the statistics page and the device drawer's tab.
 */
import type { Dayjs } from 'dayjs';
import type { CallAnswer, LegacyDataProvider } from '../../../adapters/dataProvider';
import { serverNow } from '../../components/DateTimeInput';

export const EXPORT_FILE_NAME = '数据统计.xlsx';
export const TIME_TYPE_DAY = 1;
export const TIME_TYPE_HOUR = 2;
/** The device picker lists every device the user sees, as the legacy sharing list did. */
export const DEVICE_PICKER_SIZE = 10000;
const DEFAULT_DAYS = 7;

export interface DeviceTotalQuery {
  deviceIds: number[];
  stime: string;
  etime: string;
  timeType: number;
}

/** The devices' figures over the range: each device's sum, and its values by day or hour. */
export type DeviceTotal = CallAnswer<'device.statistics'>;

/**
 * Last 7 days: the first at 00:00:00; the end today 23:59:59, or the current hour's :59:59 when by hour.
 * "Today" is the server's (its time zone), as every time of the API is.
 */
export function defaultRange(timeType: number, now: Dayjs = serverNow()): { stime: string; etime: string } {
  const begin = now.subtract(DEFAULT_DAYS - 1, 'day');
  return { stime: `${begin.format('YYYY-MM-DD')} 00:00:00`, etime: defaultEnd(timeType, now) };
}

export function defaultEnd(timeType: number, now: Dayjs = serverNow()): string {
  return now.format(timeType === TIME_TYPE_HOUR ? 'YYYY-MM-DD HH:59:59' : 'YYYY-MM-DD 23:59:59');
}


export async function fetchDeviceTotal(api: LegacyDataProvider, query: DeviceTotalQuery): Promise<DeviceTotal> {
  return (await api.call('device.statistics', { ...query })).data;
}

/** Downloads the spreadsheet; a refusal comes back as the JSON envelope and is thrown with its message. */
export function downloadDeviceTotal(api: LegacyDataProvider, query: DeviceTotalQuery): Promise<void> {
  return api.download('device.statisticsExport', query, EXPORT_FILE_NAME);
}

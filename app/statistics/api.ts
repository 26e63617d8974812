/**
 * The statistics calls (docs/api.md, spec §7) and the range defaults of spec §9, shared by the statistics
 * page and the device drawer's tab.
 */
import type { Dayjs } from 'dayjs';
import { ApiError, call, getToken } from '../../adapters/http';
import { serverNow } from '../components/DateTimeInput';

export const DEVICE_TOTAL_PATH = '/app/device/device-total';
export const DOWNLOAD_PATH = '/app/device/download-device-total';
export const DEVICES_PATH = '/biz/t-device/devices';
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

export interface DeviceTotal {
  total: { name: string; value: number }[];
  chart: { categories: string[]; series: { name: string; data: number[] }[] };
}

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


export async function fetchDeviceTotal(query: DeviceTotalQuery): Promise<DeviceTotal> {
  return (await call<DeviceTotal>(DEVICE_TOTAL_PATH, query)).data;
}

/** Downloads the spreadsheet; a refusal comes back as the JSON envelope and is thrown with its message. */
export async function downloadDeviceTotal(query: DeviceTotalQuery): Promise<void> {
  const token = getToken();
  const response = await fetch(DOWNLOAD_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) },
    body: JSON.stringify(query),
  });
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || type.includes('json')) {
    const envelope = await response.json().catch(() => null);
    throw new ApiError(envelope?.message ?? response.statusText, response.status, envelope ?? undefined);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = EXPORT_FILE_NAME;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/// <reference types="vite/client" />
/** The location page's map rules (spec 000 §9); its calls are device.locations and device.alarmLocations. */
import { TILE_URL_KEY } from '../../dashboard/DeviceMap';

export const CENTER: [number, number] = [31.2, 121.5];
export const ZOOM = 10;
export const DEVICE_ZOOM = 15;
export const MARKER_CAP = 9999;
export const NAME_MAX = 20;
export const PAGE_SIZE = 5;
export const PAGE_SIZES = [5, 10, 20, 50, 100];
export const SELECT_NUMBER = 1;
export const SELECT_NAME = 2;
const DEFAULT_TILES = 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png';

export interface LocatedDevice {
  fId: number;
  fNumber: string;
  fName?: string | null;
  fTypeId?: number | null;
  fGpsLongitude: number;
  fGpsLatitude: number;
  tOnline?: number | null;
  productName?: string | null;
}

export interface AlarmRow {
  fId: number;
  fDeviceId: number;
  fNumber: string;
  fName?: string | null;
  fField: string;
  fFieldName: string;
  fKindName?: string;
  fValue: number | null;
  fIntime: string;
}

/** Spec §9: within range, not zero, and more than 5 in magnitude (a 0/0 or 1/1 placeholder is no position). */
export function validPosition(lng: unknown, lat: unknown): boolean {
  if (lng === null || lat === null || lng === undefined || lat === undefined || lng === '' || lat === '') return false;
  const x = Number(lng);
  const y = Number(lat);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
  return x >= -180 && x <= 180 && y >= -90 && y <= 90 && Math.abs(x) > 5 && Math.abs(y) > 5;
}

export const shortName = (d: { fName?: string | null; fNumber: string }) => {
  const n = d.fName || d.fNumber;
  return n.length > NAME_MAX ? n.slice(0, NAME_MAX) + '…' : n;
};

/** The same tile setting as the dashboard map: a browser override, then the build's, then OpenStreetMap. */
export function tileUrl(): string {
  const stored = typeof localStorage !== 'undefined' ? localStorage.getItem(TILE_URL_KEY) : null;
  if (stored !== null) return stored;
  return (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ?? DEFAULT_TILES;
}

/** The location page's map rules (spec 000 §9); its calls are device.locations and device.alarmLocations. */

export const CENTER: [number, number] = [31.2, 121.5];
export const ZOOM = 10;
export const DEVICE_ZOOM = 15;
export const PAGE_SIZE = 5;
export const PAGE_SIZES = [5, 10, 20, 50, 100];

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

/// <reference types="vite/client" />
/**
 * What every map of the console shares (the dashboard's, the location page's, an alarm's point): where
 * the tiles come from, which positions are real, how a marker is named and how many are drawn.
 */

/** A browser-side override (localStorage) wins over the build's VITE_MAP_TILE_URL; an empty value means no tiles. */
export const TILE_URL_KEY = 'mapTileUrl';
const DEFAULT_TILES = 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png';
/** The legacy map drew at most this many markers. */
export const MARKER_CAP = 9999;
const NAME_MAX = 20;

export function tileUrl(): string {
  const stored = typeof localStorage !== 'undefined' ? localStorage.getItem(TILE_URL_KEY) : null;
  if (stored !== null) return stored;
  return (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ?? DEFAULT_TILES;
}

/** Spec 000 §9: within range, not zero, and more than 5 in magnitude (a 0/0 or 1/1 placeholder is no position). */
export function validPosition(lng: unknown, lat: unknown): boolean {
  if (lng === null || lat === null || lng === undefined || lat === undefined || lng === '' || lat === '') return false;
  const x = Number(lng);
  const y = Number(lat);
  if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
  return x >= -180 && x <= 180 && y >= -90 && y <= 90 && Math.abs(x) > 5 && Math.abs(y) > 5;
}

/** A marker's name: the device's name, else its number, cut at 20 characters. */
export const shortName = (d: { fName?: string | null; fNumber: string }) => {
  const n = d.fName || d.fNumber;
  return n.length > NAME_MAX ? n.slice(0, NAME_MAX) + '…' : n;
};

/// <reference types="vite/client" />
/**
 * What every map of the console shares (the dashboard's, the location page's, an alarm's point): where
 * the tiles come from, which positions are real, how a marker is named and how many are drawn.
 */

import { useEffect } from 'react';
import { useCallQuery } from './calls';

/**
 * Where the tiles come from: the server's setting (MAP_TILE_URL, asked at run time), unless this browser
 * overrides it (localStorage); the build's VITE_MAP_TILE_URL only until the server has answered. An empty
 * value means no tiles: the maps draw their grid and markers.
 */
export const TILE_URL_KEY = 'mapTileUrl';
const DEFAULT_TILES = 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png';
/** The legacy map drew at most this many markers. */
export const MARKER_CAP = 9999;
const NAME_MAX = 20;

/** The server's tile address, once this visit has asked for it. */
let served: string | undefined;

const override = () => (typeof localStorage !== 'undefined' ? localStorage.getItem(TILE_URL_KEY) : null);

export function tileUrl(): string {
  return override() ?? served ?? (import.meta.env.VITE_MAP_TILE_URL as string | undefined) ?? DEFAULT_TILES;
}

/**
 * The server's tile address, asked once a visit (the frame asks at sign-in, so a map opened later has it
 * at once). Answers undefined while it is not known and no override says it: a map then waits with its
 * grid rather than asking a tile server the installation may not reach.
 */
export function useTileUrl(): string | undefined {
  const settings = useCallQuery('system.consoleSettings', undefined, { quiet: true, method: 'GET' });
  const answered = settings.data?.mapTileUrl;
  useEffect(() => {
    if (typeof answered === 'string') served = answered;
  }, [answered]);
  const own = override();
  if (own !== null) return own;
  if (typeof answered === 'string') return answered;
  // The server could not be asked: the address the console was built with.
  return settings.error ? tileUrl() : served;
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
export const shortName = (d: { fName?: string | null; fNumber?: string | null }) => {
  const n = d.fName || d.fNumber || '';
  return n.length > NAME_MAX ? n.slice(0, NAME_MAX) + '…' : n;
};

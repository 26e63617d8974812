/**
 * The console's code outside the first screen arrives in chunks, fetched when a page first needs one.
 * A chunk that has not arrived within 120 s (spec 002 §9) fails as one that could not be fetched, so a
 * stalled download ends in the page's load-failure notice (Layout's PageBoundary) instead of a progress
 * bar that never ends.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  name = 'ChunkLoadError';
}

/** The download, failed with a ChunkLoadError once it has taken longer than the time-out. */
export function withinChunkTimeout<T>(load: Promise<T>, ms = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChunkLoadError(`a part of the console did not arrive within ${ms / 1000} s`)), ms);
  });
  return Promise.race([load, late]).finally(() => clearTimeout(timer));
}

/** React.lazy over a chunk, within the time-out. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyChunk<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): LazyExoticComponent<T> {
  return lazy(() => withinChunkTimeout(load()));
}

/**
 * Whether an error is a chunk that could not be fetched: timed out here, or refused by the browser (the
 * server unreachable, or a newer console installed meanwhile, whose build no longer has the old chunks).
 * The words are each browser's own for a failed dynamic import.
 */
export function isChunkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(error.message);
}

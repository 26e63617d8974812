/** A page chunk that has not arrived in 120 s fails as a load failure (spec 002 §9); browsers' own failures are known too. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, isChunkFailure, withinChunkTimeout } from '../../app/shell/chunks';

describe('chunk loading', () => {
  afterEach(() => vi.useRealTimers());

  it('fails a download still pending after 120 s, and not a second before', async () => {
    vi.useFakeTimers();
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    const outcome = withinChunkTimeout(new Promise(() => undefined)).then(() => 'arrived', (e: unknown) => e);
    await vi.advanceTimersByTimeAsync(119_999);
    let settled: unknown = 'pending';
    void outcome.then((v) => (settled = v));
    await Promise.resolve();
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(isChunkFailure(error)).toBe(true);
  });

  it('answers a download that arrives in time, and leaves no timer behind', async () => {
    vi.useFakeTimers();
    const module = { default: 'page' };
    await expect(withinChunkTimeout(Promise.resolve(module))).resolves.toBe(module);
    expect(vi.getTimerCount()).toBe(0);
    await expect(withinChunkTimeout(Promise.reject(new TypeError('boom')))).rejects.toThrow('boom');
    expect(vi.getTimerCount()).toBe(0);
  });

  it("knows each browser's words for an import that failed, and nothing else", () => {
    expect(isChunkFailure(new TypeError('Failed to fetch dynamically imported module: http://x/assets/A-1.js'))).toBe(true); // Chromium
    expect(isChunkFailure(new TypeError('error loading dynamically imported module: http://x/assets/A-1.js'))).toBe(true); // Firefox
    expect(isChunkFailure(new TypeError('Importing a module script failed.'))).toBe(true); // Safari
    expect(isChunkFailure(new Error('Unable to preload CSS for /assets/A-1.css'))).toBe(true); // Vite's preload
    expect(isChunkFailure(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
    expect(isChunkFailure('Failed to fetch dynamically imported module')).toBe(false);
  });
});

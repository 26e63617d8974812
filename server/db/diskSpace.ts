/**
 * The embedded database's disk. PostgreSQL inside PGlite cannot survive running out of space: a write of
 * its write-ahead log that fails leaves it retrying for ever, the one connection of the server held, every
 * call unanswered. So the server never lets it get there: below DISK_RESERVE_MB of free space on the data
 * folder's filesystem, statements that write are refused before they reach the database (SQLSTATE 53100,
 * disk_full, which callers answer as "the server's disk is full: nothing was saved"), reads go on, and
 * writes are let through again as soon as space has come back. The reserve covers what the database
 * writes by itself meanwhile (a checkpoint, a new log segment of 16 MB, the statistics).
 */
import { statfsSync } from 'node:fs';

/** How stale the free-space figure may be: a statfs is a few microseconds, a burst of writes fills little in this. */
const CHECK_MS = 100;

export class DiskFull extends Error {
  readonly code = '53100';
  constructor(freeBytes: number, reserveBytes: number) {
    super(`the data folder's disk has ${mb(freeBytes)} free, less than the ${mb(reserveBytes)} kept in reserve: nothing is written until space is freed`);
  }
}

const mb = (bytes: number) => `${Math.max(0, Math.floor(bytes / 2 ** 20))} MB`;

export interface DiskSpace {
  /** Throws DiskFull when the free space is below the reserve. */
  checkWrite(): void;
  /** Free bytes as last measured, and the reserve. */
  figures(): { freeBytes: number; reserveBytes: number };
}

export function watchDiskSpace(dir: string, reserveBytes: number, log: (line: string) => void = console.warn): DiskSpace {
  let checkedAt = -Infinity;
  let freeBytes = Infinity;
  let low = false;
  const measure = () => {
    const now = performance.now();
    if (now - checkedAt < CHECK_MS) return;
    checkedAt = now;
    const { bavail, bsize } = statfsSync(dir);
    freeBytes = bavail * bsize;
    const nowLow = freeBytes < reserveBytes;
    if (nowLow !== low) log(nowLow ? `database: ${new DiskFull(freeBytes, reserveBytes).message}` : `database: ${mb(freeBytes)} free again: writes resume`);
    low = nowLow;
  };
  return {
    checkWrite() {
      measure();
      if (low) throw new DiskFull(freeBytes, reserveBytes);
    },
    figures() {
      measure();
      return { freeBytes, reserveBytes };
    },
  };
}

/**
 * Whether a statement only reads (or only ends or marks a transaction): those run even when the disk is
 * low. A statement wrongly counted as a write only waits for space; one wrongly counted as a read is
 * still held by the reserve.
 */
export function onlyReads(text: string): boolean {
  if (/^\s*\(?\s*(select|explain|show|begin|start\s+transaction|commit|end|rollback|savepoint|release|set|reset|listen|unlisten|fetch|close|deallocate)\b/i.test(text)) return true;
  return /^\s*with\b/i.test(text) && !/\b(insert|update|delete|merge)\b/i.test(text);
}

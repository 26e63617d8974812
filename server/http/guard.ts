/**
 * The shape every request body must have before any handler sees it: a bounded depth, bounded arrays,
 * no NUL characters (PostgreSQL cannot store them and answers an error instead). A call that breaks
 * these rules is refused with the envelope, so no malformed value reaches a query or a recursive walk.
 */
import { refuse } from './envelope';
import type { PlainReasonCode } from '../../contract/generated/reasons';

/** Deeper than any form or condition the console sends (a description library with children is ~6). */
export const MAX_DEPTH = 16;
/** Longer than any selection the console sends in one call (batch commands, bulk sign-off, imports). */
export const MAX_ARRAY = 5000;

export const INT_MAX = 2147483647;

export function checkShape(value: unknown): void {
  // Iterative, so a body nested thousands deep is refused without deep recursion.
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 0 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) throw refuse('request.nulCharacter');
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_DEPTH) throw refuse('request.tooDeep');
    if (Array.isArray(v)) {
      if (v.length > MAX_ARRAY) throw refuse('request.tooManyItems', { max: MAX_ARRAY });
      for (const item of v) stack.push({ v: item, depth: depth + 1 });
    } else {
      for (const [key, item] of Object.entries(v)) {
        if (key.includes('\u0000')) throw refuse('request.nulCharacter');
        stack.push({ v: item, depth: depth + 1 });
      }
    }
  }
}

/** A key that names a row (`fId`, `deviceId`, `gateway_id`, `ids`, `fDeviceIds`). */
const ID_KEY = /(^id|Id|_id)s?$/;

/**
 * A number given for an id that no integer column can hold: 1e308, 2^53. A fraction within range (1.5)
 * is left to the call, whose declaration may have its own words for it (地区编号必须是数字); should it
 * reach a query, the database refuses it and server/db/errors.ts answers the refusal.
 */
function outOfColumn(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value) || Math.abs(value) > INT_MAX;
  return typeof value === 'string' && /^\s*-?\d{10,}\s*$/.test(value) && Math.abs(Number(value)) > INT_MAX;
}

/**
 * Ids at the top of a body or in its condition, whatever the call: a number that is not an integer of
 * the column is refused here, so no handler passes it to a query. (Text ids such as a device number are
 * left to the handler.)
 */
export function checkIds(body: unknown): void {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const record = body as Record<string, unknown>;
  const condition = record.condition && typeof record.condition === 'object' && !Array.isArray(record.condition) ? (record.condition as Record<string, unknown>) : {};
  for (const [key, value] of [...Object.entries(record), ...Object.entries(condition)]) {
    if (!ID_KEY.test(key)) continue;
    if (Array.isArray(value) ? value.some(outOfColumn) : outOfColumn(value)) throw refuse('request.malformedField', { field: key });
  }
}

/** An id is a positive integer that fits the column: never `true`, `"1"`, 1.5 or 2^31. */
export function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= INT_MAX;
}

function listOf(value: unknown): unknown[] {
  if (value === undefined || value === null || value === '') return [];
  return Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
}

/** An id as the legacy calls send it: the integer, or its digits as a string ("12", " 12 "). */
function asId(value: unknown): number | null {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return isId(n) ? n : null;
}

/**
 * A list of ids as the legacy calls send them (an array, or "1,2,3"), each once. Every item must be an
 * id: a list with anything else in it (`true`, "abc", 1.5, 0, 2^31, an empty item) is refused whole,
 * naming the request's `field`, so a call never acts on the part of a selection it could read.
 */
export function idList(value: unknown, field: string): number[] {
  const ids = listOf(value).map(asId);
  if (ids.some((id) => id === null)) throw refuse('request.malformedField', { field });
  return [...new Set(ids as number[])];
}

/**
 * The ids of a comma list a request writes into a field (a product's functions), in order, each once;
 * blank items name nothing and are skipped. Null when an item is not an id: the field is refused whole.
 */
export function givenIdList(value: unknown): number[] | null {
  const items = listOf(value).filter((v) => !(typeof v === 'string' && v.trim() === ''));
  const ids = items.map(asId);
  return ids.some((id) => id === null) ? null : [...new Set(ids as number[])];
}

/**
 * The ids of a comma list stored in a row (a product's description libraries), in order, each once.
 * Rows written by the legacy system may hold blanks or stray text there: those items name nothing and
 * are skipped, since a stored row cannot be refused the way a request is.
 */
export function storedIdList(value: unknown): number[] {
  return [...new Set(listOf(value).map(asId).filter((id): id is number => id !== null))];
}

/**
 * The rows of a batch call (bind, unbind, save several): the legacy pages send them as `items`, `list` or
 * `records`. Anything in it that is not an object counts as an empty row, which the call's own checks
 * then refuse by what is missing; no rows at all is refused with `none`, the call's own words.
 */
export function batchRows(body: Record<string, unknown>, none: PlainReasonCode): Record<string, unknown>[] {
  const items = body.items ?? body.list ?? body.records;
  if (!Array.isArray(items) || items.length === 0) throw refuse(none);
  return items.map((i) => (i && typeof i === 'object' ? (i as Record<string, unknown>) : {}));
}

/** A text field of a body as it was typed, trimmed; an absent or null field is empty, anything else its text. */
export function bodyText(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  return typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v);
}

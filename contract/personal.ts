/**
 * Personal data rules shared by the console and the server (spec 001 §2.12, §5): how a phone or an ID
 * number is masked — the one rule of every list, drawer, profile and the operation log — and how the
 * single search input of the holographic and call-relation searches is read. Pure functions, so both
 * sides agree exactly.
 */

/** Mainland mobile: 1, then 3–9, then nine digits. */
export const MOBILE = /^1[3-9]\d{9}$/;
/** 15 digits, 18 digits, or 17 digits and X (case-insensitive). */
export const IDCARD = /^(\d{15}|\d{17}[\dXx])$/;

/**
 * What is wrong with a search input: the console words it by key (`intel.search.<key>`), the server
 * refuses it by code (`intel.searchEmpty`, `intel.phoneInvalid`, `intel.termInvalid`, `intel.idcardInvalid`).
 */
export type SearchMessage = 'empty' | 'phone' | 'length' | 'idcard';

export type SearchTerm = { phone: string } | { idcard: string } | { error: SearchMessage };

/** Reads the search input as the spec orders the checks: empty, 11 characters, 15/18, ID pattern. */
export function readSearch(input: unknown): SearchTerm {
  const value = String(input ?? '').trim();
  if (!value) return { error: 'empty' };
  if (value.length === 11) return MOBILE.test(value) ? { phone: value } : { error: 'phone' };
  if (value.length !== 15 && value.length !== 18) return { error: 'length' };
  return IDCARD.test(value) ? { idcard: value.toUpperCase() } : { error: 'idcard' };
}

/** 11-digit phone: first 3 and last 4 kept. Anything else keeps its ends only. */
export function maskPhone(phone: unknown): string {
  const p = typeof phone === 'string' || typeof phone === 'number' ? String(phone) : '';
  if (p.length === 11) return `${p.slice(0, 3)}****${p.slice(7)}`;
  if (p.length <= 4) return p ? '*'.repeat(p.length) : '';
  return `${p.slice(0, 2)}${'*'.repeat(p.length - 4)}${p.slice(-2)}`;
}

/**
 * ID number: the middle (birth date and sequence) masked, region prefix and last 4 kept. A value masked
 * already (the server masks before answering) comes out the same.
 */
export function maskIdcard(idcard: unknown): string {
  const v = typeof idcard === 'string' || typeof idcard === 'number' ? String(idcard) : '';
  if (v.length === 18) return `${v.slice(0, 6)}********${v.slice(14)}`;
  if (v.length === 15) return `${v.slice(0, 6)}******${v.slice(12)}`;
  if (v.length <= 4) return v ? '*'.repeat(v.length) : '';
  return `${v.slice(0, 2)}${'*'.repeat(v.length - 4)}${v.slice(-2)}`;
}

/** A comma list of phones or ID numbers (a watch-list person's phones), masked item by item. */
export function maskList(kind: 'phone' | 'idcard', value: unknown): string {
  const mask = kind === 'phone' ? maskPhone : maskIdcard;
  return String(value ?? '')
    .split(',')
    .map((v) => mask(v.trim()))
    .join(', ');
}

/**
 * Free text (a phone-book name, often the number itself) with every mainland mobile and 18-character ID
 * number in it masked, so a name never carries what the number beside it hides.
 */
export function maskNumbersIn(text: unknown): string {
  return String(text ?? '')
    .replace(/(?<![\dXx])\d{17}[\dXx](?![\dXx])/g, (v) => maskIdcard(v))
    // A phone as phone books write it: bare, or after +86, 86 or 0.
    .replace(/(?<!\d)(\+?86|0)?(1[3-9]\d{9})(?!\d)/g, (_v, prefix: string | undefined, phone: string) => (prefix ?? '') + maskPhone(phone));
}

/**
 * The console's route to the call-relation graph of a person, by user id: the console holds no full
 * phone to put in an address (a typed phone still opens the graph with `?phone=`).
 */
export const relationHref = (userId: number) => `/relation?userId=${encodeURIComponent(String(userId))}`;

/** A URL query without the phone and ID number, for what the console remembers (the tab list). */
export function withoutPersonalQuery(search: string): string {
  const q = new URLSearchParams(search);
  for (const key of ['phone', 'idcard']) q.delete(key);
  const rest = q.toString();
  return rest ? `?${rest}` : '';
}

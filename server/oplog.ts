/** The operation log: every write, who made it, from where, with what, and whether it succeeded. */
import type { FastifyRequest } from 'fastify';
import type { DB } from './db';
import type { LogName, User } from './crud/types';
import { maskIdcard, maskPhone } from '../contract/personal';

export type { LogName };

/**
 * Every log name declared by a registered call, by its key, its path and its zh-CN words, so rows
 * written before keys were stored (a path, or the zh-CN name) still read as a name.
 */
const NAMES = new Map<string, LogName>();
/** Paths of writes registered without a name (they log their path); a test keeps this empty. */
export const unnamedWrites = new Set<string>();

export function declareLogName(path: string, name: LogName) {
  NAMES.set(name.key, name);
  NAMES.set(path, name);
  if (!NAMES.has(name['zh-CN'])) NAMES.set(name['zh-CN'], name);
}

/** The three-language name of a stored log name (key, or an older row's path or words), if known. */
export const logNameOf = (stored: string): LogName | undefined => NAMES.get(stored);

const SECRET_KEYS = /pass|pwd|token|secret/i;
const MAX_MESSAGE = 2000;

/** Personal data is kept recognisable but not readable, by the rule every screen shows it with (contract/personal.ts). */
const PERSONAL_KEYS: [RegExp, (v: string) => string][] = [
  [/idcard/i, maskIdcard],
  [/phone/i, maskPhone],
];
/** Keys holding a person's name (or the account typed at login, a phone): kept to their first character. */
const NAME_KEYS = /chinese_?name|user_?name|real_?name|person_?name|^name$/i;

/** A person's name as 张** (a phone typed as the account as 138****0000): who it was stays guessable only to who knows. */
export function maskName(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const v = String(value).trim();
  if (!v) return null;
  if (/^\d{7,}$/.test(v)) return maskPhone(v);
  return v.slice(0, 1) + '*'.repeat(Math.max(v.length - 1, 1));
}

function maskPersonal(key: string, value: unknown): unknown {
  if (NAME_KEYS.test(key) && (typeof value === 'string' || typeof value === 'number')) return maskName(value);
  const rule = PERSONAL_KEYS.find(([re]) => re.test(key));
  if (!rule || (typeof value !== 'string' && typeof value !== 'number')) return value;
  const [, mask] = rule;
  return String(value)
    .split(',')
    .map(mask)
    .join(',');
}

/** Free text (an error's message) with mobile phones and ID numbers masked, for the server's own log. */
export function maskPersonalText(text: string): string {
  return text.replace(/(?<!\d)\d{17}[\dXx](?!\d)/g, maskIdcard).replace(/(?<!\d)1[3-9]\d{9}(?!\d)/g, maskPhone);
}

/** The body without secrets or readable personal data, cut to a readable length. */
function summarize(body: Record<string, unknown>): string {
  const text = JSON.stringify(body, (k, v) => (k && SECRET_KEYS.test(k) ? '***' : k ? maskPersonal(k, v) : v));
  return text.length > MAX_MESSAGE ? text.slice(0, MAX_MESSAGE) + '…' : text;
}

export async function record(
  db: DB,
  entry: { request: FastifyRequest; user: User | null; logname: string; body: Record<string, unknown>; succeed: boolean; error?: unknown },
) {
  const { request, user, logname, body, succeed, error } = entry;
  const message = summarize(body) + (error instanceof Error ? ` => ${error.message}` : '');
  await db
    .insertInto('t_sys_log')
    .values({
      message,
      logtype: request.method,
      userId: user?.fId ?? null,
      // Masked: the log is read by other staff; the list shows the operator's current name by userId.
      userName: maskName(user?.fChineseName ?? (typeof body.userName === 'string' ? body.userName.slice(0, 50) : null)),
      logname,
      ip: request.ip,
      succeed: succeed ? 1 : 0,
    })
    .execute();
}

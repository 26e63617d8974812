/** The operation log: every write, who made it, from where, with what, and whether it succeeded. */
import type { FastifyRequest } from 'fastify';
import type { DB } from './db';
import type { User } from './crud/types';

/** A call's name in the operation log: a stable key (stored) and its words in the console's languages. */
export interface LogName {
  key: string;
  'zh-CN': string;
  'zh-TW': string;
  'en-US': string;
}

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

/** Personal data is kept recognisable but not readable: an ID its first 6 and last 4, a phone its first 3 and last 4. */
const PERSONAL_KEYS: [RegExp, number, number][] = [
  [/idcard/i, 6, 4],
  [/phone/i, 3, 4],
];

function maskPersonal(key: string, value: unknown): unknown {
  const rule = PERSONAL_KEYS.find(([re]) => re.test(key));
  if (!rule || (typeof value !== 'string' && typeof value !== 'number')) return value;
  const [, head, tail] = rule;
  return String(value)
    .split(',')
    .map((v) => (v.length <= head + tail ? v : v.slice(0, head) + '*'.repeat(v.length - head - tail) + v.slice(-tail)))
    .join(',');
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
      userName: user?.fChineseName ?? (typeof body.userName === 'string' ? body.userName.slice(0, 50) : null),
      logname,
      ip: request.ip,
      succeed: succeed ? 1 : 0,
    })
    .execute();
}

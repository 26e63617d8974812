/** The operation log: every write, who made it, from where, with what, and whether it succeeded. */
import type { FastifyRequest } from 'fastify';
import type { DB } from './db';
import type { User } from './crud/types';

const SECRET_KEYS = /pass|pwd|token|secret/i;
const MAX_MESSAGE = 2000;

/** The body without secrets, cut to a readable length. */
function summarize(body: Record<string, unknown>): string {
  const text = JSON.stringify(body, (k, v) => (k && SECRET_KEYS.test(k) ? '***' : v));
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

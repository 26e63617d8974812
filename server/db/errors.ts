/**
 * What a database error means to the caller. Errors of SQLSTATE class 22 (a value out of the column's
 * range, a date that does not exist, text the column cannot hold) and the integrity errors below come
 * from the request's values, never from the server: they answer a refusal in the envelope, not a server
 * error. The checks before the query (server/http/guard.ts, crud/query.ts) catch these first; this is
 * the net for a handler that passes a value through unchecked.
 */
import { Refusal } from '../http/envelope';
import { MALFORMED } from '../http/guard';

const BY_CODE: Record<string, string> = {
  '23502': `${MALFORMED}：缺少必填项`,
  '23503': '关联的数据不存在',
  '23514': `${MALFORMED}：取值不在允许范围内`,
};

/** A statement that ran past STATEMENT_TIMEOUT_MS (server/db/index.ts). */
export const QUERY_TIMEOUT = '查询超时，请缩小查询范围后重试';

export function refusalFor(error: unknown): Refusal | null {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== 'string') return null;
  if (code.startsWith('22')) return new Refusal(`${MALFORMED}：数值超出范围或格式不正确`);
  if (code === '57014') return new Refusal(QUERY_TIMEOUT, 503);
  return BY_CODE[code] ? new Refusal(BY_CODE[code]) : null;
}

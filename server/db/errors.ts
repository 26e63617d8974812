/**
 * What a database error means to the caller. Errors of SQLSTATE class 22 (a value out of the column's
 * range, a date that does not exist, text the column cannot hold) and the integrity errors below come
 * from the request's values, never from the server: they answer a refusal in the envelope, not a server
 * error. The checks before the query (server/http/guard.ts, crud/query.ts) catch these first, and the
 * domain modules check first where the specs give their own words (a product that still has devices);
 * this is the net for everything else, generated constraints included (foreign keys, CHECKs, unique indexes).
 */
import { Refusal } from '../http/envelope';
import { MALFORMED } from '../http/guard';
import { entities } from '../generated/entities';
import { fieldRefusal } from '../crud/validate';

interface DatabaseError {
  code?: unknown;
  message?: string;
  table?: string;
  constraint?: string;
}

/** A statement that ran past STATEMENT_TIMEOUT_MS (config.statementTimeoutMs). */
export const QUERY_TIMEOUT = '查询超时，请缩小查询范围后重试';
const STILL_REFERENCED = '该数据仍被其他数据引用，无法删除';

const snake = (field: string) => field.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());

/**
 * Every unique index a save can meet, by its name (PostgreSQL's `<table>_<column>_key`): a declared
 * entity's unique field answers the field's unique message of its schema, naming field and rule, whether
 * the generated engine or a hand-written save (users, roles, menus) wrote the row. Two saves of one new
 * value pass their duplicate checks together and the later insert meets the index: it must read exactly
 * as the check's refusal would have. Unique indexes of tables no schema declares name their words here.
 */
const UNIQUE_REFUSALS = new Map<string, () => Refusal>([
  ...Object.values(entities).flatMap((model) => model.unique.map((field) => [`${model.table}_${snake(field)}_key`, () => fieldRefusal(model, field, 'unique', 409)] as const)),
  ['t_gateway_device_f_device_id_key', () => new Refusal('网关子设备添加失败：设备已绑定网关', 409)],
]);
const DUPLICATE = '数据已存在';

/** The refusal of a unique violation (23505), by the index it met; a primary key's is the server's own fault. */
function uniqueRefusal(e: DatabaseError): Refusal | null {
  const name = e.constraint ?? /unique constraint "([^"]+)"/.exec(e.message ?? '')?.[1] ?? '';
  if (name.endsWith('_pkey')) return null;
  return UNIQUE_REFUSALS.get(name)?.() ?? new Refusal(DUPLICATE, 409);
}

export function refusalFor(error: unknown): Refusal | null {
  const e = (error ?? {}) as DatabaseError;
  const code = e.code;
  if (typeof code !== 'string') return null;
  if (code === '23505') return uniqueRefusal(e);
  if (code.startsWith('22')) return new Refusal(`${MALFORMED}：数值超出范围或格式不正确`);
  if (code === '57014') return new Refusal(QUERY_TIMEOUT, 503);
  if (code === '23502') return new Refusal(`${MALFORMED}：缺少必填项`);
  if (code === '23514') return new Refusal(`数据不符合取值要求（${e.constraint ?? e.table ?? ''}）`);
  // PostgreSQL reports ON DELETE RESTRICT as 23001 where PGlite's build does.
  if (code === '23001') return new Refusal(STILL_REFERENCED, 409);
  if (code !== '23503') return null;
  // "update or delete on table …": the row is still referred to; "insert or update …": it refers to a missing row.
  if (/^update or delete/.test(e.message ?? '')) return new Refusal(STILL_REFERENCED, 409);
  return new Refusal(`关联的数据不存在（${e.constraint ?? ''}）`);
}

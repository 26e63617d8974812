/**
 * What a database error means to the caller. Errors of SQLSTATE class 22 (a value out of the column's
 * range, a date that does not exist, text the column cannot hold) and the integrity errors below come
 * from the request's values, never from the server: they answer a refusal in the envelope, not a server
 * error. The checks before the query (server/http/guard.ts, crud/query.ts) catch these first, and the
 * domain modules check first where the specs give their own words (a product that still has devices);
 * this is the net for everything else, generated constraints included (foreign keys, CHECKs, unique indexes).
 */
import { refuse, type Refusal } from '../http/envelope';
import { entities } from '../generated/entities';
import { fieldRefusal } from '../crud/validate';

interface DatabaseError {
  code?: unknown;
  message?: string;
  table?: string;
  constraint?: string;
}

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
  ['t_gateway_device_f_device_id_key', () => refuse('gateway.deviceBound')],
]);

/** The refusal of a unique violation (23505), by the index it met; a primary key's is the server's own fault. */
function uniqueRefusal(e: DatabaseError): Refusal | null {
  const name = e.constraint ?? /unique constraint "([^"]+)"/.exec(e.message ?? '')?.[1] ?? '';
  if (name.endsWith('_pkey')) return null;
  return UNIQUE_REFUSALS.get(name)?.() ?? refuse('data.duplicate');
}

export function refusalFor(error: unknown): Refusal | null {
  const e = (error ?? {}) as DatabaseError;
  const code = e.code;
  if (typeof code !== 'string') return null;
  if (code === '23505') return uniqueRefusal(e);
  if (code.startsWith('22')) return refuse('request.numberInvalid');
  // A statement that ran past STATEMENT_TIMEOUT_MS (config.statementTimeoutMs).
  if (code === '57014') return refuse('server.queryTimeout');
  // The database's disk is full (disk_full): the write was not made, and what was stored is intact.
  if (code === '53100') return refuse('server.diskFull');
  if (code === '23502') return refuse('request.valueMissing');
  if (code === '23514') return refuse('data.constraint', { constraint: e.constraint ?? e.table ?? '' });
  // PostgreSQL reports ON DELETE RESTRICT as 23001 where PGlite's build does.
  if (code === '23001') return refuse('data.stillReferenced');
  if (code !== '23503') return null;
  // "update or delete on table …": the row is still referred to; "insert or update …": it refers to a missing row.
  if (/^update or delete/.test(e.message ?? '')) return refuse('data.stillReferenced');
  return refuse('data.referenceMissing', { constraint: e.constraint ?? '' });
}

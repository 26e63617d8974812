/**
 * A write the database refuses by a generated constraint (server/generated/snapshot: foreign keys and
 * CHECKs) is the caller's mistake, not the server's: it is answered as a refusal naming what was wrong,
 * never as a 500. The domain modules check first where the specs give their own words (a product that
 * still has devices); these are the words for everything else.
 */
import { Refusal } from './envelope';

interface DatabaseError {
  code?: string;
  message?: string;
  table?: string;
  constraint?: string;
}

/**
 * The refusal for a foreign-key (23503; 23001 where PostgreSQL reports ON DELETE RESTRICT as a restrict
 * violation, as PGlite's does) or check (23514) violation; null for any other error.
 */
export function constraintRefusal(error: unknown): Refusal | null {
  const e = error as DatabaseError;
  if (e?.code === '23514') return new Refusal(`数据不符合取值要求（${e.constraint ?? e.table ?? ''}）`);
  if (e?.code === '23001') return new Refusal('该数据仍被其他数据引用，无法删除', 409);
  if (e?.code !== '23503') return null;
  // "update or delete on table …": the row is still referred to; "insert or update …": it refers to a missing row.
  if (/^update or delete/.test(e.message ?? '')) return new Refusal('该数据仍被其他数据引用，无法删除', 409);
  return new Refusal(`关联的数据不存在（${e.constraint ?? ''}）`);
}

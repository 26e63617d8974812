/**
 * Sign-off (spec 001 §4): alarms, one-touch alerts and feedback go from unsigned (0) to signed (1) with
 * a handling note, who signed and when, never back. Each of those tables has fStatus, fHandleContent,
 * fHandleUserId and fHandleTime; the rows a caller may sign are the rows its list shows (the entity's
 * scope).
 */
import { Refusal, reason, refuse, type Reason } from '../http/envelope';
import { entity, scoped } from '../crud/engine';
import type { CallContext } from '../crud/types';
import type { PlainReasonCode } from '../../contract/reasons';
import { NOTE_MAX } from '../../contract/signOff';

type Row = Record<string, unknown>;

/** The refusals of one kind of row's sign-off: its id missing, the row signed already. */
export interface SignRefusals {
  idRequired: PlainReasonCode;
  alreadySigned: PlainReasonCode;
}

/** The handling note of a sign-off body, trimmed; refused when missing or too long. */
export function handlingNote(body: Row): string {
  const text = typeof body.fHandleContent === 'string' ? body.fHandleContent.trim() : '';
  if (!text) throw refuse('signOff.noteRequired');
  if (text.length > NOTE_MAX) throw refuse('signOff.noteTooLong', { max: NOTE_MAX });
  return text;
}

/**
 * Signs off the given rows of `entityName` the caller may see that are still unsigned, in one
 * statement, so two people signing the same row at once cannot both succeed. Answers the ids it signed.
 */
export async function signRows(ctx: CallContext, entityName: string, ids: number[], values: Row): Promise<Set<number>> {
  const model = entity(entityName);
  const key = `${model.table}.fId`;
  const visible = scoped(ctx, model, ctx.user).clearSelect().select(key).where(key, 'in', ids);
  const done = await ctx.db
    .updateTable(model.table)
    .set({ ...values, fStatus: 1, fHandleUserId: ctx.user.fId, fHandleTime: new Date() })
    .where('fId', 'in', visible)
    .where('fStatus', '=', 0)
    .returning('fId')
    .execute();
  return new Set(done.map((r) => r.fId as number));
}

/** Why a row was not signed: the caller cannot see it (or it does not exist), or it was signed already. */
export async function refusalFor(ctx: CallContext, entityName: string, id: number, alreadySigned: PlainReasonCode): Promise<Reason> {
  const model = entity(entityName);
  const row = await scoped(ctx, model, ctx.user).where(`${model.table}.fId`, '=', id).executeTakeFirst();
  return reason(row ? alreadySigned : 'signOff.notFound');
}

/**
 * `{ fId, fHandleContent }`: one row signed with its note (and `values`; the answer is the endpoint's
 * notice), or the reason it was not.
 */
export async function signOne(ctx: CallContext, entityName: string, refusals: SignRefusals, values: Row = {}) {
  const id = Number(ctx.body.fId);
  if (!Number.isInteger(id) || id <= 0) throw refuse(refusals.idRequired);
  const done = await signRows(ctx, entityName, [id], { ...values, fHandleContent: handlingNote(ctx.body) });
  if (!done.has(id)) throw new Refusal(await refusalFor(ctx, entityName, id, refusals.alreadySigned));
  return null;
}

/**
 * Sign-off (spec 001 §4): alarms, one-touch alerts and feedback go from unsigned (0) to signed (1) with
 * a handling note, who signed and when, never back. Each of those tables has fStatus, fHandleContent,
 * fHandleUserId and fHandleTime; the rows a caller may sign are the rows its list shows (the entity's
 * scope).
 */
import { S } from '../http/catalog';
import { Refusal } from '../http/envelope';
import { Answer } from '../http/route';
import { entity, scoped } from '../crud/engine';
import type { CallContext } from '../crud/types';
import { NOTE_MAX, SIGN_MESSAGES } from '../../adapters/signOff';

type Row = Record<string, unknown>;

export { SIGN_MESSAGES };

/** The handling note of a sign-off body, trimmed; refused when missing or too long. */
export function handlingNote(body: Row): string {
  const text = typeof body.fHandleContent === 'string' ? body.fHandleContent.trim() : '';
  if (!text) throw new Refusal(SIGN_MESSAGES.noteRequired);
  if (text.length > NOTE_MAX) throw new Refusal(SIGN_MESSAGES.noteTooLong);
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
export async function refusalFor(ctx: CallContext, entityName: string, id: number, alreadySigned: string): Promise<string> {
  const model = entity(entityName);
  const row = await scoped(ctx, model, ctx.user).where(`${model.table}.fId`, '=', id).executeTakeFirst();
  return row ? alreadySigned : SIGN_MESSAGES.notFound;
}

/** `{ fId, fHandleContent }`: one row signed with its note (and `values`), or the reason it was not. */
export async function signOne(ctx: CallContext, entityName: string, messages: { idRequired: string; alreadySigned: string }, values: Row = {}) {
  const id = Number(ctx.body.fId);
  if (!Number.isInteger(id) || id <= 0) throw new Refusal(messages.idRequired);
  const done = await signRows(ctx, entityName, [id], { ...values, fHandleContent: handlingNote(ctx.body) });
  if (!done.has(id)) throw new Refusal(await refusalFor(ctx, entityName, id, messages.alreadySigned));
  return new Answer(null, SIGN_MESSAGES.signed);
}

/** The handling note as the API document states it, with the dialog's words for a missing or long one. */
export const NOTE_SCHEMA = { type: ['string', 'null'], maxLength: NOTE_MAX, 'x-messages': { required: SIGN_MESSAGES.noteRequired, maxLength: SIGN_MESSAGES.noteTooLong } };

/** The body of a one-row sign-off: the row's id and the note. */
export const signOneBody = (what: string, idRequired: string, more: Record<string, unknown> = {}) =>
  S.object({ fId: { ...S.id(what), 'x-messages': { required: idRequired } }, fHandleContent: NOTE_SCHEMA, ...more }, ['fId', 'fHandleContent']);

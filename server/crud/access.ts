/**
 * Which permission code a generated call needs, decided once, here, from what is true — and the variant
 * of the call that decision picked, handed to the handler so it acts on the same value:
 *
 * - a save creates or updates by the row key `rowKey` reads, the very key the engine saves by;
 * - `variantBy: { in: "row" }`: a change to a stored row needs the code of the row's stored value (a
 *   tenant's status needs tenant:status, a staff member's user:edit), whatever the request claims;
 * - `variantBy: { in: "condition" }`: a list variant is selected by one filter of the condition (the
 *   tenant list: condition.userType 2);
 * - `variantBy: { in: "body", keys }`: the group of keys the body names picks the variant (a user by fId
 *   for the user page, a person by userId, phone or idcard for the profile).
 *
 * A request that carries the deciding value twice, in a place the declaration does not name, or under
 * one of its other names (`aliases`), is refused with 401: it would otherwise be read one way by this
 * check and another way by a handler.
 */
import { Forbidden } from '../http/envelope';
import type { DB } from '../db';
import type { EntityModel, RouteSpec, VariantBy } from './types';

type Body = Record<string, unknown>;

const blank = (v: unknown) => v === undefined || v === null || v === '';

const conditionOf = (body: Body): Body =>
  body.condition && typeof body.condition === 'object' && !Array.isArray(body.condition) ? (body.condition as Body) : {};

/** The row a write names: its primary key, or fId as the generic console forms send it for every entity. */
export const rowKey = (model: EntityModel, body: Body): unknown => body[model.primaryKey] ?? body.fId;

/** A save without a row key creates; with one (even an invalid one, refused later) it updates. */
export const creates = (model: EntityModel, body: Body) => blank(rowKey(model, body));

export interface Decided {
  /** Any of these codes lets the call through. */
  codes: string[];
  /** The variant picked: the deciding value (a row's or a filter's), or the name of the key group. */
  variant?: string;
}

/** A value as a variant's name: "2", 2 and " 2 " are the same variant; anything else is none. */
const asVariant = (v: unknown): string | undefined => (typeof v === 'number' || typeof v === 'string' ? String(v).trim() : undefined);

function refuseElsewhere(body: Body, names: string[], place: 'condition' | 'body') {
  const condition = conditionOf(body);
  for (const name of names) {
    if (place !== 'body' && !blank(body[name])) throw new Forbidden();
    if (place !== 'condition' && !blank(condition[name])) throw new Forbidden();
  }
}

/** The variant a declaration picks from the request or the stored row, refusing an ambiguous request. */
async function variantOf(decl: VariantBy, model: EntityModel, body: Body, db: DB): Promise<string | undefined> {
  if (decl.in === 'body') {
    const groups = decl.keys ?? [];
    refuseElsewhere(body, groups.flatMap((g) => g.keys), 'body');
    const named = groups.filter((g) => g.keys.some((k) => !blank(body[k])));
    if (named.length > 1) throw new Forbidden();
    return named[0]?.name;
  }
  const key = decl.key!;
  if (decl.in === 'condition') {
    refuseElsewhere(body, [key], 'condition');
    refuseElsewhere(body, decl.aliases ?? [], 'body');
    refuseElsewhere(body, decl.aliases ?? [], 'condition');
    return asVariant(conditionOf(body)[key]);
  }
  // in: row — the stored row decides; the request's claims about it are not read.
  const id = rowKey(model, body);
  if (typeof id !== 'number' || !Number.isInteger(id) || id <= 0) return undefined;
  const row = await db.selectFrom(model.table).select(key).where(model.primaryKey, '=', id).executeTakeFirst();
  return row ? asVariant((row as Body)[key]) : undefined;
}

/** The codes and variant of one call of a generated route. */
export async function decide(route: RouteSpec, model: EntityModel, body: Body, db: DB): Promise<Decided> {
  const p = route.permission;
  const base = typeof p === 'string' ? p : creates(model, body) ? p.create : p.update;
  const byValue = route.byValue ? Object.values(route.byValue.codes) : [];
  const decl = route.variantBy;
  if (!decl) return { codes: [base, ...byValue] };
  const variant = await variantOf(decl, model, body, db);
  const code = variant === undefined ? undefined : decl.in === 'body' ? decl.keys?.find((g) => g.name === variant)?.permission : decl.values?.[variant];
  return { codes: [code ?? base, ...byValue], variant };
}

/** Every code a route may ask for, for the API document. */
export function codesOf(route: RouteSpec): string[] {
  const p = route.permission;
  const decl = route.variantBy;
  const codes = [
    ...(typeof p === 'string' ? [p] : [p.create, p.update]),
    ...Object.values(decl?.values ?? {}),
    ...(decl?.keys ?? []).map((g) => g.permission),
  ];
  return [...new Set(codes)];
}

/**
 * The rows a caller may see of an entity and how its personal data leaves the server, both from the
 * entity's declaration (resources/<entity>.resource.json `scope` and `unmask`, the schema's `x-mask`),
 * decided here and nowhere else. Scopes fail closed: a staff member with no jurisdiction sees no row that
 * is seen by jurisdiction, and an entity whose declaration leaves it to a module that gives no scope
 * shows nothing.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { maskList } from '../../contract/personal';
import { rentingIn, withinJurisdiction } from '../auth/jurisdiction';
import { isAdmin, type EntityHooks, type EntityModel, type Query, type User } from './types';

type Row = Record<string, unknown>;

const nothing = sql<SqlBool>`false`;

/** The houses of the caller's jurisdiction, as a subquery of house ids. */
function housesIn(eb: ExpressionBuilder<any, any>, user: User) {
  return eb.selectFrom('t_house_info as scope_h').select('scope_h.fHouseId').where((w) => withinJurisdiction(w, 'scope_h', user.jurisdiction));
}

/** The declared scope's condition for a caller who is not an administrator. */
function condition(eb: ExpressionBuilder<any, any>, model: EntityModel, user: User): Expression<SqlBool> {
  const decl = model.scope;
  if (typeof decl === 'string') return nothing;
  const t = model.table;
  const parts: Expression<SqlBool>[] = [];
  if (decl.owner) parts.push(eb(`${t}.${decl.owner}`, '=', user.fId));
  if (decl.jurisdiction && user.jurisdiction) {
    parts.push(decl.jurisdiction === 'self' ? withinJurisdiction(eb, t, user.jurisdiction) : eb(`${t}.${decl.jurisdiction}`, 'in', housesIn(eb, user)));
  }
  if (decl.renting && user.jurisdiction) parts.push(eb(`${t}.${decl.renting}`, 'in', rentingIn(eb, user.jurisdiction)));
  return parts.length ? eb.or(parts) : nothing;
}

/** Narrows a query of the entity's table to the rows the caller may see. */
export function scopeQuery(query: Query, model: EntityModel, user: User, hooks: EntityHooks): Query {
  const decl = model.scope;
  if (decl === 'hook') return hooks.scope ? hooks.scope(query, user) : query.where(nothing);
  if (isAdmin(user) || decl === 'everyone') return query;
  return query.where((eb) => condition(eb, model, user));
}

/** Whether the caller sees the entity's personal fields in full. */
export const unmasked = (model: EntityModel, user: User | undefined) => Boolean(model.unmask && user?.permissions.has(model.unmask));

/** Masks the entity's personal fields of rows about to leave the server, unless the caller may see them. */
export function maskRows(model: EntityModel, rows: Row[], user: User | undefined): void {
  const fields = Object.entries(model.mask);
  if (!fields.length || unmasked(model, user)) return;
  for (const r of rows) for (const [f, kind] of fields) if (typeof r[f] === 'string' && r[f]) r[f] = maskList(kind, r[f]);
}

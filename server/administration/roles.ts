/**
 * Roles and their permission tree (spec 002 screen 5), declared by resources/role.resource.json: these
 * are its handlers. The built-in roles keep their alias and cannot be deleted; the administrator role
 * holds every code and is not granted by hand.
 */
import { Answer } from '../http/route';
import type { CallContext, Query } from '../crud/types';
import { pageAnswer, pageOf } from '../crud/engine';
import { NotFound, Refusal, languageOfRequest, reason, refuse } from '../http/envelope';
import { fieldReason } from '../crud/validate';
import { ROLES, roleName, roleNameToStore } from '../db/menus';
import { buildTree, menuRows } from './menus';
import { pageAt, containing } from '../crud/query';
import { bodyText, isId } from '../http/guard';

export const ROLE_CODES = { list: 'role:list', add: 'role:add', edit: 'role:edit', del: 'role:del', setPermissions: 'role:setPermissions' };

/** The sessions and registration find these roles by alias. */
const BUILT_IN = new Set(ROLES.map((r) => r.alias));

function idOf(body: Record<string, unknown>): number {
  const id = Number(body.id ?? body.fId);
  if (!Number.isInteger(id) || id <= 0) throw refuse('system.badParameter');
  return id;
}

/** treeNodes as ids or as nodes with an id. */
function nodeIds(value: unknown): number[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' && value ? value.split(',') : [];
  return [...new Set(list.map((v) => Number(typeof v === 'object' && v !== null ? (v as { id?: unknown }).id : v)).filter(isId))];
}

export async function list(ctx: CallContext) {
  const { db, body } = ctx;
  const condition = (body.condition && typeof body.condition === 'object' ? body.condition : {}) as Record<string, unknown>;
  const name = bodyText(condition, 'name') || bodyText(condition, 'keyword');
  let q = db.selectFrom('t_sys_role');
  if (name) q = q.where((eb) => eb.or([eb('name', 'ilike', containing(name)), eb('alias', 'ilike', containing(name))]));
  const query = q
    .select(['id', 'name', 'alias'])
    .select((eb) => eb.selectFrom('t_sys_user_role').whereRef('t_sys_user_role.roleId', '=', 't_sys_role.id').select((e) => e.fn.countAll<number>().as('n')).as('userCount'));
  const p = await pageOf(ctx, query as Query, pageAt(body, 10, 999), [{ column: 'id', asc: true }], { searching: !!name });
  // fId as well: the generic list and form key every row by it.
  const language = ctx.request ? languageOfRequest(ctx.request) : 'zh-CN';
  return pageAnswer(p, p.rows.map((r) => ({ ...r, name: roleName(r as { alias: string; name: string }, language), fId: r.id, userCount: Number(r.userCount ?? 0), builtIn: BUILT_IN.has(String(r.alias)) })));
}

/** Every role, for the user form's role choice (fId and fName as the declared form's pickers read them). */
export async function all({ db, request }: CallContext) {
  const rows = await db.selectFrom('t_sys_role').select(['id', 'name', 'alias']).orderBy('id').execute();
  const language = request ? languageOfRequest(request) : 'zh-CN';
  return rows.map((r) => {
    const name = roleName(r, language);
    return { ...r, name, fId: r.id, fName: name };
  });
}

/** A rule of a role's field refused, in its schema's words (`role.<field>.<rule>`). */
const fieldRefused = (ctx: CallContext, field: string, rule: string) => new Refusal(fieldReason(ctx.entity, field, rule));

export async function save(ctx: CallContext) {
  const { db, body } = ctx;
  const id = Number(body.id ?? body.fId) || 0;
  const alias = bodyText(body, 'alias');
  // A built-in role saved under its name as the console showed it keeps the name the catalogue words.
  const name = roleNameToStore(alias, bodyText(body, 'name'));
  if (!name) throw fieldRefused(ctx, 'name', 'required');
  if (!alias) throw fieldRefused(ctx, 'alias', 'required');
  if (name.length > 50) throw fieldRefused(ctx, 'name', 'maxLength');
  if (alias.length > 50) throw fieldRefused(ctx, 'alias', 'maxLength');
  const clash = await db.selectFrom('t_sys_role').select('id').where('alias', '=', alias).executeTakeFirst();
  if (clash && clash.id !== id) throw new Refusal(fieldReason(ctx.entity, 'alias', 'unique'), { status: 409, about: { field: 'alias', rule: 'unique' } });
  if (id) {
    const existing = await db.selectFrom('t_sys_role').select(['id', 'alias']).where('id', '=', id).executeTakeFirst();
    if (!existing) throw new NotFound(reason('role.notFound'));
    if (BUILT_IN.has(existing.alias) && existing.alias !== alias) throw refuse('role.builtInAlias');
    return db.updateTable('t_sys_role').set({ name, alias }).where('id', '=', id).returning(['id', 'name', 'alias']).executeTakeFirstOrThrow();
  }
  return db.insertInto('t_sys_role').values({ name, alias }).returning(['id', 'name', 'alias']).executeTakeFirstOrThrow();
}

export async function remove({ db, body }: CallContext) {
  const id = idOf(body);
  const role = await db.selectFrom('t_sys_role').select(['id', 'alias']).where('id', '=', id).executeTakeFirst();
  if (!role) throw new NotFound(reason('role.notFound'));
  if (BUILT_IN.has(role.alias)) throw refuse('role.builtIn');
  if (await db.selectFrom('t_sys_user_role').select('userId').where('roleId', '=', id).executeTakeFirst()) throw refuse('role.inUse');
  await db.deleteFrom('t_sys_role').where('id', '=', id).execute();
  return null;
}

export async function tree({ db, body }: CallContext) {
  const id = idOf(body);
  const held = await db.selectFrom('t_sys_role_menu').select('menuId').where('roleId', '=', id).execute();
  return buildTree(await menuRows(db), new Set(held.map((h) => h.menuId)));
}

export async function setPermissions({ db, body }: CallContext) {
  const id = idOf(body);
  const role = await db.selectFrom('t_sys_role').select(['id', 'alias']).where('id', '=', id).executeTakeFirst();
  if (!role) throw new NotFound(reason('role.notFound'));
  // Every start gives the administrator role every code again; a change here would not last.
  if (role.alias === 'admin') throw refuse('role.adminPermissions');
  const rows = await menuRows(db);
  const parentOf = new Map(rows.map((r) => [r.id, r.parentId]));
  const chosen = new Set<number>();
  for (const nodeId of nodeIds(body.treeNodes ?? body.menuIds)) {
    // A checked node brings its ancestors, so a granted page is reachable from its section.
    for (let n: number | undefined = nodeId; n && parentOf.has(n) && !chosen.has(n); n = parentOf.get(n)) chosen.add(n);
  }
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('t_sys_role_menu').where('roleId', '=', id).execute();
    if (chosen.size) await trx.insertInto('t_sys_role_menu').values([...chosen].map((menuId) => ({ roleId: id, menuId }))).execute();
  });
  return new Answer([...chosen].sort((a, b) => a - b), reason('role.granted'));
}

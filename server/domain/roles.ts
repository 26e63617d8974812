/**
 * Roles and their permission tree (spec 002 screen 5), declared by resources/role.resource.json: these
 * are its handlers. The built-in roles keep their alias and cannot be deleted; the administrator role
 * holds every code and is not granted by hand.
 */
import { S, answers, takes } from '../http/catalog';
import { Answer } from '../http/route';
import type { CallContext, Query } from '../crud/types';
import { pageAnswer, pageOf } from '../crud/engine';
import { NotFound, Refusal } from '../http/envelope';
import { SYSTEM_REFUSALS } from '../../adapters/systemRefusals';
import { ROLES } from '../db/menus';
import { buildTree, menuRows } from './menus';
import { pageAt, containing } from '../crud/query';
import { isId } from '../http/guard';

export const ROLE_PATHS = {
  list: '/system/t-sys-role/pageList',
  save: '/system/t-sys-role/addOrUpdateSysRole',
  remove: '/system/t-sys-role/removeSysRole',
  tree: '/system/t-sys-role/treeList',
  setPermissions: '/system/t-sys-role/updateRolePermission',
  all: '/system/t-sys-role/list',
};

export const ROLE_CODES = { list: 'role:list', add: 'role:add', edit: 'role:edit', del: 'role:del', setPermissions: 'role:setPermissions' };

/** The sessions and registration find these roles by alias. */
const BUILT_IN = new Set(ROLES.map((r) => r.alias));

function text(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  return typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v);
}

function idOf(body: Record<string, unknown>): number {
  const id = Number(body.id ?? body.fId);
  if (!Number.isInteger(id) || id <= 0) throw new Refusal('参数错误');
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
  const name = text(condition, 'name') || text(condition, 'keyword');
  let q = db.selectFrom('t_sys_role');
  if (name) q = q.where((eb) => eb.or([eb('name', 'ilike', containing(name)), eb('alias', 'ilike', containing(name))]));
  const query = q
    .select(['id', 'name', 'alias'])
    .select((eb) => eb.selectFrom('t_sys_user_role').whereRef('t_sys_user_role.roleId', '=', 't_sys_role.id').select((e) => e.fn.countAll<number>().as('n')).as('userCount'));
  const p = await pageOf(ctx, query as Query, pageAt(body, 10, 999), [{ column: 'id', asc: true }], { searching: !!name });
  // fId as well: the generic list and form key every row by it.
  return pageAnswer(p, p.rows.map((r) => ({ ...r, fId: r.id, userCount: Number(r.userCount ?? 0), builtIn: BUILT_IN.has(String(r.alias)) })));
}

/** Every role, for the user form's role choice (fId and fName as the declared form's pickers read them). */
export async function all({ db }: CallContext) {
  const rows = await db.selectFrom('t_sys_role').select(['id', 'name', 'alias']).orderBy('id').execute();
  return rows.map((r) => ({ ...r, fId: r.id, fName: r.name }));
}

export async function save({ db, body }: CallContext) {
  const id = Number(body.id ?? body.fId) || 0;
  const name = text(body, 'name');
  const alias = text(body, 'alias');
  if (!name) throw new Refusal('角色名称不能为空');
  if (!alias) throw new Refusal('角色别名不能为空');
  if (name.length > 50 || alias.length > 50) throw new Refusal('长度超出限制');
  const clash = await db.selectFrom('t_sys_role').select('id').where('alias', '=', alias).executeTakeFirst();
  if (clash && clash.id !== id) throw new Refusal(SYSTEM_REFUSALS.aliasTaken, 409, { field: 'alias', rule: 'unique' });
  if (id) {
    const existing = await db.selectFrom('t_sys_role').select(['id', 'alias']).where('id', '=', id).executeTakeFirst();
    if (!existing) throw new NotFound('角色不存在');
    if (BUILT_IN.has(existing.alias) && existing.alias !== alias) throw new Refusal(SYSTEM_REFUSALS.builtInAlias);
    return db.updateTable('t_sys_role').set({ name, alias }).where('id', '=', id).returning(['id', 'name', 'alias']).executeTakeFirstOrThrow();
  }
  return db.insertInto('t_sys_role').values({ name, alias }).returning(['id', 'name', 'alias']).executeTakeFirstOrThrow();
}

export async function remove({ db, body }: CallContext) {
  const id = idOf(body);
  const role = await db.selectFrom('t_sys_role').select(['id', 'alias']).where('id', '=', id).executeTakeFirst();
  if (!role) throw new NotFound('角色不存在');
  if (BUILT_IN.has(role.alias)) throw new Refusal(SYSTEM_REFUSALS.builtInRole);
  if (await db.selectFrom('t_sys_user_role').select('userId').where('roleId', '=', id).executeTakeFirst()) throw new Refusal(SYSTEM_REFUSALS.roleInUse);
  await db.deleteFrom('t_sys_role').where('id', '=', id).execute();
  return null;
}

export async function tree({ db, body }: CallContext) {
  const id = idOf(body);
  const held = await db.selectFrom('t_sys_role_menu').select('menuId').where('roleId', '=', id).execute();
  return buildTree(await menuRows(db), new Set(held.map((h) => h.menuId)));
}

/** The menu tree with the role's nodes checked. */
export const ROLE_TREE = S.tree({ allOf: [S.entity('menu'), S.object({ title: S.string(), checked: { type: 'boolean' } })] });

export async function setPermissions({ db, body }: CallContext) {
  const id = idOf(body);
  const role = await db.selectFrom('t_sys_role').select(['id', 'alias']).where('id', '=', id).executeTakeFirst();
  if (!role) throw new NotFound('角色不存在');
  // Every start gives the administrator role every code again; a change here would not last.
  if (role.alias === 'admin') throw new Refusal(SYSTEM_REFUSALS.adminPermissions);
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
  return new Answer([...chosen].sort((a, b) => a - b), '授权成功');
}

answers(S.none(), remove);
answers(ROLE_TREE, tree);
answers(S.array({ type: 'integer' }, 'the menu ids the role now holds, with their ancestors'), setPermissions);
const ROLE = { id: S.id('the role'), fId: S.id('the same, as older callers name it') };
/** Menu ids as a list (ids, or nodes with an id) or as "1,2,3". */
const NODES = { type: ['array', 'string', 'null'], items: { type: ['integer', 'string', 'object'] } };
takes(S.object(ROLE), remove);
takes(S.object(ROLE), tree);
takes(S.object({ ...ROLE, treeNodes: { ...NODES, description: 'the checked menu nodes' }, menuIds: { ...NODES, description: 'the same, as older callers name it' } }), setPermissions);

/**
 * The menu and permission tree (spec 002 screen 6), declared by resources/menu.resource.json: these are
 * its handlers (its list is the whole tree). Rows made here live beside the ones server/db/menus.ts
 * keeps in step with the resource files; that sync upserts by permission code and never deletes, so a
 * hand-made row survives restarts (a synced row edited here gets its declared values back on start).
 */
import { S, answers, takes } from '../http/catalog';
import type { CallContext } from '../crud/types';
import { NotFound, Refusal } from '../http/envelope';
import { SYSTEM_REFUSALS } from '../../adapters/systemRefusals';
import type { DB } from '../db';

export const MENU_PATHS = {
  tree: '/system/t-sys-permission-menu/treeList',
  save: '/system/t-sys-permission-menu/addOrUpdateSysMenu',
  remove: '/system/t-sys-permission-menu/removeSysMenu',
  get: '/system/t-sys-permission-menu/menuById',
};

export const MENU_CODES = { list: 'menu:list', add: 'menu:add', edit: 'menu:edit', del: 'menu:del' };

const COLUMNS = ['id', 'parentId', 'menuName', 'fPermissionType', 'menuUri', 'icon', 'component', 'sort', 'permissions'] as const;

export interface MenuRow {
  id: number;
  parentId: number;
  menuName: string;
  fPermissionType: number;
  menuUri: string | null;
  icon: string | null;
  component: string | null;
  sort: number;
  permissions: string;
}

export interface TreeNode extends MenuRow {
  title: string;
  checked?: boolean;
  children: TreeNode[];
}

export async function menuRows(db: DB): Promise<MenuRow[]> {
  return (await db.selectFrom('t_sys_permission_menu').select([...COLUMNS]).orderBy('sort').orderBy('id').execute()) as MenuRow[];
}

/** Rows as a tree by parentId; a row whose parent is gone is shown at the top rather than lost. */
export function buildTree(rows: MenuRow[], checked?: Set<number>): TreeNode[] {
  const byId = new Map<number, TreeNode>(rows.map((r) => [r.id, { ...r, title: r.menuName, ...(checked ? { checked: checked.has(r.id) } : {}), children: [] }]));
  const roots: TreeNode[] = [];
  for (const node of byId.values()) {
    const parent = node.parentId ? byId.get(node.parentId) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

function text(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  return typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v);
}

export const tree = async ({ db }: CallContext) => buildTree(await menuRows(db));

export async function get({ db, body }: CallContext) {
  const id = Number(body.id ?? body.fId);
  const row = Number.isInteger(id) ? await db.selectFrom('t_sys_permission_menu').select([...COLUMNS]).where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw new NotFound('菜单不存在');
  return row;
}

export async function save({ db, body }: CallContext) {
  const id = Number(body.id ?? body.fId) || 0;
  const type = Number(body.fPermissionType) === 2 ? 2 : 1;
  const name = text(body, 'menuName');
  const code = text(body, 'permissions');
  const uri = text(body, 'menuUri');
  const icon = text(body, 'icon');
  const sortRaw = text(body, 'sort');
  if (!name) throw new Refusal('名称不能为空');
  if (!code) throw new Refusal('权限标识不能为空');
  // A button permission has no address or icon of its own.
  if (type === 1 && !uri) throw new Refusal('菜单地址不能为空');
  if (type === 1 && !icon) throw new Refusal('图标不能为空');
  if (!sortRaw) throw new Refusal('排序不能为空');
  const sort = Number(sortRaw);
  if (!Number.isInteger(sort)) throw new Refusal('排序必须是整数');
  if (name.length > 50 || code.length > 100 || uri.length > 200 || icon.length > 50) throw new Refusal('长度超出限制');
  const parentId = Number(body.parentId) || 0;
  const rows = await menuRows(db);
  if (parentId) {
    if (!rows.some((r) => r.id === parentId)) throw new Refusal(SYSTEM_REFUSALS.menuParentMissing);
    // A node cannot move under itself or one of its descendants.
    for (let p: number | undefined = parentId; p; p = rows.find((r) => r.id === p)?.parentId) {
      if (id && p === id) throw new Refusal(SYSTEM_REFUSALS.menuParentCycle);
    }
  }
  const clash = rows.find((r) => r.permissions === code);
  if (clash && clash.id !== id) throw new Refusal(SYSTEM_REFUSALS.menuCodeTaken, 409, { field: 'permissions', rule: 'unique' });
  const values = {
    parentId,
    menuName: name,
    fPermissionType: type,
    menuUri: uri || null,
    icon: icon || null,
    component: text(body, 'component') || null,
    sort,
    permissions: code,
  };
  if (id) {
    if (!rows.some((r) => r.id === id)) throw new NotFound('菜单不存在');
    return db.updateTable('t_sys_permission_menu').set(values).where('id', '=', id).returning([...COLUMNS]).executeTakeFirstOrThrow();
  }
  return db.transaction().execute(async (trx) => {
    const created = await trx.insertInto('t_sys_permission_menu').values(values).returning([...COLUMNS]).executeTakeFirstOrThrow();
    // The administrator role holds every code, new ones included.
    const admin = await trx.selectFrom('t_sys_role').select('id').where('alias', '=', 'admin').executeTakeFirst();
    if (admin) await trx.insertInto('t_sys_role_menu').values({ roleId: admin.id, menuId: created.id }).onConflict((oc) => oc.doNothing()).execute();
    return created;
  });
}

export async function remove({ db, body }: CallContext) {
  const id = Number(body.id ?? body.fId);
  if (!Number.isInteger(id) || id <= 0) throw new Refusal('参数错误');
  if (await db.selectFrom('t_sys_permission_menu').select('id').where('parentId', '=', id).executeTakeFirst()) throw new Refusal(SYSTEM_REFUSALS.menuHasChildren);
  const gone = await db.deleteFrom('t_sys_permission_menu').where('id', '=', id).executeTakeFirst();
  if (!Number(gone.numDeletedRows)) throw new NotFound('菜单不存在');
  return null;
}

answers(S.none(), remove);
takes(S.object({ id: S.id('the menu'), fId: S.id('the same, as older callers name it') }), remove);

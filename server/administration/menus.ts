/**
 * The menu and permission tree (spec 002 screen 6), declared by resources/menu.resource.json: these are
 * its handlers (its list is the whole tree). Rows made here live beside the ones server/db/menus.ts
 * keeps in step with the resource files; that sync upserts by permission code and never deletes, so a
 * hand-made row survives restarts (a synced row edited here gets its declared values back on start).
 */
import type { CallContext } from '../crud/types';
import { NotFound, Refusal, reason, refuse } from '../http/envelope';
import { fieldReason, fieldRefusal } from '../crud/validate';
import type { DB } from '../db';
import { bodyText } from '../http/guard';
import { forest } from './forest';
import type { MenuRow, MenuTree } from '../../contract/menus';

export const MENU_CODES = { list: 'menu:list', add: 'menu:add', edit: 'menu:edit', del: 'menu:del' };

const COLUMNS = ['id', 'parentId', 'menuName', 'fPermissionType', 'menuUri', 'icon', 'component', 'sort', 'permissions'] as const;

export type { MenuRow };

export type TreeNode = MenuTree<MenuRow & { title: string; checked?: boolean }>;

export async function menuRows(db: DB): Promise<MenuRow[]> {
  return (await db.selectFrom('t_sys_permission_menu').select([...COLUMNS]).orderBy('sort').orderBy('id').execute()) as MenuRow[];
}

/** Rows as a tree by parentId; a row whose parent is gone is shown at the top rather than lost. */
export function buildTree(rows: MenuRow[], checked?: Set<number>): TreeNode[] {
  return forest(new Map<number, TreeNode>(rows.map((r) => [r.id, { ...r, title: r.menuName, ...(checked ? { checked: checked.has(r.id) } : {}), children: [] }])));
}

export const tree = async ({ db }: CallContext) => buildTree(await menuRows(db));

export async function get({ db, body }: CallContext) {
  const id = Number(body.id ?? body.fId);
  const row = Number.isInteger(id) ? await db.selectFrom('t_sys_permission_menu').select([...COLUMNS]).where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw new NotFound(reason('menu.notFound'));
  return row;
}

export async function save(ctx: CallContext) {
  const { db, body } = ctx;
  /** A rule of a menu's field refused, in its schema's words (`menu.<field>.<rule>`). */
  const refused = (field: string, rule: string) => new Refusal(fieldReason(ctx.entity, field, rule));
  const id = Number(body.id ?? body.fId) || 0;
  const type = Number(body.fPermissionType) === 2 ? 2 : 1;
  const name = bodyText(body, 'menuName');
  const code = bodyText(body, 'permissions');
  const uri = bodyText(body, 'menuUri');
  const icon = bodyText(body, 'icon');
  const sortRaw = bodyText(body, 'sort');
  if (!name) throw refused('menuName', 'required');
  if (!code) throw refused('permissions', 'required');
  // A button permission has no address or icon of its own.
  if (type === 1 && !uri) throw refused('menuUri', 'required');
  if (type === 1 && !icon) throw refused('icon', 'required');
  if (!sortRaw) throw refused('sort', 'required');
  const sort = Number(sortRaw);
  if (!Number.isInteger(sort)) throw refuse('menu.sortNotInteger');
  if (name.length > 50 || code.length > 100 || uri.length > 200 || icon.length > 50) throw refuse('menu.tooLong');
  const parentId = Number(body.parentId) || 0;
  const rows = await menuRows(db);
  if (parentId) {
    if (!rows.some((r) => r.id === parentId)) throw refuse('menu.parentMissing');
    // A node cannot move under itself or one of its descendants.
    for (let p: number | undefined = parentId; p; p = rows.find((r) => r.id === p)?.parentId) {
      if (id && p === id) throw refuse('menu.parentCycle');
    }
  }
  const clash = rows.find((r) => r.permissions === code);
  if (clash && clash.id !== id) throw fieldRefusal(ctx.entity, 'permissions', 'unique', 409);
  const values = {
    parentId,
    menuName: name,
    fPermissionType: type,
    menuUri: uri || null,
    icon: icon || null,
    component: bodyText(body, 'component') || null,
    sort,
    permissions: code,
  };
  if (id) {
    if (!rows.some((r) => r.id === id)) throw new NotFound(reason('menu.notFound'));
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
  if (!Number.isInteger(id) || id <= 0) throw refuse('system.badParameter');
  if (await db.selectFrom('t_sys_permission_menu').select('id').where('parentId', '=', id).executeTakeFirst()) throw refuse('menu.hasChildren');
  const gone = await db.deleteFrom('t_sys_permission_menu').where('id', '=', id).executeTakeFirst();
  if (!Number(gone.numDeletedRows)) throw new NotFound(reason('menu.notFound'));
  return null;
}

/** Users as the session sees them: who they are, what they may do, which menus they get. */
import type { DB } from '../db';
import { clockOf } from '../db/clock';
import type { User } from '../crud/types';
import type { MenuRow, MenuTree } from '../../contract/menus';
import { loadJurisdiction } from './jurisdiction';

export async function loadUser(db: DB, userId: number): Promise<User | null> {
  const row = await db
    .selectFrom('t_sys_user')
    .select(['fId', 'fChineseName', 'fPhone', 'fAdmin', 'fUserType', 'fStatus', 'fExpireTime', 'fTokensValidAfter', 'fAreaIds', 'streets'])
    .where('fId', '=', userId)
    .executeTakeFirst();
  if (!row || row.fStatus !== 1) return null;
  if (row.fExpireTime && new Date(row.fExpireTime as Date).getTime() < clockOf(db).now()) return null;
  const permissions = db
    .selectFrom('t_sys_user_role as ur')
    .innerJoin('t_sys_role_menu as rm', 'rm.roleId', 'ur.roleId')
    .innerJoin('t_sys_permission_menu as m', 'm.id', 'rm.menuId')
    .select('m.permissions')
    .distinct()
    .where('ur.userId', '=', userId)
    .execute();
  const [codes, jurisdiction] = await Promise.all([permissions, loadJurisdiction(db, row)]);
  return {
    fId: row.fId,
    fChineseName: row.fChineseName,
    fPhone: row.fPhone,
    fAdmin: row.fAdmin,
    fUserType: row.fUserType,
    permissions: new Set(codes.map((c) => c.permissions as string)),
    tokensValidAfter: row.fTokensValidAfter ? new Date(row.fTokensValidAfter as Date).getTime() : undefined,
    expiresAt: row.fExpireTime ? new Date(row.fExpireTime as Date).getTime() : undefined,
    ...(jurisdiction ? { jurisdiction } : {}),
  };
}

/** A menu of the user's, without the kind (every one is a menu or a page). */
export type MenuNode = MenuTree<Omit<MenuRow, 'fPermissionType'>>;

/** The menu tree (type 1 rows) the user's roles open, with the sections above them, ordered by sort. */
export async function menusFor(db: DB, user: User): Promise<MenuNode[]> {
  const rows = (await db
    .selectFrom('t_sys_permission_menu')
    .select(['id', 'parentId', 'menuName', 'menuUri', 'icon', 'component', 'sort', 'permissions'])
    .where('fPermissionType', '=', 1)
    .orderBy('sort')
    .orderBy('id')
    .execute()) as Omit<MenuNode, 'children'>[];
  const byId = new Map(rows.map((r) => [r.id, { ...r, children: [] as MenuNode[] }]));
  const allowed = new Set<number>();
  for (const r of rows) {
    if (!user.permissions.has(r.permissions)) continue;
    // A page brings its sections along, so a granted page is never orphaned.
    for (let node = byId.get(r.id); node && !allowed.has(node.id); node = byId.get(node.parentId)) allowed.add(node.id);
  }
  const roots: MenuNode[] = [];
  for (const r of rows) {
    if (!allowed.has(r.id)) continue;
    const node = byId.get(r.id)!;
    const parent = byId.get(r.parentId);
    if (parent && allowed.has(parent.id)) parent.children.push(node);
    else roots.push(node);
  }
  // A section whose pages were all withheld says nothing to the user.
  return roots.filter((n) => n.component !== 'Main' || n.children.length > 0);
}

export function publicUser(user: User) {
  return {
    fId: user.fId,
    userId: user.fId,
    fChineseName: user.fChineseName,
    name: user.fChineseName,
    fPhone: user.fPhone,
    userName: user.fPhone,
    phone: user.fPhone,
    fAdmin: user.fAdmin,
    fUserType: user.fUserType,
  };
}

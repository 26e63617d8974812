/**
 * Keeps the menu and permission rows in step with the resource files on every start: sections, pages
 * and buttons are upserted by their permission code, and the administrator role holds every code.
 */
import type { DB } from './index';
import { menus, buttons } from '../generated/menus';

export const ROLES = [
  { alias: 'admin', name: '超级管理员' },
  { alias: 'agent', name: '代理商' },
  { alias: 'user', name: '普通用户' },
];

/** Codes the platform itself checks, beyond those the resource files declare. */
const SYSTEM_BUTTONS: { code: string; title: string; menu: string }[] = [
  // `menu` is the page whose screen uses the code; every button sits under one (spec 002 §6).
  { code: 'device:device-share-more', title: '设备分享', menu: 'device' },
  { code: 'device:share-del', title: '删除分享', menu: 'device' },
];

export async function syncMenus(db: DB): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const role of ROLES) {
      await trx.insertInto('t_sys_role').values(role).onConflict((oc) => oc.column('alias').doNothing()).execute();
    }
    const upsert = async (row: Record<string, unknown>) =>
      trx
        .insertInto('t_sys_permission_menu')
        .values(row)
        .onConflict((oc) => oc.column('permissions').doUpdateSet({ menuName: row.menuName, menuUri: row.menuUri, icon: row.icon, component: row.component, sort: row.sort, parentId: row.parentId, fPermissionType: row.fPermissionType }))
        .returning('id')
        .executeTakeFirstOrThrow();
    const idByKey = new Map<string, number>();
    // Sections first, so pages can name their parent.
    for (const m of [...menus].sort((a, b) => Number(a.parent !== null) - Number(b.parent !== null))) {
      const { id } = await upsert({ parentId: m.parent ? idByKey.get(m.parent) ?? 0 : 0, menuName: m.title, fPermissionType: 1, menuUri: m.path, icon: m.icon, component: m.component, sort: m.sort, permissions: m.permission });
      idByKey.set(m.key, id);
    }
    // The upsert re-parents rows of older databases that were seeded without a parent.
    const parentOf = (key: string) => {
      const id = idByKey.get(key);
      if (id === undefined) throw new Error(`button permission under unknown menu "${key}"`);
      return id;
    };
    for (const b of buttons) {
      if (menus.some((m) => m.permission === b.code)) continue;
      await upsert({ parentId: parentOf(b.menu), menuName: b.title, fPermissionType: 2, menuUri: null, icon: null, component: null, sort: 0, permissions: b.code });
    }
    for (const b of SYSTEM_BUTTONS) {
      // A code that is also a page's (user:list opens the user page) stays that page.
      if (menus.some((m) => m.permission === b.code)) continue;
      await upsert({ parentId: parentOf(b.menu), menuName: b.title, fPermissionType: 2, menuUri: null, icon: null, component: null, sort: 0, permissions: b.code });
    }
    const admin = await trx.selectFrom('t_sys_role').select('id').where('alias', '=', 'admin').executeTakeFirstOrThrow();
    await trx
      .insertInto('t_sys_role_menu')
      .columns(['roleId', 'menuId'])
      .expression((eb) => eb.selectFrom('t_sys_permission_menu').select([eb.val(admin.id).as('roleId'), 'id as menuId']))
      .onConflict((oc) => oc.doNothing())
      .execute();
  });
}

export async function grant(db: DB, roleAlias: string, codes: string[]): Promise<void> {
  const role = await db.selectFrom('t_sys_role').select('id').where('alias', '=', roleAlias).executeTakeFirstOrThrow();
  const rows = await db.selectFrom('t_sys_permission_menu').select('id').where('permissions', 'in', codes).execute();
  if (rows.length) await db.insertInto('t_sys_role_menu').values(rows.map((r) => ({ roleId: role.id, menuId: r.id }))).onConflict((oc) => oc.doNothing()).execute();
}

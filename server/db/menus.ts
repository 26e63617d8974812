/**
 * Keeps the menu and permission rows in step with the resource files on every start: sections, pages
 * and buttons are upserted by their permission code, and the administrator role holds every code.
 */
import { sql } from 'kysely';
import type { DB } from './index';
import { menus, buttons } from '../generated/menus';
import { reason, textOf } from '../http/envelope';
import { LANGUAGES, type Language } from '../../contract/reasons';

/**
 * The names of the roles the product brings, by alias: catalogue codes with a text in each language
 * (schemas/reasons/administration.json). The demo's officer role is one of them.
 */
const ROLE_NAMES = { admin: 'role.adminName', agent: 'role.agentName', user: 'role.userName', officer: 'role.officerName' } as const;

/** A role's name as stored (zh-CN, the catalogue's). */
export const storedRoleName = (alias: keyof typeof ROLE_NAMES) => textOf(reason(ROLE_NAMES[alias]));

/** The built-in roles every installation has, by alias. */
export const ROLES: { alias: string; name: string }[] = (['admin', 'agent', 'user'] as const).map((alias) => ({ alias, name: storedRoleName(alias) }));

const codeOf = (alias: unknown) => (typeof alias === 'string' && Object.hasOwn(ROLE_NAMES, alias) ? ROLE_NAMES[alias as keyof typeof ROLE_NAMES] : undefined);

/**
 * A role's name in a language: a role the product brings, still under the name it came with, reads in
 * the caller's language; a role's own or renamed name reads as its administrator wrote it.
 */
export function roleName(role: { alias?: unknown; name: string }, language: Language): string {
  const code = codeOf(role.alias);
  return code && role.name === textOf(reason(code)) ? textOf(reason(code), language) : role.name;
}

/** The name to store for a role saved under a name of its own in some language (the console shows it so): the stored one. */
export function roleNameToStore(alias: unknown, name: string): string {
  const code = codeOf(alias);
  return code && LANGUAGES.some((language) => textOf(reason(code), language) === name) ? textOf(reason(code)) : name;
}

type MenuRow = { parentId: number; menuName: string; fPermissionType: number; menuUri: string | null; icon: string | null; component: string | null; sort: number; permissions: string };

/**
 * Writes the rows, each by its code, in one statement, and answers the id of each code. A row that is
 * already as given is left alone: a restart rewrites nothing, and does not tell every replica's session
 * cache that menus changed (migration 017) once a row.
 */
async function upsertMenus(trx: DB, rows: MenuRow[]): Promise<Map<string, number>> {
  if (!rows.length) return new Map();
  await trx
    .insertInto('t_sys_permission_menu')
    .values(rows)
    .onConflict((oc) =>
      oc
        .column('permissions')
        .doUpdateSet((eb) => ({
          menuName: eb.ref('excluded.menuName'), menuUri: eb.ref('excluded.menuUri'), icon: eb.ref('excluded.icon'), component: eb.ref('excluded.component'),
          sort: eb.ref('excluded.sort'), parentId: eb.ref('excluded.parentId'), fPermissionType: eb.ref('excluded.fPermissionType'),
        }))
        .where(sql<boolean>`(t_sys_permission_menu.menu_name, t_sys_permission_menu.menu_uri, t_sys_permission_menu.icon, t_sys_permission_menu.component,
          t_sys_permission_menu.sort, t_sys_permission_menu.parent_id, t_sys_permission_menu.f_permission_type)
          is distinct from (excluded.menu_name, excluded.menu_uri, excluded.icon, excluded.component, excluded.sort, excluded.parent_id, excluded.f_permission_type)`),
    )
    .execute();
  const found = await trx.selectFrom('t_sys_permission_menu').select(['id', 'permissions']).where('permissions', 'in', rows.map((r) => r.permissions)).execute();
  return new Map(found.map((r) => [r.permissions as string, r.id as number]));
}

export async function syncMenus(db: DB): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('t_sys_role').values(ROLES).onConflict((oc) => oc.column('alias').doNothing()).execute();
    const idByKey = new Map<string, number>();
    // Sections first, then the pages under them, level by level, so each names its parent's id (one
    // under a section that does not exist stands at the top).
    let pending = [...menus];
    while (pending.length) {
      const level = pending.filter((m) => m.parent === null || idByKey.has(m.parent));
      const ready = level.length ? level : pending;
      const ids = await upsertMenus(trx, ready.map((m) => ({ parentId: (m.parent && idByKey.get(m.parent)) || 0, menuName: m.title, fPermissionType: 1, menuUri: m.path, icon: m.icon, component: m.component, sort: m.sort, permissions: m.permission })));
      for (const m of ready) idByKey.set(m.key, ids.get(m.permission)!);
      pending = pending.filter((m) => !ready.includes(m));
    }
    // The upsert re-parents rows of older databases that were seeded without a parent.
    const parentOf = (key: string) => {
      const id = idByKey.get(key);
      if (id === undefined) throw new Error(`button permission under unknown menu "${key}"`);
      return id;
    };
    // A code that is also a page's (user:list opens the user page) stays that page; a code given twice is the last one.
    const buttonRows = new Map<string, MenuRow>();
    for (const b of buttons) {
      if (menus.some((m) => m.permission === b.code)) continue;
      buttonRows.set(b.code, { parentId: parentOf(b.menu), menuName: b.title, fPermissionType: 2, menuUri: null, icon: null, component: null, sort: 0, permissions: b.code });
    }
    await upsertMenus(trx, [...buttonRows.values()]);
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

/** Codes and shapes of the user, role and menu pages (their calls: the user, role and menu resources). */
import type { MenuRow, MenuTree } from '../../../contract/menus';

/** Spec 002 §6, plus the read codes that open the pages. */
export const CODES = {
  userList: 'user:list', userAdd: 'user:add', userEdit: 'user:edit', userExport: 'user:export',
  roleList: 'role:list', roleAdd: 'role:add', roleEdit: 'role:edit', roleDel: 'role:del', roleSet: 'role:setPermissions',
  menuList: 'menu:list', menuAdd: 'menu:add', menuEdit: 'menu:edit', menuDel: 'menu:del',
};
export const PAGE_SIZE = 10;
export const PAGE_SIZES = [10, 20, 50];
export const PHONE = /^1[3-9]\d{9}$/;

export interface Page<T> {
  records: T[];
  total: number;
}
export interface UserRow {
  fId: number;
  fChineseName: string;
  fPhone: string;
  fAdmin: number;
  fUserType: number;
  fStatus: number;
  fExpireTime?: string | null;
  fCreateTime?: string | null;
  fLastloginDate?: string | null;
  roles: number[];
  roleids: { id: number; name: string }[];
}
export interface RoleRow {
  id: number;
  name: string;
  alias: string;
  userCount?: number;
  builtIn?: boolean;
}
/** A menu or button of the menu page and the role form's tree. */
export type MenuNode = MenuTree<MenuRow & { checked?: boolean }>;

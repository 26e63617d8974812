/** Codes and shapes of the user, role and menu pages (their calls: the user, role and menu resources). */
import type { CallTreeNode } from '../../../adapters/dataProvider';

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
/** A menu or button of the menu page's tree, as the menu list answers it. */
export type MenuNode = CallTreeNode<'menu.list'>;
/** The same in the role form's tree, checked when the role holds it. */
export type RoleMenuNode = CallTreeNode<'role.tree'>;

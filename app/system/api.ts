/** Calls and codes of the user, role and menu pages (server/domain/users.ts, roles.ts, menus.ts). */
export const USER_PATHS = {
  list: '/system/t-sys-user/pageList',
  save: '/system/t-sys-user/addOrUpdateSysUser',
  remove: '/system/t-sys-user/removeSysUser',
  resetPwd: '/system/t-sys-user/resetUserPwd',
  status: '/system/t-sys-user/statusUser',
  info: '/system/t-sys-user/getUserInfo',
  export: '/system/t-sys-user/exportTable',
  template: '/system/t-sys-user/template',
  import: '/system/t-sys-user/importExcel',
  devices: '/system/t-sys-user/getUserData',
};
export const ROLE_PATHS = {
  list: '/system/t-sys-role/pageList',
  save: '/system/t-sys-role/addOrUpdateSysRole',
  remove: '/system/t-sys-role/removeSysRole',
  tree: '/system/t-sys-role/treeList',
  setPermissions: '/system/t-sys-role/updateRolePermission',
  all: '/system/t-sys-role/list',
};
export const MENU_PATHS = {
  tree: '/system/t-sys-permission-menu/treeList',
  save: '/system/t-sys-permission-menu/addOrUpdateSysMenu',
  remove: '/system/t-sys-permission-menu/removeSysMenu',
  get: '/system/t-sys-permission-menu/menuById',
};
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
export interface MenuNode {
  id: number;
  parentId: number;
  menuName: string;
  fPermissionType: number;
  menuUri: string | null;
  icon: string | null;
  component: string | null;
  sort: number;
  permissions: string;
  checked?: boolean;
  children: MenuNode[];
}

/** A menu, page or button as the menu, role and login calls answer it (t_sys_permission_menu). */
export interface MenuRow {
  id: number;
  parentId: number;
  menuName: string;
  /** 1 a menu or page, 2 a button (a permission code). */
  fPermissionType: number;
  menuUri: string | null;
  icon: string | null;
  component: string | null;
  sort: number;
  /** The permission code it stands for. */
  permissions: string;
}

/** Rows with the rows under them. */
export type MenuTree<R> = R & { children: MenuTree<R>[] };

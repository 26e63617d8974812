/**
 * Why the server refuses a change to users, roles and menus, as it words it (in Chinese, whatever the
 * console's language). The server refuses with these texts and the console reads them back to its
 * catalogue (`sys.refusals`, app/system/messages.ts) to show them in its language.
 */
export const SYSTEM_REFUSALS = {
  notFound: '数据不存在或无权操作',
  phoneTaken: '该手机号码已存在',
  roleMissing: '所属角色不存在',
  selfDelete: '不能删除当前登录用户',
  selfDisable: '不能禁用当前登录用户',
  aliasTaken: '角色别名已存在',
  builtInAlias: '内置角色的别名不能修改',
  builtInRole: '内置角色不能删除',
  roleInUse: '该角色下存在用户，无法删除',
  adminPermissions: '超级管理员拥有全部权限，无需设置',
  menuCodeTaken: '权限标识已存在',
  menuParentMissing: '上级菜单不存在',
  menuParentCycle: '上级菜单不能是自身或其下级',
  menuHasChildren: '请先删除子地区',
} as const;

/** Why a place, a room or a room's device binding is refused; a delete's reason follows its failure text. */
export const PLACE_REFUSALS = {
  areaMissing: '所属区域不存在',
  ownerMissing: '所属用户不存在',
  placeHasRooms: '请先删除场所下的房间',
  placeMissing: '所属场所不存在或无权操作',
  roomMoved: '房间不能移到其他场所',
  roomType: '房间类型不正确',
  roomHasDevices: '请先解绑房间下的设备',
  roomMissing: '房间不存在或无权操作',
  roomElsewhere: '房间不属于该场所',
  deviceMissing: '设备不存在或无权操作',
  bindingMissing: '房间设备不存在或无权操作',
} as const;

/** Why a sign-in or a registration is refused (the login page's and the register dialog's notices). */
export const SESSION_REFUSALS = {
  wrongPassword: '账号或密码错误',
  disabled: '账号已停用',
  expired: '账号已过期',
  phoneRegistered: '该手机号码已注册',
} as const;

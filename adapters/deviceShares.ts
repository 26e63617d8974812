/**
 * Sharing devices (spec 000 §5, §8) as the server words it, in one place: the server answers with these
 * texts, and the console shows them in its own language by reading them back to its catalogue
 * (app/devices/shareText.ts).
 */
export const SHARE_MESSAGES = {
  devicesRequired: '被分享设备不能为空',
  userRequired: '被分享者不能为空',
  failed: '设备分享失败',
  deleted: '删除成功',
  deleteFailed: '删除失败',
};

/** Why a share was refused, after "设备分享失败:". */
export const SHARE_REFUSALS = {
  notFound: '用户不存在',
  ambiguous: '存在同名用户，请输入手机号',
  self: '不能分享给自己',
  notOrdinary: '只能分享给普通用户',
};

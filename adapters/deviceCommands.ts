/**
 * The server's answers to a device command, worded as the specification words them (spec 000 §8), in
 * one place: the server refuses with them, and the console reads them back to its catalogue to show them
 * in its own language (app/devices/commandText.ts).
 */
export const COMMAND_REFUSALS = {
  offline: '设备离线',
  inFlight: '信息发送中,请勿重复发送...',
  throttled: '点击太频繁，休息一下',
  passwordRequired: '登录密码不能为空',
  passwordFailed: '密码校验失败',
  timeout: '设备响应超时',
  brokerDown: '消息服务器未连接',
  abandoned: '设备响应超时（发送命令的服务已停止）',
  notBreaker: '该设备不是塑壳断路器',
  noDevices: '没有需要操作的设备',
};

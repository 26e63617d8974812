/**
 * Sharing devices with ordinary users (spec 000 §3 share record, §5 share form). A share is a
 * t_user_device row with fOwner 0; fOwner 1 marks the ordinary user who added the device. Only those
 * who hold a device (an administrator, its agent, its owning user) share it or withdraw a share, so a
 * shared user cannot pass the device on.
 */
import type { FastifyInstance } from 'fastify';
import { Answer, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { S } from '../http/catalog';
import { Refusal } from '../http/envelope';
import { entity, pageAnswer, pageOf, scoped } from '../crud/engine';
import { formatRow } from '../crud/format';
import { isAdmin, type Query, type Services, type User } from '../crud/types';
import { visibleDevice, type VisibleDevice } from './deviceAccess';
import { pageAt } from '../crud/query';
import { idList } from '../http/guard';
import { SHARE_MESSAGES, SHARE_REFUSALS } from '../../adapters/deviceShares';

async function holds(ctx: Services, user: User, device: VisibleDevice): Promise<boolean> {
  if (isAdmin(user)) return true;
  if (user.fAdmin === 2) return device.fUserId === user.fId;
  const own = await ctx.db
    .selectFrom('t_user_device')
    .select('fId')
    .where('fUserId', '=', user.fId)
    .where('fDeviceId', '=', device.fId)
    .where('fOwner', '=', 1)
    .executeTakeFirst();
  return Boolean(own);
}


/** The share target by phone, else by name; a name several users carry is ambiguous. */
async function findTarget(ctx: Services, text: string) {
  const byPhone = await ctx.db.selectFrom('t_sys_user').select(['fId', 'fChineseName', 'fPhone', 'fAdmin', 'fStatus']).where('fPhone', '=', text).executeTakeFirst();
  if (byPhone) return byPhone;
  const byName = await ctx.db.selectFrom('t_sys_user').select(['fId', 'fChineseName', 'fPhone', 'fAdmin', 'fStatus']).where('fChineseName', '=', text).limit(2).execute();
  if (byName.length > 1) throw new Refusal(`${SHARE_MESSAGES.failed}:${SHARE_REFUSALS.ambiguous}`);
  if (!byName.length) throw new Refusal(`${SHARE_MESSAGES.failed}:${SHARE_REFUSALS.notFound}`);
  return byName[0];
}

/** A share of a device, with the user it is shared with and whether the caller may delete it. */
const SHARE = S.object({
  fId: { type: 'integer' }, fUserId: { type: 'integer' }, fDeviceId: { type: 'integer' }, fOwner: { type: ['integer', 'null'] }, fIntime: S.string(),
  userName: S.string(), userPhone: S.string(), isCanDel: { type: 'integer', enum: [0, 1] },
});

export function registerShareRoutes(app: FastifyInstance, ctx: RouteContext) {
  registerCall(app, ctx, {
    path: '/biz/t-user-device/pageList',
    data: S.pageOf(SHARE),
    body: S.page({ deviceId: S.id(), fDeviceId: S.id() }),
    permission: 'device:list',
    handler: async ({ user, body }) => {
      const condition = (body.condition ?? {}) as Record<string, unknown>;
      const device = await visibleDevice(ctx, user!, condition.deviceId ?? condition.fDeviceId ?? body.deviceId);
      const query = ctx.db
        .selectFrom('t_user_device as ud')
        .innerJoin('t_sys_user as u', 'u.fId', 'ud.fUserId')
        .where('ud.fDeviceId', '=', device.fId)
        .select(['ud.fId', 'ud.fUserId', 'ud.fDeviceId', 'ud.fOwner', 'ud.fIntime', 'u.fChineseName as userName', 'u.fPhone as userPhone']);
      const order = [{ column: 'ud.fOwner', asc: false }, { column: 'ud.fId', asc: false }];
      const [p, canDel] = await Promise.all([pageOf(ctx, query as Query, pageAt(body, 100, 1000), order), holds(ctx, user!, device)]);
      return pageAnswer(p, p.rows.map((r) => ({ ...formatRow(r, ctx.timeZone), isCanDel: canDel && r.fOwner === 0 ? 1 : 0 })));
    },
  });

  registerCall(app, ctx, {
    path: '/biz/t-user-device/del',
    data: S.none(),
    body: S.object({ fId: S.id('the share') }),
    permission: 'device:share-del',
    write: true,
    logname: { key: 'device.shareDelete', 'zh-CN': '删除分享', 'zh-TW': '刪除分享', 'en-US': 'Delete share' },
    handler: async ({ user, body }) => {
      const id = Number(body.fId);
      const share = Number.isInteger(id) && id > 0 ? await ctx.db.selectFrom('t_user_device').selectAll().where('fId', '=', id).executeTakeFirst() : undefined;
      if (!share) throw new Refusal(`${SHARE_MESSAGES.deleteFailed}:分享记录不存在`);
      const device = await visibleDevice(ctx, user!, share.fDeviceId);
      if (share.fOwner !== 0 || !(await holds(ctx, user!, device))) throw new Refusal(`${SHARE_MESSAGES.deleteFailed}:无权删除该分享`);
      await ctx.db.deleteFrom('t_user_device').where('fId', '=', id).execute();
      return new Answer(null, SHARE_MESSAGES.deleted);
    },
  });

  registerCall(app, ctx, {
    path: '/app/device/device-share-more',
    data: S.object({ successMsg: { type: 'string' }, errorMsg: { type: 'string' } }),
    body: S.object({ deviceIds: S.ids('the devices'), user: S.string(50, 'phone of the user to share with') }),
    permission: 'device:device-share-more',
    write: true,
    logname: { key: 'device.share', 'zh-CN': '设备分享', 'zh-TW': '設備分享', 'en-US': 'Share devices' },
    handler: async ({ user, body }) => {
      const ids = idList(body.deviceIds, 'deviceIds');
      if (!ids.length) throw new Refusal(SHARE_MESSAGES.devicesRequired);
      const text = typeof body.user === 'string' ? body.user.trim() : body.user === undefined || body.user === null ? '' : String(body.user).trim();
      if (!text) throw new Refusal(SHARE_MESSAGES.userRequired);
      const target = await findTarget(ctx, text);
      if (target.fId === user!.fId) throw new Refusal(`${SHARE_MESSAGES.failed}:${SHARE_REFUSALS.self}`);
      // Administrators and agents see devices by role, not by share; a share only reaches ordinary users.
      if (target.fAdmin !== 0) throw new Refusal(`${SHARE_MESSAGES.failed}:${SHARE_REFUSALS.notOrdinary}`);

      const devices = (await scoped(ctx, entity('device'), user!).where('t_device.fId', 'in', ids).execute()) as unknown as VisibleDevice[];
      const byId = new Map(devices.map((d) => [d.fId, d]));
      const existing = new Set(
        (await ctx.db.selectFrom('t_user_device').select('fDeviceId').where('fUserId', '=', target.fId).where('fDeviceId', 'in', ids).execute()).map((r) => r.fDeviceId as number),
      );
      const succeeded: string[] = [];
      const failed: string[] = [];
      for (const id of ids) {
        const device = byId.get(id);
        if (!device) failed.push(`${id}:设备不存在或无权操作`);
        else if (!(await holds(ctx, user!, device))) failed.push(`${device.fNumber}:无权分享该设备`);
        else if (existing.has(id)) failed.push(`${device.fNumber}:已分享给该用户`);
        else {
          await ctx.db.insertInto('t_user_device').values({ fUserId: target.fId, fDeviceId: id, fOwner: 0 }).onConflict((oc) => oc.columns(['fUserId', 'fDeviceId']).doNothing()).execute();
          succeeded.push(device.fNumber);
        }
      }
      const successMsg = succeeded.length ? `${succeeded.join('、')} 已分享给 ${target.fChineseName}` : '';
      const errorMsg = failed.join('；');
      if (!succeeded.length) throw new Refusal(`${SHARE_MESSAGES.failed}:${errorMsg}`);
      return new Answer({ successMsg, errorMsg }, '设备分享成功');
    },
  });
}

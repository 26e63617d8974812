/**
 * Sharing devices with ordinary users (spec 000 §3 share record, §5 share form). A share is a
 * t_user_device row with fOwner 0; fOwner 1 marks the ordinary user who added the device. Only those
 * who hold a device (an administrator, its agent, its owning user) share it or withdraw a share, so a
 * shared user cannot pass the device on.
 */
import type { FastifyInstance } from 'fastify';
import { Answer, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { answered, languageOfRequest, reason, refuse, textOf, type Reason } from '../http/envelope';
import { entity, pageAnswer, pageOf, scoped } from '../crud/engine';
import { formatRow } from '../crud/format';
import { isAdmin, type Query, type Services, type User } from '../crud/types';
import { visibleDevice, type VisibleDevice } from './deviceAccess';
import { pageAt } from '../crud/query';
import { idList } from '../http/guard';
import { inLanguages } from './words';

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
  if (byName.length > 1) throw refuse('share.userAmbiguous');
  if (!byName.length) throw refuse('share.userNotFound');
  return byName[0];
}

export function registerShareRoutes(app: FastifyInstance, ctx: RouteContext) {
  registerCall(app, ctx, {
    call: 'device.shares',
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
    call: 'device.unshare',
    write: true,
    handler: async ({ user, body }) => {
      const id = Number(body.fId);
      const share = Number.isInteger(id) && id > 0 ? await ctx.db.selectFrom('t_user_device').selectAll().where('fId', '=', id).executeTakeFirst() : undefined;
      if (!share) throw refuse('share.deleteMissing');
      const device = await visibleDevice(ctx, user!, share.fDeviceId);
      if (share.fOwner !== 0 || !(await holds(ctx, user!, device))) throw refuse('share.deleteNotHolder');
      await ctx.db.deleteFrom('t_user_device').where('fId', '=', id).execute();
      return new Answer(null, reason('share.deleted'));
    },
  });

  registerCall(app, ctx, {
    call: 'device.share',
    write: true,
    handler: async ({ user, body, request }) => {
      const ids = idList(body.deviceIds, 'deviceIds');
      if (!ids.length) throw refuse('share.devicesRequired');
      const text = typeof body.user === 'string' ? body.user.trim() : body.user === undefined || body.user === null ? '' : String(body.user).trim();
      if (!text) throw refuse('share.userRequired');
      const target = await findTarget(ctx, text);
      if (target.fId === user!.fId) throw refuse('share.self');
      // Administrators and agents see devices by role, not by share; a share only reaches ordinary users.
      if (target.fAdmin !== 0) throw refuse('share.notOrdinary');

      const devices = (await scoped(ctx, entity('device'), user!).where('t_device.fId', 'in', ids).execute()) as unknown as VisibleDevice[];
      const byId = new Map(devices.map((d) => [d.fId, d]));
      const existing = new Set(
        (await ctx.db.selectFrom('t_user_device').select('fDeviceId').where('fUserId', '=', target.fId).where('fDeviceId', 'in', ids).execute()).map((r) => r.fDeviceId as number),
      );
      const succeeded: string[] = [];
      const failed: Reason[] = [];
      for (const id of ids) {
        const device = byId.get(id);
        if (!device) failed.push(reason('share.row.missing', { device: id }));
        else if (!(await holds(ctx, user!, device))) failed.push(reason('share.row.notHolder', { device: device.fNumber }));
        else if (existing.has(id)) failed.push(reason('share.row.already', { device: device.fNumber }));
        else {
          await ctx.db.insertInto('t_user_device').values({ fUserId: target.fId, fDeviceId: id, fOwner: 0 }).onConflict((oc) => oc.columns(['fUserId', 'fDeviceId']).doNothing()).execute();
          succeeded.push(device.fNumber);
        }
      }
      // Each refused device's line, in every language (zh-CN the legacy errorMsg).
      const errors = inLanguages((language) => failed.map((f) => textOf(f, language)).join(language === 'en-US' ? '; ' : '；'));
      if (!succeeded.length) throw refuse('share.noneShared', { errors });
      const language = languageOfRequest(request);
      const numbers = inLanguages((l) => succeeded.join(l === 'en-US' ? ', ' : '、'));
      const shared = reason('share.sharedTo', { devices: numbers, user: target.fChineseName ?? '' });
      const refused = failed.length ? reason('share.someRefused', { errors }) : undefined;
      return new Answer(
        {
          successMsg: textOf(shared),
          errorMsg: errors['zh-CN'],
          shared: answered(shared, language),
          ...(refused ? { refused: answered(refused, language) } : {}),
        },
        reason('share.done'),
      );
    },
  });
}

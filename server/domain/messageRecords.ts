/**
 * The message log (/biz/t-emq-message-publish/records): every command out and device message in, as
 * live.ts records it, filtered as the log screens ask and limited to the devices the user sees.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { registerCall, type RouteContext } from '../http/route';
import { S } from '../http/catalog';
import { Refusal } from '../http/envelope';
import { entity, scoped } from '../crud/engine';
import { formatRow, formatTime } from '../crud/format';
import { isAdmin } from '../crud/types';
import { pageNumber, containing } from '../crud/query';


const text = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());

/**
 * A time bound as the log's pickers send it. Minutes only get ':00' (begin) or ':59' (end), so the end
 * minute is included whole; a date alone spans the day; a time alone means today. Read in the server's
 * time zone, like every time the API answers.
 */
export function timeBound(value: unknown, edge: 'begin' | 'end', timeZone: string, now = new Date()): string | undefined {
  let t = text(value).replace('T', ' ');
  if (!t) return undefined;
  if (/^\d{1,2}:\d{2}(:\d{2})?$/.test(t)) t = `${formatTime(now, timeZone).slice(0, 10)} ${t}`;
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) t += edge === 'begin' ? ' 00:00:00' : ' 23:59:59';
  else if (/^\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}$/.test(t)) t += edge === 'begin' ? ':00' : ':59';
  if (!/^\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}:\d{2}$/.test(t) || Number.isNaN(Date.parse(t.replace(' ', 'T')))) throw new Refusal('时间格式不正确');
  return t;
}

/** type 0 (or none) is every message; 1 / 'up' what devices sent, 2 / 'down' what the server sent; other values name a bid. */
function typeFilter(type: unknown): { direction?: 'up' | 'down'; bid?: string } {
  const t = text(type);
  if (!t || t === '0') return {};
  if (t === '1' || t === 'up') return { direction: 'up' };
  if (t === '2' || t === 'down') return { direction: 'down' };
  return { bid: t };
}

export function registerMessageRecordRoutes(app: FastifyInstance, ctx: RouteContext) {
  registerCall(app, ctx, {
    path: '/biz/t-emq-message-publish/records',
    body: S.page({ deviceId: S.id(), fDeviceId: S.id(), beginTime: S.string(19), endTime: S.string(19), channel: S.string(20) }),
    permission: 'device:list',
    handler: async ({ user, body }) => {
      const c = (body.condition ?? {}) as Record<string, unknown>;
      const size = Math.min(Math.max(Number(body.size ?? body.pageSize) || 10, 1), 500);
      const current = pageNumber(body.current);
      const begin = timeBound(c.beginTime, 'begin', ctx.timeZone);
      const end = timeBound(c.endTime, 'end', ctx.timeZone);

      let q = ctx.db.selectFrom('t_emq_message_publish as m');
      if (!isAdmin(user!)) {
        const mine = scoped(ctx, entity('device'), user!).clearSelect().select('t_device.fId');
        q = q.where('m.fDeviceId', 'in', mine);
      }
      const deviceId = Number(c.deviceId);
      if (text(c.deviceId) && Number.isInteger(deviceId)) q = q.where('m.fDeviceId', '=', deviceId);
      if (text(c.deviceNumber)) q = q.where('m.fDeviceNumber', '=', text(c.deviceNumber));
      const productId = Number(c.productId);
      if (text(c.productId) && Number.isInteger(productId)) {
        q = q.where('m.fDeviceId', 'in', ctx.db.selectFrom('t_device').select('t_device.fId').where('t_device.fProductId', '=', productId));
      }
      if (text(c.number)) {
        const like = containing(text(c.number));
        q = q.where((eb) => eb.or([eb('m.fDeviceNumber', 'ilike', like), eb('m.fProductNumber', 'ilike', like)]));
      }
      if (text(c.content)) q = q.where('m.fPayload', 'ilike', containing(text(c.content)));
      if (begin) q = q.where('m.fIntime', '>=', sql<Date>`${begin}::timestamp`);
      // The end second is included whole.
      if (end) q = q.where('m.fIntime', '<', sql<Date>`${end}::timestamp + interval '1 second'`);
      const { direction, bid } = typeFilter(c.type);
      if (direction) q = q.where('m.fDirection', '=', direction);
      if (bid) q = q.where('m.fBid', '=', bid);

      const { total } = (await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()) as { total: number };
      const rows = await q
        .select(['m.fId', 'm.fDeviceId', 'm.fDeviceNumber', 'm.fProductNumber', 'm.fDirection', 'm.fTopic', 'm.fBid', 'm.fPayload', 'm.fIntime'])
        .orderBy('m.fIntime', 'desc')
        .orderBy('m.fId', 'desc')
        .limit(size)
        .offset((current - 1) * size)
        .execute();
      return { records: rows.map((r) => formatRow(r, ctx.timeZone)), total: Number(total), current, size, pages: Math.ceil(Number(total) / size) };
    },
  });
}

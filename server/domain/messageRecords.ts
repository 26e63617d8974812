/**
 * The message log (/biz/t-emq-message-publish/records): every command out and device message in, as
 * live.ts records it, filtered as the log screens ask and limited to the devices the user sees.
 */
import type { FastifyInstance } from 'fastify';
import { CompiledQuery, sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../db';
import { registerCall, type RouteContext } from '../http/route';
import { S } from '../http/catalog';
import { Refusal } from '../http/envelope';
import { entity, scoped } from '../crud/engine';
import { formatRow, formatTime } from '../crud/format';
import { isAdmin } from '../crud/types';
import { pageNumber, containing } from '../crud/query';


/**
 * At the scale of a city a count of every matching row costs as much as reading them: the total is exact
 * up to EXACT_UP_TO rows (a count that stops there), beyond it the planner's estimate, answered with
 * `estimated: true` so the console can say "about". Paging reaches the newest MAX_DEPTH rows; deeper
 * pages would have to skip millions of rows, so they are refused with the advice to narrow the search.
 */
export const EXACT_UP_TO = 10_000;
export const MAX_DEPTH = 10_000;

/** The number of rows the query matches: exact when at most `cap`, else the planner's estimate (at least cap + 1). */
async function countUpTo(db: DB, q: SelectQueryBuilder<any, any, any>, cap: number): Promise<{ total: number; estimated: boolean }> {
  const probe = q.select(sql<number>`1`.as('one'));
  const counted = await db.selectFrom(probe.limit(cap + 1).as('t')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const n = Number(counted.n);
  if (n <= cap) return { total: n, estimated: false };
  const compiled = probe.compile();
  const plan = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]));
  const json = Object.values(plan.rows[0])[0];
  const parsed = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: { 'Plan Rows': number } }[];
  return { total: Math.max(Math.round(parsed[0].Plan['Plan Rows']), cap + 1), estimated: true };
}

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

/**
 * The content filter. Payloads are JSON whose keys every message repeats ("bid", "mid", "ClientID"): a
 * search text with a key in it asks the payload's trigram index for words every row has, and the lookup
 * reads those words' whole posting lists in every day of the log (0.3 s at 10,000,000 rows, against 70 ms
 * for the value alone). So the index is asked for the longest part of the text outside quoted keys —
 * every row holding the whole text holds that part — and the whole text is checked on the rows it finds
 * (strpos, which no index answers, so the planner keeps it a check).
 */
function payloadContaining(search: string) {
  const part = search
    .split(/"[^"]*"\s*:/)
    .map((p) => p.trim())
    .filter((p) => p.length >= 3)
    .sort((a, b) => b.length - a.length)[0];
  return (eb: ExpressionBuilder<any, 'm'>) =>
    !part || part === search
      ? eb('m.fPayload', 'ilike', containing(search))
      : eb.and([eb('m.fPayload', 'ilike', containing(part)), sql<boolean>`strpos(lower(m.f_payload), lower(${search})) > 0`]);
}

export function registerMessageRecordRoutes(app: FastifyInstance, ctx: RouteContext) {
  // A page of the message log; past a count it only estimates, `reachable` says how far the pages go.
  const MESSAGE = S.object({
    fId: { type: 'integer' }, fDeviceId: { type: ['integer', 'null'] }, fDeviceNumber: S.string(), fProductNumber: S.string(), fDirection: { type: 'string', enum: ['up', 'down'] },
    fTopic: S.string(), fBid: S.string(), fPayload: { type: 'string' }, fIntime: { type: 'string' },
  });
  const PAGE = { allOf: [S.pageOf(MESSAGE), S.object({ estimated: { const: true }, reachable: { type: 'integer' } })] };
  registerCall(app, ctx, {
    path: '/biz/t-emq-message-publish/records',
    data: PAGE,
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
      if (text(c.content)) q = q.where(payloadContaining(text(c.content)));
      if (begin) q = q.where('m.fIntime', '>=', sql<Date>`${begin}::timestamp`);
      // The end second is included whole.
      if (end) q = q.where('m.fIntime', '<', sql<Date>`${end}::timestamp + interval '1 second'`);
      const { direction, bid } = typeFilter(c.type);
      if (direction) q = q.where('m.fDirection', '=', direction);
      if (bid) q = q.where('m.fBid', '=', bid);

      if ((current - 1) * size + size > MAX_DEPTH && current > 1) {
        throw new Refusal(`只能翻阅前${MAX_DEPTH}条记录，请缩小时间范围或增加查询条件`);
      }
      const { total, estimated } = await countUpTo(ctx.db, q, EXACT_UP_TO);
      const columns = ['m.fId', 'm.fDeviceId', 'm.fDeviceNumber', 'm.fProductNumber', 'm.fDirection', 'm.fTopic', 'm.fBid', 'm.fPayload', 'm.fIntime'] as const;
      // When at most EXACT_UP_TO rows match, they are read whole and sorted. Asked for the newest ten
      // directly, the planner, misjudging how many rows a text filter matches, may walk every day's time
      // index backwards until each day yields a match (0.6–0.8 s for a device number at 10,000,000
      // rows, against 20 ms for the matches' own indexes). `offset 0` keeps the matches a query of
      // their own, which the planner does not merge into the sorted one.
      const source = (estimated ? q.select([...columns]) : ctx.db.selectFrom(q.select([...columns]).offset(0).as('m')).selectAll('m')) as SelectQueryBuilder<any, 'm', Record<string, unknown>>;
      const rows = await source
        .orderBy('m.fIntime', 'desc')
        .orderBy('m.fId', 'desc')
        .limit(size)
        .offset((current - 1) * size)
        .execute();
      const reachable = Math.min(total, MAX_DEPTH);
      return {
        records: rows.map((r) => formatRow(r, ctx.timeZone)),
        total,
        current,
        size,
        pages: Math.ceil(reachable / size),
        ...(estimated ? { estimated: true, reachable } : {}),
      };
    },
  });
}

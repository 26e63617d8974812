/**
 * The operation log's reader (spec 002 §15): administrators page through every recorded write, newest
 * first, by operator name, time range and outcome. The log is written by server/oplog.ts.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { refuse } from '../http/envelope';
import { registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { formatRow } from '../crud/format';
import { amongValues, containing, pageAt } from '../crud/query';
import { pageAnswer, pageOf } from '../crud/engine';
import type { Query } from '../crud/types';
import { logNameOf } from '../oplog';

const WALL_TIME = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;

export function registerOplogRoutes(app: FastifyInstance, ctx: RouteContext) {
  const tz = sql`${ctx.timeZone}::text`;
  /** A wall-clock time of the server's zone ('YYYY-MM-DD HH:mm:ss') as an instant. */
  const instant = (value: unknown, invalid: 'oplog.beginInvalid' | 'oplog.endInvalid') => {
    const text = String(value).trim().replace('T', ' ');
    if (!WALL_TIME.test(text)) throw refuse(invalid);
    return sql<Date>`(${text}::timestamp at time zone ${tz})`;
  };

  registerCall(app, ctx, {
    call: 'monitor.oplog',
    handler: async ({ body }) => {
      const c = (body.condition ?? {}) as Record<string, unknown>;
      // The log keeps names masked; an operator is found, and shown, by the account's current name. The
      // accounts of that name are looked up first (amongValues), so that each side of the `or` is read
      // from its index (migration 026): 14 ms instead of 481 for the total of a million rows.
      let q = ctx.db.selectFrom('t_sys_log').leftJoin('t_sys_user as u', 'u.fId', 't_sys_log.userId');
      const keyword = String(c.keyword ?? c.userName ?? '').trim();
      if (keyword) {
        const like = containing(keyword);
        const accounts = ctx.db.selectFrom('t_sys_user').select('t_sys_user.fId').where('t_sys_user.fChineseName', 'ilike', like);
        q = q.where((eb) => eb.or([amongValues(eb.ref('t_sys_log.userId'), accounts), eb('t_sys_log.userName', 'ilike', like)]));
      }
      const range = Array.isArray(c.time) ? c.time : Array.isArray(c.dateRange) ? c.dateRange : [];
      const begin = c.beginTime ?? c.startTime ?? range[0];
      const end = c.endTime ?? range[1];
      if (begin) q = q.where('createtime', '>=', instant(begin, 'oplog.beginInvalid'));
      // The end is the whole second (minute, day) it names, as people read a range.
      if (end) {
        const text = String(end).trim();
        const step = text.length <= 10 ? '1 day' : text.length <= 16 ? '1 minute' : '1 second';
        q = q.where('createtime', '<', sql<Date>`(${instant(end, 'oplog.endInvalid')} + ${step}::interval)`);
      }
      if (c.succeed !== undefined && c.succeed !== null && c.succeed !== '') {
        const s = Number(c.succeed);
        if (s !== 0 && s !== 1) throw refuse('oplog.succeedInvalid');
        q = q.where('succeed', '=', s);
      }
      if (typeof c.logtype === 'string' && c.logtype) q = q.where('logtype', '=', c.logtype);
      const query = q
        .select(['t_sys_log.id', 'message', 'logtype', 'userId', 'logname', 'ip', 'succeed', 'createtime'])
        .select((eb) => eb.fn.coalesce('u.fChineseName', 't_sys_log.userName').as('userName'));
      const order = [{ column: 'createtime', asc: false }, { column: 't_sys_log.id', asc: false }];
      const p = await pageOf(ctx, query as Query, pageAt(body, 10, 500), order, { searching: !!keyword, huge: true });
      // The stored key (or an older row's path or words) with its name in the console's languages.
      return pageAnswer(p, p.rows.map((r) => ({ ...formatRow(r, ctx.timeZone), lognames: logNameOf(String(r.logname ?? '')) ?? null })));
    },
  });
}

/**
 * System lookups the device screens need before the administration screens exist: the dictionary and
 * the agent list of the device form's owner selector.
 */
import type { FastifyInstance } from 'fastify';
import { registerCall, type RouteContext } from '../http/route';
import { formatRow } from '../crud/format';

export function registerSystemRoutes(app: FastifyInstance, ctx: RouteContext) {
  registerCall(app, ctx, {
    path: '/system/t-sys-dic/getdic',
    permission: null,
    handler: async ({ body }) => {
      const key = typeof body.key === 'string' ? body.key : '';
      return ctx.db.selectFrom('t_sys_dic').select(['fId', 'fKey', 'fValue', 'fContent']).where('fKey', '=', key).orderBy('fSort').orderBy('fId').execute();
    },
  });

  // Users by kind (condition.userType is the legacy agent lookup: fAdmin 2) for selectors; paged.
  registerCall(app, ctx, {
    path: '/system/t-sys-user/pageList',
    permission: 'user:list',
    handler: async ({ body }) => {
      const condition = (body.condition ?? {}) as Record<string, unknown>;
      const size = Math.min(Math.max(Number(body.size ?? body.pageSize) || 10, 1), 999);
      const current = Math.max(Number(body.current) || 1, 1);
      let q = ctx.db.selectFrom('t_sys_user');
      const kind = Number(condition.fAdmin ?? condition.userType);
      if ([0, 1, 2].includes(kind)) q = q.where('fAdmin', '=', kind);
      if (typeof condition.keyword === 'string' && condition.keyword.trim()) {
        const like = `%${condition.keyword.trim()}%`;
        q = q.where((eb) => eb.or([eb('fChineseName', 'ilike', like), eb('fPhone', 'like', like)]));
      }
      const { total } = (await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()) as { total: number };
      const rows = await q
        .select(['fId', 'fChineseName', 'fPhone', 'fAdmin', 'fUserType', 'fStatus', 'fCreateTime', 'fLastloginDate'])
        .orderBy('fId')
        .limit(size)
        .offset((current - 1) * size)
        .execute();
      return { records: rows.map((r) => formatRow(r, ctx.timeZone)), total: Number(total), current, size };
    },
  });
}

/**
 * System lookups the device screens need: the dictionary. The agent list of the device form's owner
 * selector is the user list (resources/user.resource.json).
 */
import type { FastifyInstance } from 'fastify';
import { registerCall, type RouteContext } from '../http/route';

export function registerSystemRoutes(app: FastifyInstance, ctx: RouteContext) {
  registerCall(app, ctx, {
    path: '/system/t-sys-dic/getdic',
    permission: null,
    handler: async ({ body }) => {
      const key = typeof body.key === 'string' ? body.key : '';
      return ctx.db.selectFrom('t_sys_dic').select(['fId', 'fKey', 'fValue', 'fContent']).where('fKey', '=', key).orderBy('fSort').orderBy('fId').execute();
    },
  });

}

/** Serves every path of the generated route table through the CRUD engine or the module's handler. */
import type { FastifyInstance } from 'fastify';
import { routes } from '../generated/routes';
import { Answer, registerCall, type RouteContext } from '../http/route';
import { entity, set, standardActions } from './engine';
import type { RouteSpec } from './types';

const READS = new Set(['list', 'get', 'all']);

/** The code(s) a call needs before the engine sees the row; with codes by value, any of them (the engine checks the row's). */
function permissionOf(route: RouteSpec) {
  const p = route.permission;
  const byValue = route.byValue ? Object.values(route.byValue.codes) : [];
  if (typeof p === 'string') return byValue.length ? [p, ...byValue] : p;
  return (body: Record<string, unknown>) => {
    const id = body.fId;
    const code = id === undefined || id === null || id === '' ? p.create : p.update;
    return byValue.length ? [code, ...byValue] : code;
  };
}

export function registerResourceRoutes(app: FastifyInstance, ctx: RouteContext) {
  for (const route of routes) {
    const standard = route.as ?? route.action;
    const action = route.handler ?? (route.set ? set : standardActions[standard]);
    if (!action) throw new Error(`${route.path}: no handler for action "${route.action}" of ${route.entity}`);
    const model = entity(route.entity);
    registerCall(app, ctx, {
      path: route.path,
      permission: permissionOf(route),
      methods: route.method === 'GET' ? ['GET', 'POST'] : ['POST'],
      // A handler that only reads is named so in the resource file by having no message.
      write: !READS.has(standard) && !(route.handler && !route.message),
      logname: route.log,
      handler: async ({ user, body }) => {
        const data = await action({ db: ctx.db, timeZone: ctx.timeZone, user: user!, body, entity: model, route });
        return data instanceof Answer || !route.message ? data : new Answer(data, route.message);
      },
    });
  }
}

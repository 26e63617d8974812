/** Serves every path of the generated route table through the CRUD engine or the module's handler. */
import type { FastifyInstance } from 'fastify';
import { routes } from '../generated/routes';
import { Answer, registerCall, type RouteContext } from '../http/route';
import { entity, set, standardActions } from './engine';
import type { EntityModel, RouteSpec } from './types';

const READS = new Set(['list', 'get', 'all']);

/** The value a body names for a key: in its condition (a list call) or at its top level (a write). */
function named(body: Record<string, unknown>, key: string): unknown {
  const condition = body.condition && typeof body.condition === 'object' ? (body.condition as Record<string, unknown>) : {};
  return condition[key] ?? body[key];
}

function permissionOf(route: RouteSpec, model: EntityModel) {
  const p = route.permission;
  const base =
    typeof p === 'string'
      ? () => p
      : (body: Record<string, unknown>) => {
          // The row's key as the legacy screens send it: the primary key, fId, or id.
          const id = body[model.primaryKey] ?? body.fId ?? body.id;
          return id === undefined || id === null || id === '' || id === 0 ? p.create : p.update;
        };
  const when = route.permissionWhen;
  if (!when) return typeof p === 'string' ? p : base;
  return (body: Record<string, unknown>) =>
    when.find((w) =>
      w.keys.some((k) => {
        const v = named(body, k);
        return v !== undefined && v !== null && v !== '' && (w.equals === undefined || String(v) === String(w.equals));
      }),
    )?.permission ?? base(body);
}

export function registerResourceRoutes(app: FastifyInstance, ctx: RouteContext) {
  for (const route of routes) {
    const standard = route.as ?? route.action;
    const action = route.handler ?? (route.set ? set : standardActions[standard]);
    if (!action) throw new Error(`${route.path}: no handler for action "${route.action}" of ${route.entity}`);
    const model = entity(route.entity);
    registerCall(app, ctx, {
      path: route.path,
      permission: permissionOf(route, model),
      methods: route.method === 'GET' ? ['GET', 'POST'] : ['POST'],
      // A handler that only reads is named so in the resource file by having no message.
      write: !READS.has(standard) && !(route.handler && !route.message),
      logname: route.log,
      handler: async ({ user, body, request, reply }) => {
        const data = await action({ db: ctx.db, timeZone: ctx.timeZone, user: user!, body, entity: model, route, request, reply });
        return data instanceof Answer || !route.message ? data : new Answer(data, route.message);
      },
    });
  }
}

/** Serves every path of the generated route table through the CRUD engine or the module's handler. */
import type { FastifyInstance } from 'fastify';
import { routes } from '../generated/routes';
import { Answer, registerCall, type RouteContext } from '../http/route';
import { S, type JsonSchema } from '../http/catalog';
import { entity, set, standardActions } from './engine';
import type { EntityModel, RouteSpec } from './types';

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

const READ_WORDS: Record<string, { 'zh-CN': string; 'zh-TW': string; 'en-US': string }> = {
  list: { 'zh-CN': '列表', 'zh-TW': '列表', 'en-US': 'list' },
  all: { 'zh-CN': '全部', 'zh-TW': '全部', 'en-US': 'all' },
  get: { 'zh-CN': '详情', 'zh-TW': '詳情', 'en-US': 'details' },
};

/** What the document says of a generated call: the body the engine checks and the `data` it answers. */
function documentOf(route: RouteSpec, model: EntityModel, standard: string): { body: JsonSchema; data?: JsonSchema } {
  const row = { $ref: `#/components/schemas/${route.entity}` };
  const key = { [model.primaryKey]: S.id(), ids: S.ids('several rows at once') };
  if (route.set) return { body: S.object(key) };
  if (route.handler) return { body: { type: 'object', description: `handled by server/domain (${route.action})` } };
  switch (standard) {
    case 'list':
      return { body: S.page(Object.fromEntries(model.filters.map((f) => [f.key, S.any()]))), data: S.pageOf(row) };
    case 'all':
      return { body: S.object({}), data: S.array(row) };
    case 'get':
      return { body: S.object(key), data: row };
    case 'save':
      return { body: model.body as JsonSchema, data: row };
    default:
      return { body: S.object(key) };
  }
}

export function registerResourceRoutes(app: FastifyInstance, ctx: RouteContext) {
  for (const route of routes) {
    const standard = route.as ?? route.action;
    const action = route.handler ?? (route.set ? set : standardActions[standard]);
    if (!action) throw new Error(`${route.path}: no handler for action "${route.action}" of ${route.entity}`);
    const model = entity(route.entity);
    const words = READ_WORDS[standard];
    registerCall(app, ctx, {
      path: route.path,
      permission: permissionOf(route),
      codes: typeof route.permission === 'string' ? [route.permission] : [route.permission.create, route.permission.update],
      tag: route.entity,
      ...documentOf(route, model, standard),
      bodyCheckedByHandler: true,
      summary: words && { 'zh-CN': model.labels['zh-CN'] + words['zh-CN'], 'zh-TW': model.labels['zh-TW'] + words['zh-TW'], 'en-US': `${model.labels['en-US']} ${words['en-US']}` },
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

/** Serves every path of the generated route table through the CRUD engine or the module's handler. */
import type { FastifyInstance } from 'fastify';
import { routes } from '../generated/routes';
import { Answer, registerCall, type RouteContext } from '../http/route';
import { S, UNDECLARED_BODY, answerOf, bodyOf, type JsonSchema } from '../http/catalog';
import { entity, set, standardActions } from './engine';
import type { EntityModel, RouteSpec } from './types';

const READS = new Set(['list', 'get', 'all']);

/** The value a body names for a key: in its condition (a list call) or at its top level (a write). */
function named(body: Record<string, unknown>, key: string): unknown {
  const condition = body.condition && typeof body.condition === 'object' ? (body.condition as Record<string, unknown>) : {};
  return condition[key] ?? body[key];
}

/** The code(s) a call needs before the engine sees the row; with codes by value, any of them (the engine checks the row's). */
function permissionOf(route: RouteSpec, model: EntityModel) {
  const p = route.permission;
  const byValue = route.byValue ? Object.values(route.byValue.codes) : [];
  const withValues = (code: string) => (byValue.length ? [code, ...byValue] : code);
  const base =
    typeof p === 'string'
      ? () => p
      : (body: Record<string, unknown>) => {
          // The row's key as the legacy screens send it: the primary key, fId, or id.
          const id = body[model.primaryKey] ?? body.fId ?? body.id;
          return id === undefined || id === null || id === '' || id === 0 ? p.create : p.update;
        };
  const when = route.permissionWhen;
  if (!when && typeof p === 'string') return withValues(p);
  return (body: Record<string, unknown>) =>
    withValues(
      when?.find((w) =>
        w.keys.some((k) => {
          const v = named(body, k);
          return v !== undefined && v !== null && v !== '' && (w.equals === undefined || String(v) === String(w.equals));
        }),
      )?.permission ?? base(body),
    );
}

const READ_WORDS: Record<string, { 'zh-CN': string; 'zh-TW': string; 'en-US': string }> = {
  list: { 'zh-CN': '列表', 'zh-TW': '列表', 'en-US': 'list' },
  all: { 'zh-CN': '全部', 'zh-TW': '全部', 'en-US': 'all' },
  get: { 'zh-CN': '详情', 'zh-TW': '詳情', 'en-US': 'details' },
};

/**
 * What the document says of a generated call: the body and the `data` it answers, and whether the body
 * is checked against its schema before the handler runs (`checked`), or by the CRUD engine with the
 * entity's rules and messages.
 */
function documentOf(route: RouteSpec, model: EntityModel, standard: string): { body: JsonSchema; data?: JsonSchema; checked?: boolean } {
  const row = { $ref: `#/components/schemas/${route.entity}` };
  const key = { [model.primaryKey]: S.id(), ids: S.ids('several rows at once') };
  // Writes that change a row in place (delete, status, a `set`) answer no data.
  const nothing = { type: 'null' };
  if (route.set) return { body: S.object(key), data: nothing };
  // A hand-written handler of a standard action takes the same request; one of another action (or a
  // delete or status change of its own) declares its body beside it with takes().
  if (route.handler && !['list', 'all', 'get', 'save'].includes(standard)) {
    const declared = bodyOf(route.handler);
    const data = answerOf(route.handler);
    if (declared === 'list' || declared === 'save') {
      const standardCall = documentOf({ ...route, handler: undefined }, model, declared);
      return { body: standardCall.body, data: data ?? standardCall.data };
    }
    return { body: declared ?? { type: 'object', description: UNDECLARED_BODY }, data, checked: Boolean(declared) };
  }
  switch (standard) {
    case 'list': {
      const body = S.page(Object.fromEntries(model.filters.map((f) => [f.key, S.any()])));
      // A hand-written list may answer the whole tree (departments, areas) instead of a page.
      return { body, data: route.handler ? { anyOf: [S.pageOf(row), S.array(row, 'the whole tree: each row with its `children`')] } : S.pageOf(row) };
    }
    case 'all': {
      if (!route.fields) return { body: S.object({}), data: S.array(row) };
      const fields = Object.fromEntries(route.fields.map((f) => [f, { $ref: `#/components/schemas/${route.entity}/properties/${f}` }]));
      return { body: S.object({}), data: S.array({ type: 'object', properties: fields, required: route.fields }) };
    }
    case 'get':
      return { body: S.object(key), data: row };
    case 'save':
      // A hand-written save may answer fewer columns than the entity's row (declared beside it).
      return { body: model.body as JsonSchema, data: (route.handler && answerOf(route.handler)) || row };
    default:
      return { body: S.object(key), data: nothing };
  }
}

export function registerResourceRoutes(app: FastifyInstance, ctx: RouteContext) {
  for (const route of routes) {
    const standard = route.as ?? route.action;
    const action = route.handler ?? (route.set ? set : standardActions[standard]);
    if (!action) throw new Error(`${route.path}: no handler for action "${route.action}" of ${route.entity}`);
    const model = entity(route.entity);
    const words = READ_WORDS[standard];
    const { checked, ...documented } = documentOf(route, model, standard);
    registerCall(app, ctx, {
      path: route.path,
      permission: permissionOf(route, model),
      codes: [...(typeof route.permission === 'string' ? [route.permission] : [route.permission.create, route.permission.update]), ...(route.permissionWhen ?? []).map((w) => w.permission)],
      tag: route.entity,
      ...documented,
      bodyCheckedByHandler: !checked,
      summary: words && { 'zh-CN': model.labels['zh-CN'] + words['zh-CN'], 'zh-TW': model.labels['zh-TW'] + words['zh-TW'], 'en-US': `${model.labels['en-US']} ${words['en-US']}` },
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

/** Serves every path of the generated route table through the CRUD engine or the module's handler. */
import type { FastifyInstance } from 'fastify';
import { modules, routes } from '../generated/routes';
import { registerHooks } from './hooks';
import { Answer, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { S, UNDECLARED_BODY, type JsonSchema } from '../http/catalog';
import { entity, set, standardActions } from './engine';
import type { EntityModel, RouteSpec } from './types';
import { codesOf, decide } from './access';
import type { CallName } from '../../contract/generated/calls';

const READS = new Set(['list', 'get', 'all']);

registerHooks(modules);

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
  // delete or status change of its own) declares its body in its endpoint (resources/<entity>.resource.json).
  if (route.handler && !['list', 'all', 'get', 'save'].includes(standard)) {
    const declared = route.body;
    const data = route.data;
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
      return { body, data: route.handler ? (route.data ?? { anyOf: [S.pageOf(row), S.array(row, 'the whole tree: each row with its `children`')] }) : S.pageOf(row) };
    }
    case 'all': {
      if (!route.fields) return { body: S.object({}), data: S.array(row) };
      const fields = Object.fromEntries(route.fields.map((f) => [f, { $ref: `#/components/schemas/${route.entity}/properties/${f}` }]));
      return { body: S.object({}), data: S.array({ type: 'object', properties: fields, required: route.fields }) };
    }
    case 'get':
      // A hand-written get may answer otherwise by its body (the user's, a person's profile), declared beside it.
      return { body: S.object(key), data: (route.handler && route.data) || row };
    case 'save':
      // A hand-written save may answer fewer columns than the entity's row (declared beside it).
      return { body: model.body as JsonSchema, data: (route.handler && route.data) || row };
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
    const { checked, ...documented } = documentOf(route, model, standard);
    registerCall(app, ctx, {
      call: `${route.entity}.${route.action}` as CallName,
      permission: (body) => decide(route, model, body, ctx.db),
      codes: codesOf(route),
      tag: route.entity,
      ...documented,
      bodyCheckedByHandler: !checked,
      summary: route.summary,
      // A handler that only reads is named so in the resource file by having no message.
      write: !READS.has(standard) && !(route.handler && !route.notice),
      logname: route.log,
      handler: async ({ user, body, request, reply, variant }) => {
        const data = await action({ db: ctx.db, timeZone: ctx.timeZone, user: user!, body, entity: model, route, request, reply, variant });
        return data instanceof Answer || !route.notice ? data : new Answer(data, { code: route.notice, params: {} });
      },
    });
  }
}

/**
 * The server side: server/generated/entities.ts (what the CRUD engine needs to know of each entity),
 * routes.ts (every legacy path with its action, permission and handler), menus.ts (menu and permission
 * rows to seed), snapshot/<table>.json (the tables as the migrations leave them) and openapi.json.
 */
import type { Model, Entity, Property } from '../model';
import { primaryKey, isWrite, logName, readName, variantKey } from '../model';
import { tsHeader, literal, HEADER } from './common';
import { snapshotFiles } from '../history';
import { TIME_SCHEMA } from '../../server/crud/format';

function zh(messages: Property['x-messages']): Record<string, string> {
  return Object.fromEntries(Object.entries(messages ?? {}).map(([rule, t]) => [rule, t['zh-CN']]));
}

/** The JSON Schema a request body is checked against: writable fields only, each may be null. */
function bodySchema(entity: Entity): object {
  const properties: Record<string, object> = {};
  for (const [name, p] of Object.entries(entity.schema.properties)) {
    if (p.readOnly && !p['x-db']?.primaryKey) continue;
    if (p['x-db']?.virtual) continue;
    const s: Record<string, unknown> = { type: [p.type, 'null'] };
    // Integers are stored in int4 columns: a value outside their range is a refusal, not a database error.
    if (p.type === 'integer') Object.assign(s, { minimum: -2147483648, maximum: 2147483647 });
    for (const k of ['maxLength', 'minLength', 'minimum', 'maximum', 'pattern'] as const) if (p[k] !== undefined) s[k] = p[k];
    // Times are read by the engine's own rules; a picture's format is checked by the validator (server/crud/validate.ts).
    if (p.format === 'picture' || p.format === 'pictures') s.format = p.format;
    if (p.enum) s.enum = [...p.enum, null];
    properties[name] = s;
  }
  return { type: 'object', properties };
}

function entityModel(entity: Entity) {
  const { schema, resource } = entity;
  const fields = Object.fromEntries(
    Object.entries(schema.properties).map(([name, p]) => [
      name,
      {
        type: p.format === 'date-time' ? 'date-time' : p.type,
        label: p['x-label']['zh-CN'],
        labels: p['x-label'],
        ...(p.readOnly ? { readOnly: true } : {}),
        ...(p['x-db']?.virtual ? { virtual: true } : {}),
        ...(p.default !== undefined ? { default: p.default } : {}),
        ...(p['x-transform'] ? { transform: p['x-transform'] } : {}),
        ...(p['x-format'] ? { format: p['x-format'] } : {}),
        ...(p['x-notBefore'] ? { notBefore: p['x-notBefore'] } : {}),
        ...(p['x-ref'] && p.type === 'string' ? { idsOf: { entity: p['x-ref'], ...(p['x-refWhere'] ? { where: p['x-refWhere'] } : {}) } } : {}),
        messages: zh(p['x-messages']),
      },
    ]),
  );
  return {
    name: entity.name,
    table: schema['x-db'].table,
    label: schema['x-label']['zh-CN'],
    labels: schema['x-label'],
    primaryKey: primaryKey(schema),
    fields,
    required: schema.required ?? [],
    unique: Object.entries(schema.properties).filter(([, p]) => p['x-db']?.unique).map(([n]) => n),
    relations: schema['x-db'].relations ?? {},
    readOnlyOnEdit: resource.form.readOnlyOnEdit ?? [],
    adminOnly: resource.form.adminOnly ?? [],
    // A filter's label is the console's business.
    filters: (resource.list.filters ?? []).map(({ label: _, ...f }) => f),
    sort: {
      default: resource.list.sort?.default ?? [{ column: primaryKey(schema), asc: false }],
      allowed: resource.list.sort?.allowed ?? [primaryKey(schema)],
    },
    pageSize: resource.list.pageSize,
    body: bodySchema(entity),
    scope: resource.scope,
    mask: Object.fromEntries(Object.entries(schema.properties).filter(([, p]) => p['x-mask']).map(([n, p]) => [n, p['x-mask']])),
    ...(resource.unmask ? { unmask: resource.unmask } : {}),
  };
}

/**
 * The codes of a route by the row's value of a variant's field (a document's type): each variant with
 * its own codes, and for list each variant's page code. Absent when no variant changes the route's code.
 */
function codesByValue(entity: Entity, action: string) {
  const r = entity.resource;
  // The engine checks the row's code; a hand-written handler's code is decided by its variantBy.
  if (r.endpoints[action]?.handler) return undefined;
  const codes: Record<string, string> = {};
  let key: { key: string; field: string } | undefined;
  for (const v of Object.values(r.list.variants ?? {})) {
    const k = variantKey(r, v);
    // Reading a list or one row of the variant needs its page code.
    const reads = ['list', 'get'].includes(r.endpoints[action]?.as ?? action);
    const code = v.permissions?.[action] ?? (reads ? v.permission : undefined);
    if (!k || !code) continue;
    key = { key: k.key, field: k.field };
    codes[k.value] = code;
  }
  return key ? { ...key, codes } : undefined;
}

function routeTable(model: Model) {
  const modules = new Set<string>();
  const rows: string[] = [];
  for (const entity of model.entities) {
    const { name, resource, schema } = entity;
    const mod = resource.server && moduleName(resource.server.module);
    if (resource.server) modules.add(resource.server.module);
    for (const [action, ep] of Object.entries(resource.endpoints)) {
      const parts = [
        `path: '${ep.path}'`,
        `entity: '${name}'`,
        `action: '${action}'`,
        `permission: ${JSON.stringify(ep.permission)}`,
        ...(ep.as ? [`as: '${ep.as}'`] : []),
        ...(ep.method ? [`method: '${ep.method}'`] : []),
        ...(ep.field ? [`field: '${ep.field}'`] : []),
        ...(ep.set ? [`set: ${JSON.stringify(ep.set)}`] : []),
        ...(ep.fields ? [`fields: ${JSON.stringify(ep.fields)}`] : []),
        ...(ep.variantBy ? [`variantBy: ${JSON.stringify(ep.variantBy)}`] : []),
        ...(ep.message ? [`notice: '${name}.${action}.done'`] : []),
        ...(isWrite(action, ep) ? [`log: ${JSON.stringify({ key: `${name}.${action}`, ...logName(schema['x-label'], action, ep) })}`] : []),
        ...(readName(schema['x-label'], action, ep) ? [`summary: ${JSON.stringify(readName(schema['x-label'], action, ep))}`] : []),
        // Read when the routes are registered, not when this module loads: a domain module imported first
        // (a script, a test helper) reaches this table through the engine before its own exports exist.
        ...(ep.handler ? [`get handler() { return ${mod}.${ep.handler}; }`] : []),
        // A handler's declared request and answer: checked and documented as a declared call's are.
        ...(ep.body ? [`body: ${JSON.stringify(ep.body)}`] : []),
        ...(ep.answer ? [`data: ${JSON.stringify(ep.answer)}`] : []),
        ...(codesByValue(entity, action) ? [`byValue: ${JSON.stringify(codesByValue(entity, action))}`] : []),
      ];
      rows.push(`  { ${parts.join(', ')} },`);
    }
  }
  return (
    tsHeader +
    `import type { RouteSpec } from '../crud/types';\n` +
    [...modules].sort().map((m) => `import * as ${moduleName(m)} from '../${m}';\n`).join('') +
    `\nexport const routes: RouteSpec[] = [\n${rows.join('\n')}\n];\n` +
    `\n/** The server module of each entity (scope, hooks), by entity name. */\n` +
    `export const modules = {\n${model.entities.filter((e) => e.resource.server).map((e) => `  ${e.name}: ${moduleName(e.resource.server!.module)},`).join('\n')}\n};\n`
  );
}

/** The menu of the list variant whose own code has this code's prefix: tenant:status sits under 租客管理 (tenant:list). */
function variantOf(model: Model, code: string): string | undefined {
  const prefix = code.split(':')[0];
  for (const e of model.entities) for (const v of Object.values(e.resource.list.variants ?? {})) if (v.permission.split(':')[0] === prefix) return v.menu.key;
  return undefined;
}

function menuSeeds(model: Model) {
  const sections = model.menus.sections.map((s) => ({ key: s.key, parent: null, path: s.path, component: 'Main', icon: s.icon, sort: s.sort, title: s.title['zh-CN'], permission: s.key }));
  const pages = [
    ...model.entities.filter((e) => e.resource.menu).map(({ resource: r }) => ({ key: r.menu!.key, parent: r.menu!.parent ?? null, path: r.menu!.path, component: r.menu!.component, icon: r.menu!.icon, sort: r.menu!.sort ?? 0, title: r.menu!.title['zh-CN'], permission: r.menu!.permission ?? (Object.values(r.endpoints).find((e) => typeof e.permission === 'string')?.permission as string) })),
    // Each list variant is a page of its own, opened by its own code.
    ...model.entities.flatMap(({ resource: r }) => Object.entries(r.list.variants ?? {}).map(([name, v]) => ({ key: v.menu.key, parent: v.menu.parent ?? null, path: `/${name}`, component: name, icon: v.menu.icon, sort: v.menu.sort ?? 0, title: v.menu.title['zh-CN'], permission: v.permission }))),
    ...model.menus.pages.map((p) => ({ key: p.key, parent: p.parent ?? null, path: p.path, component: p.component, icon: p.icon, sort: p.sort ?? 0, title: p.title['zh-CN'], permission: p.permission ?? p.key })),
  ];
  // A code several entities declare (group:edit of groups and of a device's timers) sits once, under the
  // menu of the entity that owns a page, else under the first entity's permissionsUnder.
  const owners = [...model.entities].sort((a, b) => Number(!a.resource.menu) - Number(!b.resource.menu));
  const seen = new Set<string>();
  const buttons = owners
    .flatMap(({ resource: r }) => Object.entries(r.permissions).map(([code, t]) => ({ code, menu: variantOf(model, code) ?? r.menu?.key ?? Object.values(r.list.variants ?? {})[0]?.menu.key ?? r.permissionsUnder!, title: t['zh-CN'] })))
    .filter((b) => !seen.has(b.code) && seen.add(b.code));
  return `${tsHeader}
/** Menu sections and pages (type 1) to seed; \`permission\` is the code that opens the page. */
export const menus = ${literal([...sections, ...pages])};

/** Button permissions (type 2) under their page. */
export const buttons = ${literal(buttons)};
`;
}

/** A column's format as answers carry it: times are written by server/crud/format.ts, not as RFC 3339. */
function answeredFormat(format: string): Record<string, string> {
  if (format === 'date-time' || format === 'date') return { ...TIME_SCHEMA };
  return { format };
}

function openapi(model: Model) {
  const schemas: Record<string, object> = {};
  const paths: Record<string, object> = {};
  for (const entity of model.entities) {
    const { name, schema, resource } = entity;
    schemas[name] = {
      type: 'object',
      title: schema['x-label']['en-US'],
      properties: Object.fromEntries(Object.entries(schema.properties).map(([f, p]) => {
        const { 'x-label': label, type, format, maxLength, pattern, enum: e, readOnly } = p;
        // An answer's row carries NULL for an empty column: only the key and NOT NULL columns always have a value.
        const empty = !p['x-db']?.primaryKey && !p['x-db']?.notNull;
        // A personal field is answered masked unless the caller holds the unmask code: its pattern is the
        // stored value's, not always the answer's.
        const mask = p['x-mask'];
        const masked = mask ? ` — answered masked (${mask === 'phone' ? '3 + 4 digits' : 'first 6 and last 4'})${resource.unmask ? ` unless the caller holds ${resource.unmask}` : ''}` : '';
        return [f, { type: empty ? [type, 'null'] : type, ...(format ? answeredFormat(format) : {}), ...(maxLength ? { maxLength } : {}), ...(pattern && !mask ? { pattern } : {}), ...(e ? { enum: empty ? [...e, null] : e } : {}), ...(readOnly ? { readOnly } : {}), description: `${label['en-US']} / ${label['zh-CN']}${masked}` }];
      })),
      // A row as answers carry it: a call may answer some of its columns (a profile, a list without the
      // write-only role ids), so only the key is always there. What a save requires is its request body's.
      required: Object.keys(schema.properties).filter((f) => schema.properties[f]['x-db']?.primaryKey),
    };
    for (const [action, ep] of Object.entries(resource.endpoints)) {
      const perm = typeof ep.permission === 'string' ? ep.permission : `${ep.permission.create} (create) / ${ep.permission.update} (update)`;
      paths[ep.path] = {
        [(ep.method ?? 'POST').toLowerCase()]: {
          tags: [name],
          summary: `${name} ${action}`,
          description: `Permission: ${perm}`,
          security: [{ token: [] }],
          requestBody: { content: { 'application/json': { schema: (ep.as ?? action) === 'save' ? { $ref: `#/components/schemas/${name}` } : (ep.as ?? action) === 'list' ? { $ref: '#/components/schemas/PageRequest' } : { type: 'object' } } } },
          responses: { '200': { description: 'Envelope', content: { 'application/json': { schema: { $ref: '#/components/schemas/Envelope' } } } }, '401': { description: 'Missing permission' }, '700': { description: 'Invalid or expired token' } },
        },
      };
    }
  }
  schemas.Envelope = { type: 'object', properties: { code: { type: 'integer' }, success: { type: 'boolean' }, message: { type: 'string' }, data: {}, reason: { $ref: '#/components/schemas/Reason' } } };
  schemas.PageRequest = { type: 'object', properties: { current: { type: 'integer' }, size: { type: 'integer' }, condition: { type: 'object' }, orders: { type: 'array', items: { type: 'object', properties: { column: { type: 'string' }, asc: { type: 'boolean' } } } } } };
  return JSON.stringify({
    'x-generated': HEADER,
    openapi: '3.1.0',
    info: { title: 'IoT device and rental-housing security platform API', version: '1.0.0' },
    components: { schemas, securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization' } } },
    paths,
  }, null, 2) + '\n';
}

/** The name a server module is imported under: its file's name (`devices/device` → `device`). */
const moduleName = (module: string) => module.slice(module.lastIndexOf('/') + 1);

export function emitServer(model: Model): Record<string, string> {
  const entities = Object.fromEntries(model.entities.map((e) => [e.name, entityModel(e)]));
  const files: Record<string, string> = {
    'server/generated/entities.ts':
      `${tsHeader}import type { EntityModel } from '../crud/types';\n\n` +
      `export const entities: Record<string, EntityModel> = ${literal(entities)};\n`,
    'server/generated/routes.ts': routeTable(model),
    'server/generated/menus.ts': menuSeeds(model),
    'server/generated/openapi.json': openapi(model),
  };
  return { ...files, ...snapshotFiles(model) };
}

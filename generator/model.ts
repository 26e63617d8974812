/**
 * Reads schemas/ and resources/, checks them against the meta-schemas and against each other, and
 * gives the emitters one model. Every problem is reported with its file, a JSON pointer and a hint.
 */
import { listIndexProblems } from './listIndexes';
import { inlineDefs } from './callSchemas';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';

export * from './modelTypes';
import { LANGS, STANDARD_ACTIONS, endpointCodes, indexFields, type I18n, type Property, type EntitySchema, type Endpoint, type Link, type Variant, type Resource, type Menus, type Entity, type Model, type Problem } from './modelTypes';

/** Whether a call changes something (and is written to the operation log): a handler without a message only reads. */
export const isWrite = (action: string, ep: Endpoint) => !['list', 'get', 'all'].includes(ep.as ?? action) && !(ep.handler && !ep.message);

const LOG_VERBS: Record<string, I18n> = {
  save: { 'zh-CN': '保存', 'zh-TW': '儲存', 'en-US': 'Save' },
  delete: { 'zh-CN': '删除', 'zh-TW': '刪除', 'en-US': 'Delete' },
  status: { 'zh-CN': '状态修改', 'zh-TW': '狀態修改', 'en-US': 'Change status of' },
};

const READ_NAMES: Record<string, I18n> = {
  list: { 'zh-CN': '列表', 'zh-TW': '列表', 'en-US': 'list' },
  all: { 'zh-CN': '全部', 'zh-TW': '全部', 'en-US': 'all' },
  get: { 'zh-CN': '详情', 'zh-TW': '詳情', 'en-US': 'details' },
};

/** A standard read's name in the API document: the entity label and what it reads ("Device list"). */
export function readName(label: I18n, action: string, ep: Endpoint): I18n | undefined {
  const what = READ_NAMES[ep.as ?? action];
  return what && { 'zh-CN': label['zh-CN'] + what['zh-CN'], 'zh-TW': label['zh-TW'] + what['zh-TW'], 'en-US': `${label['en-US']} ${what['en-US']}` };
}

/** A write's operation-log name: the endpoint's `log`, else the entity label and the standard action's verb. */
export function logName(label: I18n, action: string, ep: Endpoint): I18n | undefined {
  if (ep.log) return ep.log;
  const verb = LOG_VERBS[ep.as ?? action];
  if (!verb) return undefined;
  // "Firmware version" reads "Save firmware version"; an acronym ("OTA task") keeps its case.
  const en = /^[A-Z][a-z]/.test(label['en-US']) ? label['en-US'][0].toLowerCase() + label['en-US'].slice(1) : label['en-US'];
  return { 'zh-CN': label['zh-CN'] + verb['zh-CN'], 'zh-TW': label['zh-TW'] + verb['zh-TW'], 'en-US': `${verb['en-US']} ${en}` };
}

export class InvalidInputs extends Error {
  constructor(readonly problems: Problem[]) {
    super(problems.map(formatProblem).join('\n'));
  }
}

export function formatProblem(p: Problem): string {
  return `${p.file}${p.pointer ? ' at ' + p.pointer : ''}: ${p.message}${p.hint ? `\n    hint: ${p.hint}` : ''}`;
}

const META = join(import.meta.dirname, 'meta');

function makeAjv() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  for (const file of ['i18n.meta.json', 'schema.meta.json', 'resource.meta.json']) {
    ajv.addSchema(JSON.parse(readFileSync(join(META, file), 'utf8')));
  }
  return ajv;
}

function hintFor(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return `add "${(error.params as { missingProperty: string }).missingProperty}"`;
    case 'additionalProperties':
      return `"${(error.params as { additionalProperty: string }).additionalProperty}" is not a known key here; check its spelling`;
    case 'enum':
      return `use one of ${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)}`;
    case 'const':
      return `use ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`;
    case 'pattern':
      return `the value must match ${(error.params as { pattern: string }).pattern}`;
    case 'type':
      return `give a ${(error.params as { type: string }).type}`;
    case 'oneOf':
      return 'give exactly one of the allowed forms';
    default:
      return 'see the format in docs/generator.md';
  }
}

function readJson(root: string, file: string, problems: Problem[]): unknown {
  try {
    return JSON.parse(readFileSync(join(root, file), 'utf8'));
  } catch (e) {
    problems.push({ file, pointer: '', message: `not valid JSON: ${(e as Error).message}`, hint: 'fix the JSON syntax' });
    return undefined;
  }
}

/** Loads and checks every input under `root`. Throws InvalidInputs listing every problem found. */
export function loadModel(root: string): Model {
  const problems: Problem[] = [];
  const ajv = makeAjv();
  const check = (metaId: string, data: unknown, file: string) => {
    const validate = ajv.getSchema(metaId)!;
    if (validate(data)) return true;
    for (const error of validate.errors ?? []) {
      if (error.keyword === 'if') continue;
      problems.push({ file, pointer: error.instancePath || '/', message: error.message ?? 'invalid', hint: hintFor(error) });
    }
    return false;
  };

  const schemaDir = join(root, 'schemas');
  const resourceDir = join(root, 'resources');
  const rel = (dir: string, f: string) => `${dir === schemaDir ? 'schemas' : 'resources'}/${f}`;

  const schemas = new Map<string, { file: string; schema: EntitySchema }>();
  for (const f of readdirSync(schemaDir).filter((f) => f.endsWith('.schema.json')).sort()) {
    const file = rel(schemaDir, f);
    const data = readJson(root, file, problems);
    if (data === undefined || !check('schema.meta.json', data, file)) continue;
    const schema = data as EntitySchema;
    const expected = f.replace(/\.schema\.json$/, '');
    if (schema.$id !== expected) {
      problems.push({ file, pointer: '/$id', message: `$id "${schema.$id}" differs from the file name`, hint: `use "${expected}"` });
      continue;
    }
    schemas.set(schema.$id, { file, schema });
  }

  const enumsFile = join(schemaDir, 'enums.json');
  const enums = (existsSync(enumsFile) ? readJson(root, 'schemas/enums.json', problems) : {}) as Record<string, Record<string, I18n>>;
  delete (enums as Record<string, unknown>).$comment;
  const dictionariesFile = join(schemaDir, 'dictionaries.json');
  const dictionaries = (existsSync(dictionariesFile) ? readJson(root, 'schemas/dictionaries.json', problems) : {}) as Record<string, Record<string, I18n>>;
  delete (dictionaries as Record<string, unknown>).$comment;
  for (const [key, entries] of Object.entries(dictionaries ?? {})) {
    for (const [value, words] of Object.entries(entries)) {
      if (LANGS.some((l) => typeof words?.[l] !== 'string' || !words[l]))
        problems.push({ file: 'schemas/dictionaries.json', pointer: `/${key}/${value}`, message: `the entry needs its words in ${LANGS.join(', ')}`, hint: 'give each language a non-empty string; zh-CN exactly as the migration seeds it' });
    }
  }
  const menusFile = join(resourceDir, 'menus.json');
  const menus = (existsSync(menusFile) ? readJson(root, 'resources/menus.json', problems) : { sections: [], pages: [] }) as Menus;

  const entities: Entity[] = [];
  for (const f of readdirSync(resourceDir).filter((f) => f.endsWith('.resource.json')).sort()) {
    const file = rel(resourceDir, f);
    const data = readJson(root, file, problems);
    if (data === undefined || !check('resource.meta.json', data, file)) continue;
    const resource = data as Resource;
    inlineEndpointSchemas(resource, file, problems);
    const found = schemas.get(resource.entity);
    if (!found) {
      problems.push({ file, pointer: '/entity', message: `no schema for entity "${resource.entity}"`, hint: `create schemas/${resource.entity}.schema.json (npm run gen:new -- ${resource.entity})` });
      continue;
    }
    entities.push({ name: resource.entity, schemaFile: found.file, resourceFile: file, schema: found.schema, resource });
  }
  for (const [name, { file }] of schemas) {
    if (!entities.some((e) => e.name === name) && !problems.some((p) => p.file.startsWith(`resources/${name}.`))) {
      problems.push({ file, pointer: '', message: `no resource file for entity "${name}"`, hint: `create resources/${name}.resource.json` });
    }
  }

  crossCheck(entities, enums, menus, problems);
  checkScopeHooks(root, entities, problems);
  if (!problems.length) problems.push(...listIndexProblems(entities));
  if (problems.length) throw new InvalidInputs(problems);
  return { entities, enums, dictionaries, menus };
}

/** An endpoint's body and answer with the resource file's `$defs` written in where they are named. */
function inlineEndpointSchemas(resource: Resource, file: string, problems: Problem[]) {
  const defs = (resource as { $defs?: Record<string, Record<string, unknown>> }).$defs ?? {};
  for (const [action, ep] of Object.entries(resource.endpoints)) {
    for (const part of ['body', 'answer'] as const) {
      const schema = ep[part];
      if (!schema || typeof schema !== 'object') continue;
      const missing = (name: string) => problems.push({ file, pointer: `/endpoints/${action}/${part}`, message: `"#/$defs/${name}" is not defined`, hint: 'define it under "$defs" of this file' });
      (ep as unknown as Record<string, unknown>)[part] = inlineDefs(schema, defs, missing);
    }
    if ((ep.body || ep.answer) && !ep.handler)
      problems.push({ file, pointer: `/endpoints/${action}`, message: 'a standard action has its own body and answer', hint: 'declare "body" and "answer" only on an endpoint with a "handler"' });
  }
}

/**
 * A server module that narrows its entity's rows (exports `scope`) is named by a "hook" scope, and a
 * "hook" scope names a module that does: otherwise the module's scope would be silently unused, or the
 * entity would show nothing. Read from the module's text, as the generator loads no server code.
 */
function checkScopeHooks(root: string, entities: Entity[], problems: Problem[]) {
  for (const { resource, resourceFile } of entities) {
    const file = resource.server && join(root, 'server', `${resource.server.module}.ts`);
    if (!file || !existsSync(file)) continue;
    const exportsScope = /^export (const|function) scope\b/m.test(readFileSync(file, 'utf8'));
    if (exportsScope && resource.scope !== 'hook') problems.push({ file: resourceFile, pointer: '/scope', message: `server/${resource.server!.module}.ts exports a scope, which "scope" does not use`, hint: 'declare "scope": "hook", or remove the module\'s scope' });
    if (!exportsScope && resource.scope === 'hook') problems.push({ file: resourceFile, pointer: '/scope', message: `server/${resource.server!.module}.ts exports no scope`, hint: 'export scope(query, user) from the module, or declare the scope here' });
  }
}

/** What the meta-schemas cannot see: names that must refer to something declared elsewhere. */
function crossCheck(entities: Entity[], enums: Model['enums'], menus: Menus, problems: Problem[]) {
  const paths = new Map<string, string>();
  const entityNames = new Set(entities.map((e) => e.name));
  const sections = new Set(menus.sections.map((s) => s.key));
  // Everything a button permission may sit under in the menu tree.
  const menuKeys = new Set([...sections, ...menus.pages.map((p) => p.key), ...entities.flatMap((e) => (e.resource.menu ? [e.resource.menu.key] : []))]);
  for (const { schema, resource, schemaFile: sf, resourceFile: rf } of entities) {
    const props = schema.properties;
    const has = (field: string) => field in props;
    const pk = Object.entries(props).filter(([, p]) => p['x-db']?.primaryKey);
    if (pk.length !== 1) problems.push({ file: sf, pointer: '/properties', message: 'exactly one property must be the primary key', hint: 'mark fId with "x-db": { "primaryKey": true }' });
    for (const field of schema.required ?? []) {
      if (!has(field)) problems.push({ file: sf, pointer: '/required', message: `required field "${field}" is not a property`, hint: 'add the property or remove it from required' });
      else if (!props[field]['x-messages']?.required) problems.push({ file: sf, pointer: `/properties/${field}/x-messages`, message: `required field "${field}" has no message`, hint: 'add "x-messages": { "required": { "zh-CN": …, "zh-TW": …, "en-US": … } }' });
    }
    for (const [name, p] of Object.entries(props)) {
      if (p['x-enum'] && !enums[p['x-enum']]) problems.push({ file: sf, pointer: `/properties/${name}/x-enum`, message: `unknown option list "${p['x-enum']}"`, hint: `declare it in schemas/enums.json (known: ${Object.keys(enums).join(', ')})` });
      else if (p['x-enum']) {
        // The console labels each value from the option list: a value without an entry would show as a bare number.
        const options = enums[p['x-enum']];
        (p.enum ?? []).forEach((v, i) => {
          if (!(String(v) in options)) problems.push({ file: sf, pointer: `/properties/${name}/enum/${i}`, message: `option ${JSON.stringify(v)} is not in the option list "${p['x-enum']}"`, hint: `add "${v}" with its three labels to "${p['x-enum']}" in schemas/enums.json (it has ${Object.keys(options).join(', ')})` });
        });
      }
      if (p['x-widget'] === 'image' && p.format !== 'picture' && p.format !== 'pictures') problems.push({ file: sf, pointer: `/properties/${name}/format`, message: `picture field "${name}" accepts any text`, hint: 'add "format": "picture" (or "pictures" for a comma list) so only an uploaded name or an http(s) address is stored' });
      if ((p.format === 'picture' || p.format === 'pictures') && p.type !== 'string') problems.push({ file: sf, pointer: `/properties/${name}/type`, message: `picture field "${name}" must be a string`, hint: 'use "type": "string"' });
      if (p['x-widget'] === 'richText' && p['x-format'] !== 'html') problems.push({ file: sf, pointer: `/properties/${name}/x-format`, message: `rich-text field "${name}" is not sanitised`, hint: 'add "x-format": "html" so the server cleans it on the way in and out' });
      if (p['x-format'] === 'html' && p.type !== 'string') problems.push({ file: sf, pointer: `/properties/${name}/type`, message: `html field "${name}" must be a string`, hint: 'use "type": "string"' });
      const refWhere = p['x-refWhere'];
      if (refWhere) {
        const target = entities.find((e) => e.name === p['x-ref']);
        if (!target) problems.push({ file: sf, pointer: `/properties/${name}/x-refWhere`, message: `"${name}" names rows of no entity ("x-ref" is ${p['x-ref'] ? `"${p['x-ref']}", unknown` : 'missing'})`, hint: 'give "x-ref" the referred entity' });
        else for (const k of Object.keys(refWhere)) if (!(k in target.schema.properties)) problems.push({ file: sf, pointer: `/properties/${name}/x-refWhere/${k}`, message: `"${k}" is not a property of ${target.name}`, hint: `known: ${Object.keys(target.schema.properties).join(', ')}` });
      }
      const renamedFrom = p['x-db']?.renamedFrom;
      if (renamedFrom && has(renamedFrom)) problems.push({ file: sf, pointer: `/properties/${name}/x-db/renamedFrom`, message: `"${renamedFrom}" is still a property, so "${name}" cannot be its new name`, hint: 'remove the old property when renaming it' });
      const ref = p['x-db']?.references;
      if (ref) {
        const target = entities.find((e) => e.name === ref.entity);
        if (!target) problems.push({ file: sf, pointer: `/properties/${name}/x-db/references/entity`, message: `unknown entity "${ref.entity}"`, hint: `known: ${[...entityNames].join(', ')}` });
        else if (p.type !== 'integer') problems.push({ file: sf, pointer: `/properties/${name}/type`, message: `"${name}" refers to ${ref.entity}'s integer key, so it must be an integer`, hint: 'a comma list of ids cannot be a foreign key: leave it without "references"' });
        if (ref.onDelete === 'setNull' && p['x-db']?.notNull) problems.push({ file: sf, pointer: `/properties/${name}/x-db/references/onDelete`, message: `"${name}" is notNull, so deleting the ${ref.entity} cannot empty it`, hint: 'use "restrict" or "cascade"' });
      }
      const notBefore = p['x-notBefore'];
      if (notBefore) {
        const dated = (q?: Property) => q?.format === 'date-time' || q?.format === 'date';
        if (!dated(p) || !dated(props[notBefore])) problems.push({ file: sf, pointer: `/properties/${name}/x-notBefore`, message: `"${name}" and "${notBefore}" must both be dates or date-times`, hint: 'name another property with "format": "date-time" or "date"' });
        if (!p['x-messages']?.notBefore) problems.push({ file: sf, pointer: `/properties/${name}/x-messages`, message: `"${name}" has no message for an end before its start`, hint: 'add "x-messages": { "notBefore": {…} }' });
      }
      if (p['x-db']?.unique && !p['x-messages']?.unique) problems.push({ file: sf, pointer: `/properties/${name}/x-messages`, message: `unique field "${name}" has no message`, hint: 'add "x-messages": { "unique": {…} }' });
    }
    for (const [rel, r] of Object.entries(schema['x-db'].relations ?? {})) {
      if (!entityNames.has(r.entity)) problems.push({ file: sf, pointer: `/x-db/relations/${rel}/entity`, message: `unknown entity "${r.entity}"`, hint: `known: ${[...entityNames].join(', ')}` });
      if (!has(r.from)) problems.push({ file: sf, pointer: `/x-db/relations/${rel}/from`, message: `"${r.from}" is not a property`, hint: 'name the foreign-key property' });
    }
    (schema['x-db'].dropColumns ?? []).forEach((f, i) => {
      if (has(f)) problems.push({ file: sf, pointer: `/x-db/dropColumns/${i}`, message: `"${f}" is a property and cannot be dropped`, hint: 'remove the property, or remove it from dropColumns' });
    });
    for (const index of schema['x-db'].indexes ?? []) {
      for (const f of indexFields(index)) if (!has(f)) problems.push({ file: sf, pointer: '/x-db/indexes', message: `index field "${f}" is not a property`, hint: 'use property names' });
    }
    (schema['x-db'].statistics ?? []).forEach((s, i) => {
      for (const f of s.columns) {
        if (!has(f)) problems.push({ file: sf, pointer: `/x-db/statistics/${i}/columns`, message: `statistics field "${f}" is not a property`, hint: 'use property names' });
        else if (props[f]['x-db']?.virtual) problems.push({ file: sf, pointer: `/x-db/statistics/${i}/columns`, message: `"${f}" is virtual (computed after reading) and has no column`, hint: 'name stored properties' });
      }
    });

    const fieldList = (list: string[] | undefined, pointer: string) =>
      (list ?? []).forEach((f, i) => {
        if (!has(f)) problems.push({ file: rf, pointer: `${pointer}/${i}`, message: `"${f}" is not a property of ${resource.entity}`, hint: `known: ${Object.keys(props).join(', ')}` });
      });
    fieldList(resource.list.columns, '/list/columns');
    fieldList(resource.form.fields, '/form/fields');
    fieldList(resource.form.readOnlyOnEdit, '/form/readOnlyOnEdit');
    fieldList(resource.form.adminOnly, '/form/adminOnly');
    fieldList(resource.list.sort?.allowed, '/list/sort/allowed');
    fieldList(resource.list.switches?.map((w) => w.field), '/list/switches');
    (resource.list.switches ?? []).forEach((w, i) => {
      if (!resource.endpoints[w.endpoint]) problems.push({ file: rf, pointer: `/list/switches/${i}/endpoint`, message: `"${w.endpoint}" is not an endpoint of the resource`, hint: `known: ${Object.keys(resource.endpoints).join(', ')}` });
    });
    if (resource.list.tree && !has(resource.list.tree.parent))
      problems.push({ file: rf, pointer: '/list/tree/parent', message: `"${resource.list.tree.parent}" is not a property of ${resource.entity}`, hint: 'name the property holding the parent id' });
    (resource.list.sort?.default ?? []).forEach((o, i) => {
      if (!has(o.column)) problems.push({ file: rf, pointer: `/list/sort/default/${i}/column`, message: `"${o.column}" is not a property`, hint: 'sort by a stored property' });
    });
    (resource.list.filters ?? []).forEach((filter, i) => {
      const rel = filter.relation ? schema['x-db'].relations?.[filter.relation] : undefined;
      if (filter.relation && !rel) {
        problems.push({ file: rf, pointer: `/list/filters/${i}/relation`, message: `"${filter.relation}" is not a relation of ${resource.entity}`, hint: `known: ${Object.keys(schema['x-db'].relations ?? {}).join(', ') || 'none (declare x-db.relations in the schema)'}` });
        return;
      }
      const target = rel ? entities.find((e) => e.name === rel.entity)?.schema.properties : props;
      for (const f of [filter.field, ...(filter.fields ?? []), ...Object.values(filter.selectBy?.fields ?? {})]) {
        if (f && target && !(f in target)) problems.push({ file: rf, pointer: `/list/filters/${i}`, message: `"${f}" is not a property${rel ? ` of ${rel.entity}` : ''}`, hint: 'filter on stored properties' });
        else if (f && target?.[f]?.['x-db']?.virtual) problems.push({ file: rf, pointer: `/list/filters/${i}`, message: `"${f}" is virtual (computed after reading) and cannot be filtered on`, hint: 'filter on a stored property' });
      }
    });
    if (resource.list.highlight && !has(resource.list.highlight.field)) problems.push({ file: rf, pointer: '/list/highlight/field', message: `"${resource.list.highlight.field}" is not a property`, hint: 'highlight by a property of the row' });
    checkLinks(entities, resource.list.links, resource.list.columns, has, (pointer, message, hint) => problems.push({ file: rf, pointer: `/list${pointer}`, message, hint }));
    checkVariants(entities, menus, resource, rf, has, problems);
    checkAccess(entities, { schema, resource }, rf, has, problems);
    for (const f of resource.form.fields) {
      if (props[f]?.readOnly) problems.push({ file: rf, pointer: '/form/fields', message: `"${f}" is readOnly in the schema and cannot be a form field`, hint: 'remove it from form.fields' });
    }

    for (const [action, ep] of Object.entries(resource.endpoints)) {
      const at = `/endpoints/${action}`;
      const prior = paths.get(ep.path);
      if (prior) problems.push({ file: rf, pointer: `${at}/path`, message: `path ${ep.path} is already served by ${prior}`, hint: 'each path is served once; to serve a standard action under a second legacy path, give that endpoint its own path and "as": "<action>"' });
      paths.set(ep.path, `${rf}${at}`);
      for (const code of endpointCodes(ep)) {
        if (!resource.permissions[code]) problems.push({ file: rf, pointer: `${at}/permission`, message: `permission "${code}" is not declared`, hint: 'declare it under "permissions" with its labels' });
      }
      const standard = (STANDARD_ACTIONS as readonly string[]).includes(ep.as ?? action);
      if (!standard && !ep.handler && !ep.set) problems.push({ file: rf, pointer: at, message: `"${action}" is not a standard action (${STANDARD_ACTIONS.join(', ')})`, hint: 'name a "handler" of the server module, or give "set"' });
      if (ep.handler && !resource.server) problems.push({ file: rf, pointer: `${at}/handler`, message: 'a handler needs a server module', hint: 'add "server": { "module": "<name>" }' });
      if ((ep.as ?? action) === 'status' && (!ep.field || !has(ep.field))) problems.push({ file: rf, pointer: `${at}/field`, message: 'status needs the field it sets', hint: 'e.g. "field": "fStatus"' });
      if (isWrite(action, ep) && !logName(schema['x-label'], action, ep)) problems.push({ file: rf, pointer: `${at}/log`, message: `"${action}" changes something and needs its operation-log name`, hint: 'add "log": { "zh-CN": …, "zh-TW": …, "en-US": … }' });
      for (const f of Object.keys(ep.set ?? {})) if (!has(f)) problems.push({ file: rf, pointer: `${at}/set`, message: `"${f}" is not a property`, hint: 'set stored properties' });
      if (ep.fields && ((ep.as ?? action) !== 'all' || ep.handler)) problems.push({ file: rf, pointer: `${at}/fields`, message: 'only the standard "all" call answers chosen fields', hint: 'remove "fields"' });
      (ep.fields ?? []).forEach((f, i) => {
        if (!has(f) || props[f]['x-db']?.virtual) problems.push({ file: rf, pointer: `${at}/fields/${i}`, message: `"${f}" is not a stored property of ${resource.entity}`, hint: 'name stored properties (relations and computed fields are not read)' });
      });
    }
    if (!resource.menu && !resource.list.variants && !resource.permissionsUnder) problems.push({ file: rf, pointer: '/permissionsUnder', message: 'an entity without a menu must say which page its permissions belong under', hint: `e.g. "permissionsUnder": "device" (known: ${[...menuKeys].join(', ')})` });
    if (resource.menu && resource.permissionsUnder) problems.push({ file: rf, pointer: '/permissionsUnder', message: 'an entity with a menu keeps its permissions under that menu', hint: 'remove "permissionsUnder"' });
    if (resource.permissionsUnder && !menuKeys.has(resource.permissionsUnder)) problems.push({ file: rf, pointer: '/permissionsUnder', message: `unknown menu "${resource.permissionsUnder}"`, hint: `known: ${[...menuKeys].join(', ')}` });
    if (resource.menu?.parent && !sections.has(resource.menu.parent)) problems.push({ file: rf, pointer: '/menu/parent', message: `unknown menu section "${resource.menu.parent}"`, hint: `declare it in resources/menus.json (known: ${[...sections].join(', ')})` });
  }
}

/** Links name shown columns and row fields, and a code some resource declares (the profile's is the intelligence pages'). */
function checkLinks(entities: Entity[], links: Record<string, Link> | undefined, columns: string[], has: (f: string) => boolean, push: (pointer: string, message: string, hint: string) => void) {
  for (const [c, link] of Object.entries(links ?? {})) {
    if (!columns.includes(c)) push(`/links/${c}`, `"${c}" is not a column of this list`, 'link a shown column');
    if (!has(link.idField)) push(`/links/${c}/idField`, `"${link.idField}" is not a property`, 'name the row field identifying what the link opens');
    if (!entities.some((e) => e.resource.permissions[link.permission])) push(`/links/${c}/permission`, `permission "${link.permission}" is not declared`, 'declare it under "permissions" of the resource it belongs to, with its labels');
  }
}

/** Each variant is a page of its own: its name, menu key and code must be unique, and what it names must exist. */
/**
 * The declared scope names stored columns, an entity with personal fields says who sees them in full,
 * and a variant is decided from one place that exists.
 */
function checkAccess(entities: Entity[], entity: Pick<Entity, 'schema' | 'resource'>, rf: string, has: (f: string) => boolean, problems: Problem[]) {
  const { resource, schema } = entity;
  const push = (pointer: string, message: string, hint: string) => problems.push({ file: rf, pointer, message, hint });
  const stored = (f: string) => has(f) && !schema.properties[f]['x-db']?.virtual;
  const scope = resource.scope;
  if (scope === undefined) push('/scope', 'every entity declares which rows a caller may see', 'add "scope": "everyone" | "administrator" | "hook" | { "owner": column, "jurisdiction": "self" | house column, "renting": user column }');
  else if (typeof scope === 'object') {
    for (const [k, column] of Object.entries(scope)) {
      if (k === 'jurisdiction' && column === 'self') {
        if (!stored('fAreaId') || !stored('fStreetId')) push('/scope/jurisdiction', '"self" needs the row\'s own fAreaId and fStreetId', 'name the column holding the row\'s rental house instead');
      } else if (!stored(column)) push(`/scope/${k}`, `"${column}" is not a stored property of ${resource.entity}`, 'name the column the scope reads');
    }
  } else if (scope === 'hook' && !resource.server) push('/scope', 'a hook scope needs a server module', 'add "server": { "module": "<name>" } exporting scope');
  const masked = Object.entries(schema.properties).filter(([, p]) => p['x-mask']).map(([n]) => n);
  if (resource.unmask && !entities.some((e) => e.resource.permissions[resource.unmask!])) push('/unmask', `permission "${resource.unmask}" is not declared`, 'declare it under "permissions" of some resource');
  if (resource.unmask && !masked.length) push('/unmask', 'the schema has no x-mask field to show in full', 'remove "unmask"');
  for (const [action, ep] of Object.entries(resource.endpoints)) {
    const v = ep.variantBy;
    if (!v) continue;
    const at = `/endpoints/${action}/variantBy`;
    if (v.in === 'body') {
      if (!v.keys || v.key || v.values) push(at, 'a body variant names its groups of keys only', 'give "keys": [{ "name", "keys", "permission" }, …]');
    } else {
      if (!v.key || !v.values || v.keys) push(at, `a ${v.in} variant names its key and the code of each value`, 'give "key" and "values"');
      if (v.in === 'row' && v.key && !stored(v.key)) push(`${at}/key`, `"${v.key}" is not a stored property of ${resource.entity}`, 'the stored row decides: name its column');
    }
  }
}

function checkVariants(entities: Entity[], menus: Menus, resource: Resource, rf: string, has: (f: string) => boolean, problems: Problem[]) {
  const filterKeys = new Set((resource.list.filters ?? []).map((f) => f.key));
  const sections = new Set(menus.sections.map((s) => s.key));
  const entityNames = new Set(entities.map((e) => e.name));
  const menuKeys = new Map<string, string>();
  for (const e of entities) {
    if (e.resource.menu) menuKeys.set(e.resource.menu.key, e.resourceFile);
    for (const [n, v] of Object.entries(e.resource.list.variants ?? {})) if (e.resource !== resource) menuKeys.set(v.menu.key, `${e.resourceFile} (variant ${n})`);
  }
  for (const p of menus.pages) menuKeys.set(p.key, 'resources/menus.json');
  const seenHere = new Set<string>();
  for (const [name, v] of Object.entries(resource.list.variants ?? {})) {
    const at = `/list/variants/${name}`;
    const push = (pointer: string, message: string, hint: string) => problems.push({ file: rf, pointer: `${at}${pointer}`, message, hint });
    if (entityNames.has(name)) push('', `variant "${name}" has the name of an entity`, 'a variant is a page at /<name>; choose a name no entity has');
    for (const other of entities) if (other.resource !== resource && other.resource.list.variants?.[name]) push('', `variant "${name}" is also declared by ${other.resourceFile}`, 'variant names are page paths and must be unique');
    const prior = menuKeys.get(v.menu.key);
    if (prior || seenHere.has(v.menu.key)) push('/menu/key', `menu key "${v.menu.key}" is already used${prior ? ` by ${prior}` : ' by another variant'}`, 'give each variant its own menu key');
    seenHere.add(v.menu.key);
    if (v.menu.parent && !sections.has(v.menu.parent)) push('/menu/parent', `unknown menu section "${v.menu.parent}"`, `declare it in resources/menus.json (known: ${[...sections].join(', ')})`);
    if (!resource.permissions[v.permission]) push('/permission', `permission "${v.permission}" is not declared`, 'declare it under "permissions" with its labels');
    (v.columns ?? []).forEach((c, i) => {
      if (!has(c)) push(`/columns/${i}`, `"${c}" is not a property of ${resource.entity}`, 'columns are properties (virtual ones too)');
    });
    (v.filters ?? []).forEach((k, i) => {
      if (!filterKeys.has(k)) push(`/filters/${i}`, `"${k}" is not a filter key of this list`, `declare it in list.filters (known: ${[...filterKeys].join(', ')})`);
    });
    for (const k of Object.keys(v.condition ?? {})) if (!filterKeys.has(k)) push(`/condition/${k}`, `"${k}" is not a filter key of this list`, 'a default condition sets a declared filter');
    const columns = v.columns ?? resource.list.columns;
    checkLinks(entities, v.links, columns, has, push);
    for (const c of Object.keys(v.placeholders ?? {})) if (!columns.includes(c)) push(`/placeholders/${c}`, `"${c}" is not a column of this variant`, 'a placeholder fills a shown column');
    for (const [action, code] of Object.entries(v.permissions ?? {})) {
      if (!resource.endpoints[action]) push(`/permissions/${action}`, `"${action}" is not an endpoint of the resource`, `known: ${Object.keys(resource.endpoints).join(', ')}`);
      if (!resource.permissions[code]) push(`/permissions/${action}`, `permission "${code}" is not declared`, 'declare it under "permissions" with its labels');
    }
    if (v.permissions && !variantKey(resource, v)) push('/condition', 'a variant with its own codes must fix one value of an eq filter on a field', 'e.g. "condition": { "type": 4 } with the filter { "key": "type", "op": "eq", "field": "fType" }');
    if (v.endpoint) {
      const ep = resource.endpoints[v.endpoint];
      if (!ep) push('/endpoint', `"${v.endpoint}" is not an endpoint of ${resource.entity}`, `known: ${Object.keys(resource.endpoints).join(', ')}`);
      else if ((ep.as ?? v.endpoint) !== 'list') push('/endpoint', `endpoint "${v.endpoint}" does not serve a list`, 'name an endpoint with "as": "list"');
    }
  }
}

/**
 * The field and value a variant's condition fixes through an `eq` filter on a field (a document list's
 * type): the server reads that field of a row to know which variant's codes apply to it.
 */
export function variantKey(resource: Resource, v: Variant): { key: string; field: string; value: string } | undefined {
  for (const [key, raw] of Object.entries(v.condition ?? {})) {
    const filter = resource.list.filters?.find((f) => f.key === key);
    const value = Array.isArray(raw) ? (raw.length === 1 ? raw[0] : undefined) : raw;
    if (filter?.op === 'eq' && filter.field && value !== undefined && value !== null && typeof value !== 'object') return { key, field: filter.field, value: String(value) };
  }
  return undefined;
}

/** Property name -> column name, the same mapping Kysely's CamelCasePlugin applies at run time. */
export function columnName(property: string): string {
  return property.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
}

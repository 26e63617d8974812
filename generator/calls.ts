/**
 * Calls by name: every call of the API is named — an entity's endpoint `<entity>.<action>` (its resource
 * file), or a call that belongs to no entity `<domain>.<call>`, declared in `resources/calls/<domain>.json`
 * (meta-schema generator/meta/calls.meta.json). Checked here against each other and against the resource
 * files (a well-formed name, one name per call, one call per path and method, codes that are declared),
 * and emitted as:
 *
 * - `contract/generated/calls.ts`: name → path, methods and kind, which the server registers by name
 *   (server/http/route.ts) and the console's data provider calls by name (adapters/dataProvider.ts);
 * - `server/generated/calls.ts`: what the declaration says beyond the path of a call outside the
 *   entities (its code, body and answer schemas, summary), which registering it by name takes;
 * - `adapters/generated/callTypes.ts`: each call's request and answer types for the console's client.
 *
 * The server checks at start that it registered every declared call (server/http/calls.ts).
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { InvalidInputs, STANDARD_ACTIONS, endpointCodes, type I18n, type Model, type Problem } from './model';
import { tsHeader, literal } from './emit/common';
import { inlineDefs } from './callSchemas';

export const CALLS_DIR = 'resources/calls';

export type Method = 'GET' | 'POST';
export type CallKind = 'json' | 'upload' | 'file' | 'address' | 'stream';
type Schema = Record<string, unknown>;

/** One call of resources/calls/<domain>.json. */
export interface CallDecl {
  path: string;
  methods?: Method[];
  kind?: CallKind;
  permission?: string | string[] | null;
  public?: boolean;
  summary?: I18n;
  /** A write's name in the operation log: its stored key and its words. */
  log?: I18n & { key: string };
  body?: Schema;
  answer?: Schema;
  description?: string;
}

/** A named call: declared in a calls file, or an entity's endpoint. */
export interface NamedCall {
  name: string;
  file: string;
  pointer: string;
  path: string;
  methods: Method[];
  kind: CallKind;
  /** Declared in resources/calls/ (registered by a hand-written server module). */
  decl?: CallDecl;
  /** An entity's endpoint. */
  entity?: string;
  action?: string;
}

export const NAME = /^[a-z][a-zA-Z0-9]*\.[a-z][a-zA-Z0-9]*$/;
const FILE = /^([a-z][a-zA-Z0-9]*)\.json$/;

function metaValidator() {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const meta = join(import.meta.dirname, 'meta');
  ajv.addSchema(JSON.parse(readFileSync(join(meta, 'i18n.meta.json'), 'utf8')));
  return ajv.compile(JSON.parse(readFileSync(join(meta, 'calls.meta.json'), 'utf8')));
}

/** Every code a resource, a list variant or a menu declares: the codes a call may ask for. */
function declaredCodes(model: Model): Set<string> {
  const codes = new Set<string>();
  for (const { resource } of model.entities) {
    for (const code of Object.keys(resource.permissions)) codes.add(code);
    for (const v of Object.values(resource.list.variants ?? {})) codes.add(v.permission);
    if (resource.menu?.permission) codes.add(resource.menu.permission);
    for (const ep of Object.values(resource.endpoints)) for (const c of endpointCodes(ep)) codes.add(c);
  }
  for (const s of model.menus.sections) codes.add(s.key);
  for (const p of model.menus.pages) codes.add(p.permission ?? p.key);
  return codes;
}

/** Reads resources/calls/ and names every entity endpoint; throws InvalidInputs listing every problem. */
export function loadCalls(root: string, model: Model): NamedCall[] {
  const problems: Problem[] = [];
  const calls: NamedCall[] = [];
  for (const { name, resource, resourceFile } of model.entities) {
    for (const [action, ep] of Object.entries(resource.endpoints)) {
      calls.push({ name: `${name}.${action}`, file: resourceFile, pointer: `/endpoints/${action}`, path: ep.path, methods: ep.method === 'GET' ? ['GET', 'POST'] : ['POST'], kind: 'json', entity: name, action });
    }
  }
  const dir = join(root, CALLS_DIR);
  const validate = metaValidator();
  const codes = declaredCodes(model);
  const entityNames = new Set(model.entities.map((e) => e.name));
  for (const f of existsSync(dir) ? readdirSync(dir).sort() : []) {
    const file = `${CALLS_DIR}/${f}`;
    const domain = FILE.exec(f)?.[1];
    if (!domain) {
      problems.push({ file, pointer: '', message: 'not a calls file', hint: 'name it <domain>.json, the domain in lowerCamelCase (device.json, session.json)' });
      continue;
    }
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    } catch (e) {
      problems.push({ file, pointer: '', message: `not valid JSON: ${(e as Error).message}`, hint: 'fix the JSON syntax' });
      continue;
    }
    if (!validate(data)) {
      for (const e of validate.errors ?? []) problems.push({ file, pointer: e.instancePath || '/', message: e.message ?? 'invalid', hint: 'see "Calls outside the entities" in docs/generator.md' });
      continue;
    }
    const defs = (data as { $defs?: Record<string, Schema> }).$defs ?? {};
    for (const [key, declared] of Object.entries((data as { calls: Record<string, CallDecl> }).calls)) {
      const pointer = `/calls/${key}`;
      const push = (at: string, message: string, hint: string) => problems.push({ file, pointer: pointer + at, message, hint });
      const decl: CallDecl = { ...declared };
      for (const part of ['body', 'answer'] as const) {
        if (declared[part]) decl[part] = inlineDefs(declared[part], defs, (name) => push(`/${part}`, `"#/$defs/${name}" is not defined`, 'define it under "$defs" of this file')) as Schema;
      }
      const name = `${domain}.${key}`;
      const kind = decl.kind ?? 'json';
      const methods = decl.methods ?? (kind === 'address' || kind === 'stream' ? ['GET'] : ['POST']);
      if (entityNames.has(domain) && (model.entities.find((e) => e.name === domain)!.resource.endpoints[key] || (STANDARD_ACTIONS as readonly string[]).includes(key)))
        push('', `"${name}" names an action of the entity "${domain}"`, `name it otherwise, or declare it as an endpoint of resources/${domain}.resource.json`);
      if ((kind === 'address' || kind === 'stream') && methods.some((m) => m !== 'GET')) push('/methods', `a call of kind "${kind}" is opened by the browser with GET`, 'give "methods": ["GET"] or leave them out');
      if (decl.public && decl.permission !== undefined && decl.permission !== null) push('/permission', 'a public call asks for no code', 'remove "permission", or "public"');
      const asked = decl.permission === undefined || decl.permission === null ? [] : [decl.permission].flat();
      for (const code of asked) if (!codes.has(code)) push('/permission', `permission "${code}" is declared by no resource or menu`, 'declare it under "permissions" of the resource whose screen uses it');
      if (/\{/.test(decl.path) && !['address', 'file'].includes(kind)) push('/path', 'only an address or a file names a parameter in its path', 'send the value in the body');
      calls.push({ name, file, pointer, path: decl.path, methods, kind, decl });
    }
  }
  const byName = new Map<string, NamedCall>();
  const byRoute = new Map<string, NamedCall>();
  for (const call of calls) {
    if (!NAME.test(call.name)) problems.push({ file: call.file, pointer: call.pointer, message: `"${call.name}" is not a well-formed call name`, hint: 'a name is <entity or domain>.<action>, both lowerCamelCase' });
    const prior = byName.get(call.name);
    if (prior) problems.push({ file: call.file, pointer: call.pointer, message: `the name "${call.name}" is already taken by ${prior.file} at ${prior.pointer}`, hint: 'each call has its own name' });
    byName.set(call.name, call);
    for (const method of call.methods) {
      const key = `${method} ${call.path.replace(/\{[^}]+\}/g, '{}')}`;
      const other = byRoute.get(key);
      if (other && other.file !== call.file) problems.push({ file: call.file, pointer: `${call.pointer}/path`, message: `${method} ${call.path} is already the call "${other.name}" (${other.file})`, hint: 'a path and method is one call: use that name' });
      else if (other) problems.push({ file: call.file, pointer: `${call.pointer}/path`, message: `${method} ${call.path} is already the call "${other.name}"`, hint: 'a path and method is one call: use that name' });
      byRoute.set(key, call);
    }
  }
  if (problems.length) throw new InvalidInputs(problems);
  return calls;
}

const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);
const ENTITY_REF = /^#\/components\/schemas\/([a-zA-Z0-9]+)$/;
const ENTITY_FIELD_REF = /^#\/components\/schemas\/([a-zA-Z0-9]+)\/properties\/([A-Za-z0-9_]+)$/;

/**
 * The TypeScript type of a JSON Schema, for the subset the declarations use. An answer's objects are
 * closed (`open` false): the console reads what the declaration names, and a property it needs is declared.
 */
export function typeOf(schema: Schema | undefined, entities: Set<string>, open = true): string {
  const of = (s: Schema | undefined) => typeOf(s, entities, open);
  if (!schema || Object.keys(schema).filter((k) => k !== 'description' && !k.startsWith('x-')).length === 0) return 'unknown';
  if (typeof schema.$ref === 'string') {
    const entity = ENTITY_REF.exec(schema.$ref)?.[1];
    if (entity && entities.has(entity)) return `T.${pascal(entity)}`;
    if (entity === 'Reason') return 'Reason';
    const field = ENTITY_FIELD_REF.exec(schema.$ref);
    return field && entities.has(field[1]) ? `T.${pascal(field[1])}[${JSON.stringify(field[2])}]` : 'unknown';
  }
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  // An object whose alternatives only say which of its properties is required is that object.
  const combined = ['anyOf', 'oneOf', 'allOf'].some((k) => Array.isArray(schema[k]));
  const own = combined && (schema.type || schema.properties) ? typeOf(Object.fromEntries(Object.entries(schema).filter(([k]) => !['anyOf', 'oneOf', 'allOf'].includes(k))), entities, open) : undefined;
  const requiredOnly = (list: Schema[]) => list.every((s) => Object.keys(s).every((k) => k === 'required' || k === 'description'));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key] as Schema[] | undefined;
    if (!Array.isArray(list)) continue;
    if (own && requiredOnly(list)) return own;
    const union = list.map((s) => `(${of(s)})`).join(' | ');
    return own ? `(${own}) & (${union})` : union;
  }
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as Schema[]).map((s) => `(${of(s)})`);
    return [...(own ? [`(${own})`] : []), ...parts].join(' & ');
  }
  const types = [schema.type ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined)].flat().filter(Boolean) as string[];
  if (!types.length) return 'unknown';
  return types
    .map((t) => {
      switch (t) {
        case 'string':
          return 'string';
        case 'integer':
        case 'number':
          return 'number';
        case 'boolean':
          return 'boolean';
        case 'null':
          return 'null';
        case 'array':
          return `Array<${of(schema.items as Schema | undefined)}>`;
        case 'object': {
          const props = (schema.properties ?? {}) as Record<string, Schema>;
          const required = new Set((schema.required as string[] | undefined) ?? []);
          const fields = Object.entries(props).map(([k, s]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}${required.has(k) ? '' : '?'}: ${of(s)}`);
          const extra = schema.additionalProperties;
          if (extra && typeof extra === 'object') fields.push(`[key: string]: ${of(extra as Schema)}`);
          else if (extra !== false && (open || !fields.length)) fields.push('[key: string]: unknown');
          return `{ ${fields.join('; ')} }`;
        }
        default:
          return 'unknown';
      }
    })
    .join(' | ');
}

/** What a call of a kind other than json answers the console: the file itself, or the event stream. */
const KIND_ANSWERS: Partial<Record<CallKind, string>> = { file: 'Download', address: 'Download', stream: 'EventStream' };

/** An address's or file's path parameters (`/api/upload/{name}`), which the caller fills. */
function pathParams(path: string): string | undefined {
  const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  return names.length ? `{ ${names.map((n) => `${n}: string | number`).join('; ')} }` : undefined;
}

/** A declared call's request and answer: its `body` and `answer`, or what its kind answers. */
function declaredTypes(call: NamedCall, entities: Set<string>): { body: string; answer: string } {
  const { body, answer } = call.decl!;
  return {
    body: body ? typeOf(body, entities) : (pathParams(call.path) ?? 'Body'),
    answer: answer ? typeOf(answer, entities, false) : (KIND_ANSWERS[call.kind] ?? 'unknown'),
  };
}

const STANDARD_BODIES = new Set(['list', 'all', 'get', 'save']);

/**
 * An entity endpoint's request and answer: its standard action's, unless its endpoint declares them (a
 * handler's `body` and `answer`; `"body": "list"` / `"save"` a handler taking the standard request).
 */
function entityTypes(call: NamedCall, model: Model, entities: Set<string>): { body: string; answer: string } {
  const entity = model.entities.find((e) => e.name === call.entity)!;
  const ep = entity.resource.endpoints[call.action!];
  const row = `T.${pascal(entity.name)}`;
  const declared = ep.answer ? typeOf(ep.answer, entities, false) : undefined;
  if (ep.set) return { body: 'KeyBody', answer: 'null' };
  const standard = ep.handler && !STANDARD_BODIES.has(ep.as ?? call.action!) ? (typeof ep.body === 'string' ? ep.body : undefined) : (ep.as ?? call.action);
  if (ep.handler && !standard) return { body: ep.body ? typeOf(ep.body as Schema, entities) : 'Body', answer: declared ?? 'unknown' };
  switch (standard) {
    case 'list':
      return { body: 'PageRequest', answer: declared ?? `Page<${row}>` };
    case 'get':
      return { body: 'KeyBody', answer: declared ?? row };
    case 'all':
      // An `all` naming its fields answers each row with those, every one present (the document's `required`).
      return { body: 'Body', answer: declared ?? (ep.fields ? `Array<Required<Pick<${row}, ${ep.fields.map((f) => JSON.stringify(f)).join(' | ')}>>>` : `${row}[]`) };
    case 'save':
      return { body: `Writable<${row}> & Body`, answer: declared ?? `${row} | null` };
    default:
      return { body: 'KeyBody', answer: declared ?? 'null' };
  }
}

export function emitCalls(root: string, model: Model): Record<string, string> {
  const calls = loadCalls(root, model);
  const entities = new Set(model.entities.map((e) => e.name));
  const table = calls.map((c) => `  ${JSON.stringify(c.name)}: { path: ${JSON.stringify(c.path)}, methods: ${JSON.stringify(c.methods)}${c.kind !== 'json' ? `, kind: ${JSON.stringify(c.kind)}` : ''} },`);
  const declared = calls.filter((c) => c.decl);
  const contract = `${tsHeader}/**
 * Every call of the API by name (docs/architecture.md, "How to add… a call"): an entity's endpoint
 * \`<entity>.<action>\` (resources/<entity>.resource.json) or a call of resources/calls/<domain>.json. The
 * server registers each by its name (server/http/route.ts); the console calls each by its name
 * (adapters/dataProvider.ts). A path's \`{name}\` segment is a parameter the caller fills.
 */
export type CallMethod = 'GET' | 'POST';
/** json: the envelope; upload: a multipart file, answered with the envelope; file: a download; address: opened by the browser; stream: server-sent events. */
export type CallKind = 'json' | 'upload' | 'file' | 'address' | 'stream';
export interface CallRoute {
  readonly path: string;
  readonly methods: readonly CallMethod[];
  readonly kind?: CallKind;
}

export const calls = {
${table.join('\n')}
} as const satisfies Record<string, CallRoute>;

export type CallName = keyof typeof calls;

/** The calls of resources/calls/, which hand-written server modules register: the server checks at start that it registered each. */
export const declaredCalls = ${literal(declared.map((c) => c.name))} as const satisfies readonly CallName[];

export type DeclaredCallName = (typeof declaredCalls)[number];
`;
  const facts: Record<string, Record<string, unknown>> = {};
  for (const c of declared) {
    const { permission, public: isPublic, summary, log, body, answer } = c.decl!;
    const entry = { ...(permission !== undefined ? { permission } : {}), ...(isPublic ? { public: true } : {}), ...(summary ? { summary } : {}), ...(log ? { logname: log } : {}), ...(body ? { body } : {}), ...(answer ? { data: answer } : {}) };
    if (Object.keys(entry).length) facts[c.name] = entry;
  }
  const server = `${tsHeader}/**
 * What resources/calls/ declares of a call beyond its path (contract/generated/calls.ts): the code(s) it
 * needs (null: any signed-in user), whether it is public, its summary, and the JSON Schemas of its body
 * and of the answer's \`data\`. Registering the call by name takes these (server/http/route.ts); the
 * module that registers it gives what is not declared here.
 */
import type { DeclaredCallName } from '../../contract/generated/calls';

export interface DeclaredFacts {
  permission?: string | string[] | null;
  public?: boolean;
  summary?: { 'zh-CN': string; 'zh-TW': string; 'en-US': string };
  logname?: { key: string; 'zh-CN': string; 'zh-TW': string; 'en-US': string };
  body?: Record<string, unknown>;
  data?: Record<string, unknown>;
}

export const declaredFacts: Partial<Record<DeclaredCallName, DeclaredFacts>> = ${literal(facts)};
`;
  const types = calls.map((c) => {
    const t = c.entity ? entityTypes(c, model, entities) : declaredTypes(c, entities);
    return `  ${JSON.stringify(c.name)}: { body: ${t.body}; answer: ${t.answer} };`;
  });
  const console = `${tsHeader}/**
 * The request and answer (the envelope's \`data\`) of every call by name, for the console's client
 * (adapters/dataProvider.ts \`call\`): an entity endpoint's from its standard action, a declared call's
 * from its \`body\` and \`answer\` (resources/calls/), a handler's from its endpoint's. A file's answer is
 * the file (\`Download\`), the event stream's the stream.
 */
import type * as T from './types';
import type { AnsweredReason } from '../../contract/reasons';

/** What a call answering a file (a download, an address the browser opens) gives: the file. */
export type Download = Blob;
/** Why, by a code of the catalogue: its parameters and its text in the caller's language (the document's \`Reason\`). */
export type Reason = AnsweredReason;
/** What the event stream answers: server-sent events, read with EventSource (app/platform/events.ts). */
export interface EventStream { readonly stream: 'text/event-stream' }

/** A body the declaration does not describe. */
export type Body = Record<string, unknown> | unknown[];
/** The fields a save sends: any of the row's, each may be emptied. */
export type Writable<R> = { [K in keyof R]?: R[K] | null };
/** A call naming one row. */
export interface KeyBody { fId?: number | string; [key: string]: unknown }
export interface PageRequest {
  current?: number;
  size?: number;
  condition?: Record<string, unknown>;
  orders?: { column: string; asc: boolean }[];
  [key: string]: unknown;
}
export interface Page<R> {
  records: R[];
  total: number;
  current?: number;
  size?: number;
  pages?: number;
}

export interface CallTypes {
${types.join('\n')}
}
`;
  return {
    'contract/generated/calls.ts': contract,
    'server/generated/calls.ts': server,
    'adapters/generated/callTypes.ts': console,
  };
}

/**
 * The catalog of every call the server answers: each `registerCall` adds its declaration (path,
 * permission codes, body and answer schemas, log name) and routes outside it (file downloads, the event
 * stream, health) add theirs with `describeRoute`. The OpenAPI document is built from it, and a call's
 * declared body is also what its requests are checked against, so the document cannot drift from the
 * server.
 */
import { Refusal, refuse, reason, type Reason } from './envelope';
import type { ReasonCode } from '../../contract/generated/reasons';
import type { CallDef, JsonSchema } from './call';
import { MAX_PATTERN } from '../crud/query';
import { bodyLimitOf } from './bodyLimit';
import { schemaChecker } from './schemas';

export type { JsonSchema };

/** Sort columns one list call may name (a list has a handful of sortable columns). */
export const MAX_ORDERS = 16;

export interface CatalogEntry {
  path: string;
  methods: string[];
  /** null: any signed-in user (or anyone, when public). */
  codes: string[] | null;
  public: boolean;
  write: boolean;
  summary?: { 'zh-CN': string; 'zh-TW': string; 'en-US': string };
  tag?: string;
  body?: JsonSchema;
  upload?: CallDef['upload'];
  data?: JsonSchema;
  produces?: string;
  perMinute?: number;
  perAccountPerMinute?: number;
  bodyLimit?: number;
  /** The codes the call can answer beyond those every call can (server/generated/reasons.ts). */
  reasons?: readonly string[];
  /** A route answering outside the envelope (a page, a stream), described by hand. */
  raw?: boolean;
  /** What such a route answers: its media type, schema and (for a redirect) HTTP status. */
  answer?: { type?: string; schema?: JsonSchema; status?: number; description: string };
}

export type ApiCatalog = CatalogEntry[];

export function catalogCall(catalog: ApiCatalog, def: CallDef, reasons?: readonly string[]) {
  const codes = def.permission === null ? null : typeof def.permission === 'string' ? [def.permission] : Array.isArray(def.permission) ? def.permission : def.codes!;
  const { key: _key, ...logname } = def.logname ?? { key: '' };
  catalog.push({
    path: def.path,
    methods: def.methods ?? ['POST'],
    codes,
    public: Boolean(def.public),
    write: Boolean(def.write),
    summary: def.summary ?? (def.logname ? (logname as CatalogEntry['summary']) : undefined),
    tag: def.tag,
    body: def.body,
    upload: def.upload,
    data: def.data,
    produces: def.produces,
    perMinute: def.perMinute,
    perAccountPerMinute: def.perAccountPerMinute,
    bodyLimit: bodyLimitOf(def),
    ...(reasons ? { reasons } : {}),
  });
}

/** A route registered without `registerCall` (a file, a stream, a page) still appears in the document. */
export function describeRoute(catalog: ApiCatalog, entry: Omit<CatalogEntry, 'write' | 'raw'> & { write?: boolean } & ({ answer: NonNullable<CatalogEntry['answer']> } | { produces: string })) {
  catalog.push({ write: false, raw: true, ...entry });
}

// Loose on purpose: the legacy console sends numbers as strings here and there, and the schemas say so
// with type unions rather than by silent coercion.
const validator = schemaChecker({ allErrors: false, strict: false, verbose: true });

/** A call schema's `x-message(s)`: a code of the catalogue, or a code with its parameters. */
export type Words = ReasonCode | Reason;

/** The reason a schema's words name. */
function reasonOf(words: Words): Reason {
  return typeof words === 'string' ? { code: words, params: {} } : words;
}

/** Refuses a body its declared schema does not accept, with the failing property's `x-message` when it has one. */
export function checkBody(def: Pick<CallDef, 'body'>, body: unknown) {
  const validate = validator(def.body!);
  if (validate(body)) return;
  // Of the alternatives a schema offers (rows as an array or wrapped in an object), the error found
  // deepest in the body says best what is wrong with it.
  const error = validate.errors!.reduce((best, e) => (e.instancePath.split('/').length > best.instancePath.split('/').length ? e : best));
  const missing = error.keyword === 'required' ? String((error.params as { missingProperty: string }).missingProperty) : null;
  const parent = error.parentSchema as JsonSchema | undefined;
  const schema = missing ? (parent?.properties as Record<string, JsonSchema> | undefined)?.[missing] : parent;
  const words = (schema?.['x-messages'] as Record<string, Words> | undefined)?.[error.keyword] ?? (schema?.['x-message'] as Words | undefined);
  if (words) {
    throw new Refusal(reasonOf(words));
  }
  // A property the call does not take is named, as a missing one is.
  const extra = error.keyword === 'additionalProperties' ? String((error.params as { additionalProperty: string }).additionalProperty) : null;
  const field = missing ?? [...error.instancePath.split('/').filter(Boolean), ...(extra ? [extra] : [])].join('.');
  throw field ? refuse('request.malformedField', { field }) : refuse('request.malformed');
}

/** Builders for the common shapes, so the declarations stay short. */
export const S = {
  object: (properties: Record<string, JsonSchema>, required: string[] = [], extra: JsonSchema = {}): JsonSchema => ({ type: 'object', properties, ...(required.length ? { required } : {}), ...extra }),
  /**
   * The body of a call that takes nothing and acts at once (logout, a ticket): any property, in the body
   * or the query, is refused before it acts, so a malformed request has no effect.
   */
  nothing: (): JsonSchema => ({ type: 'object', properties: {}, additionalProperties: false }),
  /** An id as the legacy console sends it: a number, or its digits as a string. */
  id: (description?: string): JsonSchema => ({ type: ['integer', 'string', 'null'], ...(description ? { description } : {}) }),
  ids: (description?: string): JsonSchema => ({ type: ['array', 'string', 'integer'], items: { type: ['integer', 'string'] }, ...(description ? { description } : {}) }),
  string: (maxLength?: number, description?: string): JsonSchema => ({ type: ['string', 'null'], ...(maxLength ? { maxLength } : {}), ...(description ? { description } : {}) }),
  /** A search text: as long as the list queries allow (crud/query.ts), with their message. */
  keyword: (description?: string): JsonSchema => ({ type: ['string', 'number', 'null'], maxLength: MAX_PATTERN, 'x-messages': { maxLength: reason('query.tooLong', { max: MAX_PATTERN }) }, ...(description ? { description } : {}) }),
  number: (description?: string): JsonSchema => ({ type: ['number', 'string', 'null'], ...(description ? { description } : {}) }),
  bool: (description?: string): JsonSchema => ({ type: ['boolean', 'integer', 'string', 'null'], ...(description ? { description } : {}) }),
  any: (description?: string): JsonSchema => (description ? { description } : {}),
  array: (items: JsonSchema = {}, description?: string): JsonSchema => ({ type: 'array', items, ...(description ? { description } : {}) }),
  /**
   * Rows saved at once: a JSON array of them, or (the legacy form) an object that holds them under one of
   * `keys` (`{ items: [...] }`), beside the properties `beside` names (e.g. the product an emptied list
   * belongs to). `or`: other bodies the call takes instead of rows; `message`: the refusal's words when
   * the rows are not a list.
   */
  rows: (row: JsonSchema, wrapped: { keys?: string[]; beside?: Record<string, JsonSchema>; or?: JsonSchema[]; message?: string } = {}): JsonSchema => {
    const keys = wrapped.keys ?? ['items', 'list', 'records'];
    const list: JsonSchema = { type: 'array', items: row, ...(wrapped.message ? { 'x-messages': { type: wrapped.message } } : {}) };
    return {
      anyOf: [
        { ...list, description: 'the rows' },
        {
          type: 'object',
          description: `the rows wrapped: { ${keys.map((k) => `${k}: [...]`).join(' } or { ')} }`,
          properties: { ...Object.fromEntries(keys.map((k) => [k, list])), ...wrapped.beside },
          anyOf: keys.map((k) => ({ required: [k] })),
        },
        ...(wrapped.or ?? []),
      ],
    };
  },
  /** The paged-list request every list call takes; `beside`: what a call also reads outside the condition. */
  page: (condition: Record<string, JsonSchema> = {}, beside: Record<string, JsonSchema> = {}): JsonSchema => ({
    type: 'object',
    properties: {
      ...beside,
      current: { type: ['integer', 'string'], description: 'page, from 1' },
      size: { type: ['integer', 'string'], description: 'rows a page' },
      pageSize: { type: ['integer', 'string'], description: 'rows a page (older callers)' },
      condition: { type: ['object', 'null'], properties: condition },
      orders: { type: ['array', 'null'], maxItems: MAX_ORDERS, items: { type: 'object', properties: { column: { type: 'string' }, asc: { type: 'boolean' } } } },
    },
  }),
  /** The `data` of a paged list. */
  pageOf: (row: JsonSchema): JsonSchema => ({
    type: 'object',
    properties: { records: { type: 'array', items: row }, total: { type: 'integer' }, current: { type: 'integer' }, size: { type: 'integer' }, pages: { type: 'integer' } },
  }),
  /** The `data` of a huge log's page: past a count it only estimates, `reachable` says how far the pages go. */
  hugePageOf: (row: JsonSchema): JsonSchema => ({
    allOf: [S.pageOf(row), { type: 'object', properties: { estimated: { const: true }, reachable: { type: 'integer' } } }],
  }),
  /** A row of a generated entity, as its list and detail calls answer it. */
  entity: (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` }),
  /** A tree of rows: each node a row with its `children`, themselves rows of the same kind. */
  tree: (row: JsonSchema): JsonSchema => ({ type: 'array', items: { allOf: [row, { type: 'object', properties: { children: { type: 'array', items: row } } }] } }),
  /** A value that may be missing from the database (a nullable column, an outer join). */
  nullable: (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] }),
  /** The `data` of a call that answers none (its message says what happened). */
  none: (): JsonSchema => ({ type: 'null' }),
  /** What an import answers: how many rows it added (all or none: a bad row refuses the file). */
  imported: (): JsonSchema => ({ type: 'object', properties: { imported: { type: 'integer' } }, required: ['imported'] }),
  /** A count by name, the dashboards' and summaries' shape. */
  counts: (names: string[]): JsonSchema => ({ type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'number' }])) }),
};

/** What the document says of the body of a hand-written handler that declares none: tests/api/openapi.test.ts fails on it. */
export const UNDECLARED_BODY = 'undeclared: the handler of its module takes it';


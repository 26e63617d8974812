/** The shapes shared by the generated route table, the CRUD engine and the domain modules. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import type { DB } from '../db';
import type { ScopeDecl, VariantBy } from '../../contract/resourceFormat';
import type { ReasonCode } from '../../contract/generated/reasons';

/** A call's name in the operation log (server/oplog.ts): a stable key (stored) and its words in the console's languages. */
export interface LogName {
  key: string;
  'zh-CN': string;
  'zh-TW': string;
  'en-US': string;
}

/** The regions and streets a staff member sees (server/auth/jurisdiction.ts). */
export interface Jurisdiction {
  /** Region codes, each chosen one with every region under it. */
  areas: number[];
  streets: number[];
}

export interface FieldModel {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date-time';
  label: string;
  /** The label in the three languages (a refusal's parameter). */
  labels: { 'zh-CN': string; 'zh-TW': string; 'en-US': string };
  readOnly?: boolean;
  virtual?: boolean;
  default?: unknown;
  /** upper: upper-cased before it is checked and stored (plates, ID numbers). */
  transform?: 'upper';
  /** html: rich text, sanitised when written and when read (server/crud/html.ts). */
  format?: 'html';
  /** Another date(-time) field this one may not be earlier than (refused with messages.notBefore). */
  notBefore?: string;
  /** A comma list of another entity's ids (a product's functions), of its rows with these values only. */
  idsOf?: { entity: string; where?: Record<string, unknown> };
  /** The spec's messages by rule (required, unique, pattern…). */
  messages: Record<string, string>;
}

export interface FilterModel {
  key: string;
  op: 'eq' | 'like' | 'in' | 'gte' | 'lte' | 'between';
  /** The fields are the related row's (a relation of the entity). */
  relation?: string;
  widget?: string;
  field?: string;
  fields?: string[];
  selectBy?: { key: string; fields: Record<string, string> };
  /** How the console asks for the filter; the server reads only key, op and fields. */
  input?: string;
  value?: unknown;
  jurisdiction?: unknown;
}

export interface EntityModel {
  name: string;
  table: string;
  label: string;
  /** The entity's name in the console's three languages (the API document's summaries). */
  labels: { 'zh-CN': string; 'zh-TW': string; 'en-US': string };
  primaryKey: string;
  fields: Record<string, FieldModel>;
  required: string[];
  unique: string[];
  relations: Record<string, { entity: string; from: string }>;
  readOnlyOnEdit: string[];
  adminOnly: string[];
  filters: FilterModel[];
  sort: { default: { column: string; asc: boolean }[]; allowed: string[] };
  pageSize: number;
  /** JSON Schema of a request body's writable fields. */
  body: object;
  scope: ScopeDecl;
  /** Personal fields and how they leave the server: masked unless the caller holds `unmask`. */
  mask: Record<string, 'phone' | 'idcard'>;
  unmask?: string;
}

export interface User {
  fId: number;
  fChineseName: string;
  fPhone: string;
  /** 0 ordinary user, 1 administrator, 2 agent. */
  fAdmin: number;
  fUserType: number;
  permissions: Set<string>;
  /** Tokens issued before this time (ms) are no longer accepted: a password change ends every session. */
  tokensValidAfter?: number;
  /** When the account expires (ms), if it does. */
  expiresAt?: number;
  /** The regions and streets a staff member sees (server/auth/jurisdiction.ts); none when absent. */
  jurisdiction?: Jurisdiction;
}

export const isAdmin = (user: User) => user.fAdmin === 1;

export interface Services {
  db: DB;
  timeZone: string;
}

export interface CallContext extends Services {
  user: User;
  body: Record<string, unknown>;
  /** The HTTP request, for handlers that read an upload or send a file. */
  request?: FastifyRequest;
  reply?: FastifyReply;
  entity: EntityModel;
  route: RouteSpec;
  /** The variant server/crud/access.ts decided for this call (a row's or a filter's value, or a key group's name). */
  variant?: string;
}

export type { ScopeDecl, VariantBy };

/** What a handler answers: the envelope's data, or an object saying both data and message. */
export type HandlerResult = unknown;
export type Handler = (ctx: CallContext) => Promise<HandlerResult>;

export interface RouteSpec {
  path: string;
  entity: string;
  action: string;
  /** The standard action serving this path when the action has another name. */
  as?: string;
  permission: string | { create: string; update: string };
  method?: 'GET' | 'POST';
  field?: string;
  set?: Record<string, unknown>;
  /** all: the stored fields each row answers, without relations (every field and relation when absent). */
  fields?: string[];
  /** The variant of the call and its code, decided from one declared place (server/crud/access.ts). */
  variantBy?: VariantBy;
  /** The notice a success answers (`<entity>.<action>.done`, the resource file's `message`). */
  notice?: ReasonCode;
  /** The operation log's name of a write: a stable key and its words in the three languages. */
  log?: LogName;
  /** A standard read's name in the API document (a write is named by its `log`). */
  summary?: { 'zh-CN': string; 'zh-TW': string; 'en-US': string };
  handler?: Handler;
  /**
   * The handler's request as its endpoint declares it (JSON Schema, checked before the handler runs), or
   * the standard action's it takes (`list`, `save`: checked by the CRUD engine with the entity's rules).
   */
  body?: Record<string, unknown> | 'list' | 'save';
  /** The handler's answer (the envelope's `data`) as its endpoint declares it. */
  data?: Record<string, unknown>;
  /**
   * Codes by the row's value of a field (list variants with codes of their own, e.g. a type-4 document
   * needs programHelpManual:edit): `key` is the list condition's key, `field` the row's field.
   */
  byValue?: { key: string; field: string; codes: Record<string, string> };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Query = SelectQueryBuilder<any, any, any>;

/** What a server module (server/<domain>/<module>.ts) may give the engine for its entity. */
export interface EntityHooks {
  /** Narrows every read and write to the rows the user may see. */
  scope?: (query: Query, user: User) => Query;
  /**
   * Conditions of the entity's list that no declared filter can say (a device's `is_gps`: only the
   * devices with a position a map can draw), by their key; applied when the key has a value.
   */
  conditions?: Record<string, (query: Query, value: unknown) => Query>;
  /** Adjusts values before they are stored (defaults, derived columns); may refuse with Refusal. */
  beforeSave?: (values: Record<string, unknown>, ctx: CallContext, existing?: Record<string, unknown>) => Promise<void>;
  afterSave?: (row: Record<string, unknown>, ctx: CallContext, created: boolean) => Promise<void>;
  beforeDelete?: (row: Record<string, unknown>, ctx: CallContext) => Promise<void>;
  /**
   * Adds computed fields (virtual properties) to rows about to be sent. It runs beside the reading of
   * the rows' relations, so its own statements need not wait for theirs; `related` settles once the
   * relation fields are on the rows, for a hook that reads them.
   */
  afterRead?: (rows: Record<string, unknown>[], ctx: Services, related: Promise<void>) => Promise<void>;
  /**
   * A list's total read from counts the entity keeps, for the conditions it keeps them by (already
   * checked); undefined where it does not, and the rows are counted.
   */
  keptTotal?: (condition: Record<string, unknown>, ctx: CallContext) => Promise<number | undefined>;
}

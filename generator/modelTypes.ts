/** The shapes of the generator's model (generator/model.ts reads the declarations into them). */
import type { ListFilter, ScopeDecl, VariantBy } from '../contract/resourceFormat';

/** The standard actions the CRUD engine serves; any other endpoint needs a handler (or `set`). */
export const STANDARD_ACTIONS = ['list', 'get', 'save', 'delete', 'status', 'all'] as const;

export type Lang = 'zh-CN' | 'zh-TW' | 'en-US';
export const LANGS: Lang[] = ['zh-CN', 'zh-TW', 'en-US'];
export type I18n = Record<Lang, string>;

export interface Property {
  type: 'string' | 'integer' | 'number' | 'boolean';
  /** picture / pictures: one uploaded picture or http(s) address, or a comma list of them (contract/picture.ts). */
  format?: 'date-time' | 'date' | 'picture' | 'pictures';
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  enum?: (string | number)[];
  default?: unknown;
  readOnly?: boolean;
  'x-label': I18n;
  'x-enum'?: string;
  'x-dictionary'?: string;
  /** Another entity whose row(s) the value names: its id, or for a string a comma list of its ids. */
  'x-ref'?: string;
  /** Only the referred rows with these values may be named (a product's send libraries: `{ "fType": 2 }`). */
  'x-refWhere'?: Record<string, string | number | boolean | null>;
  'x-multi'?: string[];
  'x-transform'?: 'upper';
  'x-mask'?: 'idcard' | 'phone';
  /** Another date(-time) property this one may not be earlier than (a watch's end and its start). */
  'x-notBefore'?: string;
  'x-widget'?: 'image' | 'richText' | 'areas' | 'streets';
  /** html: sanitised by the server on the way in and on the way out (server/crud/html.ts). */
  'x-format'?: 'html';
  'x-messages'?: Record<string, I18n>;
  'x-db'?: {
    primaryKey?: boolean;
    unique?: boolean;
    virtual?: boolean;
    default?: 'now';
    notNull?: boolean;
    /** The property's former name: the next migration renames its column instead of dropping it. */
    renamedFrom?: string;
    /** The column type a lossy change is accepted to (values that do not fit are cut or emptied). */
    narrowTo?: string;
    /** A foreign key to another entity's primary key, and what deleting that row does to this one. */
    references?: { entity: string; onDelete: OnDelete };
  };
}

/**
 * A declared index: property names in order, each optionally followed by ` desc` (a list sorted newest
 * first within a filter: `["fProductId", "fId desc"]`), or `{ "trigram": "fName" }`, a pg_trgm GIN index
 * that serves `ilike '%…%'` keyword search, or a partial index `{ "name": "positioned", "columns": [...],
 * "where": "abs(fGpsLongitude) > 5" }` over the rows a query's own condition picks (the condition written
 * with property names, in SQL, as the query writes it, so the planner sees that it holds).
 */
export type IndexDecl = string[] | { trigram: string } | PartialIndexDecl;
export interface PartialIndexDecl {
  name: string;
  columns: string[];
  where: string;
}

export const isPartial = (index: IndexDecl): index is PartialIndexDecl => !Array.isArray(index) && 'where' in index;

/**
 * Extended planner statistics over columns whose values go together (a community lies in one street, an
 * alarm type mostly in some districts): `{ "name": "where_and_what", "columns": [...], "kinds": ["mcv",
 * "dependencies"] }`, which the planner otherwise takes to be independent. ANALYZE fills them.
 */
export interface StatisticsDecl {
  name: string;
  columns: string[];
  kinds: ('ndistinct' | 'dependencies' | 'mcv')[];
}

/** The properties an index declaration names, without their direction. */
export const indexFields = (index: IndexDecl): string[] =>
  (Array.isArray(index) ? index : isPartial(index) ? index.columns : [index.trigram]).map((f) => f.replace(/ desc$/, ''));

/** restrict: the referenced row cannot be deleted while rows refer to it; cascade: they go with it; setNull: they keep no reference. */
export type OnDelete = 'restrict' | 'cascade' | 'setNull';

export interface EntitySchema {
  $id: string;
  title?: string;
  'x-label': I18n;
  'x-db': {
    table: string;
    indexes?: IndexDecl[];
    statistics?: StatisticsDecl[];
    relations?: Record<string, { entity: string; from: string }>;
    /** The table's former name: the next migration renames it instead of creating a new one. */
    renamedFrom?: string;
    /** Removed properties whose columns, and their values, the next migration drops. */
    dropColumns?: string[];
    /** hand: the table is made by server/db/migrations and gets no generated migration. */
    migration?: 'hand';
  };
  properties: Record<string, Property>;
  required?: string[];
}

export interface Endpoint {
  path: string;
  method?: 'GET' | 'POST';
  permission: string | { create: string; update: string };
  handler?: string;
  /** Served by this standard action under another path (a legacy call with a second name). */
  as?: (typeof STANDARD_ACTIONS)[number];
  field?: string;
  set?: Record<string, unknown>;
  /** all: the stored fields each row answers, without relations (every field and relation when absent). */
  fields?: string[];
  message?: I18n;
  /** The call's name in the operation log (writes); standard actions have a default. */
  log?: I18n;
  /** The call's variant and its code, decided from one declared place (server/crud/access.ts). */
  variantBy?: VariantBy;
  /** A handler's request (JSON Schema, its `#/$defs/` written in), or the standard action's it takes. */
  body?: Record<string, unknown> | 'list' | 'save';
  /** A handler's answer, the envelope's `data` (JSON Schema, its `#/$defs/` written in). */
  answer?: Record<string, unknown>;
}

export type Filter = ListFilter<I18n>;

/**
 * A column shown as a link for holders of `permission`: `target` opens what the row's `idField` names —
 * `profile`, the person's holographic profile over the list (`by` says whether the field holds a user id,
 * a phone or an ID number), or a target the list component offers.
 */
export interface Link {
  target: string;
  permission: string;
  idField: string;
  by?: 'userId' | 'phone' | 'idcard';
}

/** A named preset of a list: its own menu entry and page, default condition, columns and filters. */
export interface Variant {
  menu: { key: string; icon: string; parent?: string; sort?: number; title: I18n };
  permission: string;
  condition?: Record<string, unknown>;
  columns?: string[];
  filters?: string[];
  pageSize?: number;
  pageSizes?: number[];
  links?: Record<string, Link>;
  placeholders?: Record<string, I18n>;
  actions?: string[];
  /**
   * Codes of this variant's rows by action (save, delete, status…), replacing the endpoint's: the server
   * picks the code from the row's value of the field the variant's condition fixes (a type-4 document
   * needs programHelpManual:edit). `list` defaults to the variant's page code.
   */
  permissions?: Record<string, string>;
  /** The endpoint action serving this list (a second list call of the entity); default `list`. */
  endpoint?: string;
}

export type { ScopeDecl, VariantBy };

/** Every code an endpoint may ask for. */
export const endpointCodes = (ep: Endpoint): string[] => [
  ...(typeof ep.permission === 'string' ? [ep.permission] : [ep.permission.create, ep.permission.update]),
  ...Object.values(ep.variantBy?.values ?? {}),
  ...(ep.variantBy?.keys ?? []).map((g) => g.permission),
];

export interface Resource {
  entity: string;
  server?: { module: string };
  scope: ScopeDecl;
  unmask?: string;
  endpoints: Record<string, Endpoint>;
  permissions: Record<string, I18n>;
  list: {
    view: 'table' | 'cards' | 'both';
    component?: string;
    pageSize: number;
    pageSizes?: number[];
    cardPageSize?: number;
    tree?: { parent: string };
    columns: string[];
    /** Columns shown as a switch saving at once through an endpoint. */
    switches?: { field: string; endpoint: string; on: string | number; off: string | number }[];
    filters?: Filter[];
    sort?: { default?: { column: string; asc: boolean }[]; allowed?: string[] };
    highlight?: { field: string; equals: string | number | boolean };
    links?: Record<string, Link>;
    variants?: Record<string, Variant>;
  };
  form: { layout?: 'modal' | 'page'; fields: string[]; readOnlyOnEdit?: string[]; adminOnly?: string[]; view?: boolean };
  /** The menu key (a page, or a section) whose screen uses this entity's permissions; for entities without a menu. */
  permissionsUnder?: string;
  /** Absent for entities shown only inside another screen (a device's timers). */
  menu?: { key: string; path: string; component: string; icon: string; parent?: string; sort?: number; permission?: string; title: I18n };
}

export interface Menus {
  sections: { key: string; path: string; icon: string; sort: number; title: I18n }[];
  pages: { key: string; path: string; component: string; icon: string; parent?: string; sort?: number; title: I18n; permission?: string }[];
}

export interface Entity {
  name: string;
  schemaFile: string;
  resourceFile: string;
  schema: EntitySchema;
  resource: Resource;
}

export interface Model {
  entities: Entity[];
  enums: Record<string, Record<string, I18n>>;
  /** The seeded dictionary entries' words in each language (schemas/dictionaries.json), key → value → words. */
  dictionaries: Record<string, Record<string, I18n>>;
  menus: Menus;
}

export interface Problem {
  file: string;
  pointer: string;
  message: string;
  hint: string;
}

export function primaryKey(schema: EntitySchema): string {
  return Object.entries(schema.properties).find(([, p]) => p['x-db']?.primaryKey)![0];
}

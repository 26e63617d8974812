/**
 * The shapes the generator emits into app/generated/resources.tsx and resourceIndex.ts. Labels and messages are i18n keys
 * (react-admin conventions: resources.<entity>.fields.<field>), resolved with useTranslate().
 */
import type { ComponentType } from 'react';
import type { ListFilter } from '../../contract/resourceFormat';

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date-time' | 'date';

export interface FieldConfig {
  source: string;
  type: FieldType;
  /** i18n key of the label: resources.<entity>.fields.<source> */
  label: string;
  required?: boolean;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  /** picture / pictures: an uploaded picture's name or an http(s) address, one or a comma list (contract/picture.ts). */
  format?: 'picture' | 'pictures';
  default?: unknown;
  /** Name of an option list in schemas/enums.json; labels at enums.<name>.<value>. */
  enum?: string;
  /** Allowed values (from the schema's enum). */
  values?: (string | number)[];
  /** Dictionary key for /system/t-sys-dic/getdic (options fId -> fContent). */
  dictionary?: string;
  /** Entity this field refers to (a select of that entity's rows). */
  ref?: string;
  /** Only the referred rows with these values are offered (x-refWhere). */
  refWhere?: Record<string, unknown>;
  /** A comma-separated multi choice from these values. */
  multi?: string[];
  /** upper: upper-cased while typed (the server upper-cases too). */
  transform?: 'upper';
  /** Shown masked in lists: idcard keeps the first 6 and last 4 characters, phone the first 3 and last 4. */
  mask?: 'idcard' | 'phone';
  /** Another date(-time) field this one may not be earlier than; its message is messages.notBefore. */
  notBefore?: string;
  /** image: an uploaded picture kept by its stored name; richText: the rich-text editor (HTML the server sanitises). */
  widget?: 'image' | 'richText' | 'areas' | 'streets';
  readOnly?: boolean;
  readOnlyOnEdit?: boolean;
  adminOnly?: boolean;
  /** i18n keys of validation messages by rule: required, pattern, unique, maxLength… */
  messages: Record<string, string>;
}

/** A list's filter, its name an i18n key. */
export type FilterConfig = ListFilter<string>;

export interface ResourceConfig {
  /** Entity name, also the react-admin resource name and the data provider key; a list variant's own name. */
  name: string;
  /** A list variant's entity, whose endpoints the data provider uses (absent: `name`). */
  entity?: string;
  /** i18n key of the entity name. */
  label: string;
  /** Endpoint paths by action (list, get, save, delete, status, all, and custom ones). */
  endpoints: Record<string, string>;
  /** i18n keys of success messages by action. */
  notifications: Record<string, string>;
  /** Permission codes by action; save has create / update. */
  permissions: Record<string, string | { create: string; update: string }>;
  fields: Record<string, FieldConfig>;
  list: {
    view: 'table' | 'cards' | 'both';
    pageSize: number;
    pageSizes: number[];
    cardPageSize?: number;
    /** Rows shown as a tree with expand/collapse: `parent` is the field holding the parent row's id. */
    tree?: { parent: string };
    columns: string[];
    /** Columns shown as a switch that saves at once (fId and the field) through an endpoint action, then reloads. */
    switches?: { field: string; endpoint: string; on: string | number; off: string | number }[];
    filters: FilterConfig[];
    sort: { column: string; asc: boolean }[];
    /** Rows whose field equals the value are highlighted. */
    highlight?: { field: string; equals: string | number | boolean };
    /** Default condition by filter key; a filter with a default returns to it when cleared. */
    condition?: Record<string, unknown>;
    /** Columns shown as links for holders of the code: `profile` (by user id, phone or ID number) or a target the list component offers. */
    links?: Record<string, { target: string; permission: string; idField: string; by?: 'userId' | 'phone' | 'idcard' }>;
    /** i18n keys of the text a column shows when its value is missing. */
    placeholders?: Record<string, string>;
    /** Row actions of the list component to offer. */
    actions?: string[];
    /** A list variant served by another list call of the entity (its action: the call `<entity>.<endpoint>`). */
    endpoint?: string;
  };
  form: {
    layout: 'modal' | 'page';
    fields: string[];
    /** Rows have a view button opening the form read-only when the user may not edit. */
    view?: boolean;
  };
  /** Absent for entities shown only inside another screen. */
  menu?: { key: string; path: string; icon: string };
}

/** A resource as the shell knows it before its list opens: its name, title and menu. */
export type ResourceEntry = Pick<ResourceConfig, 'name' | 'label' | 'menu'>;

export interface ResourceDefinition {
  config: ResourceConfig;
  /** The list page: a hand-written component named by the resource file, or the generic one. */
  list: ComponentType<{ config: ResourceConfig }>;
}

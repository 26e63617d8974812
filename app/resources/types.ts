/**
 * The shapes the generator emits into app/generated/resources.tsx. Labels and messages are i18n keys
 * (react-admin conventions: resources.<entity>.fields.<field>), resolved with useTranslate().
 */
import type { ComponentType } from 'react';

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date-time';

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
  default?: unknown;
  /** Name of an option list in schemas/enums.json; labels at enums.<name>.<value>. */
  enum?: string;
  /** Allowed values (from the schema's enum). */
  values?: (string | number)[];
  /** Dictionary key for /system/t-sys-dic/getdic (options fId -> fContent). */
  dictionary?: string;
  /** Entity this field refers to (a select of that entity's rows). */
  ref?: string;
  /** A comma-separated multi choice from these values. */
  multi?: string[];
  readOnly?: boolean;
  readOnlyOnEdit?: boolean;
  adminOnly?: boolean;
  /** i18n keys of validation messages by rule: required, pattern, unique, maxLength… */
  messages: Record<string, string>;
}

export interface FilterConfig {
  key: string;
  op: 'eq' | 'like' | 'in' | 'gte' | 'lte';
  field?: string;
  fields?: string[];
  selectBy?: { key: string; fields: Record<string, string> };
}

export interface ResourceConfig {
  /** Entity name, also the react-admin resource name and the data provider key. */
  name: string;
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
    columns: string[];
    filters: FilterConfig[];
    sort: { column: string; asc: boolean }[];
  };
  form: {
    layout: 'modal' | 'page';
    fields: string[];
  };
  /** Absent for entities shown only inside another screen. */
  menu?: { key: string; path: string; icon: string };
}

export interface ResourceDefinition {
  config: ResourceConfig;
  /** The list page: a hand-written component named by the resource file, or the generic one. */
  list: ComponentType<{ config: ResourceConfig }>;
}

/**
 * A command panel's form, built at run time from the fields of a send library (spec 000 §3): types 1
 * and 2 are number inputs, 3 and 4 comma-separated lists, fields with switch options are switches
 * between their open and close values, and the envelope keys the server fills are not shown.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { CallRow } from '../../../../adapters/dataProvider';

/** A send library of the device's product, as the command panel call answers it. */
export type CommandLibrary = CallRow<'command.panel'>;
/** A value of a library: a field of its form. */
export type CommandField = CommandLibrary['productJsonConfs'][number];
/** A switch between a field's open and close values. */
export type SwitchOption = CommandField['productJsonConfSwitches'][number];

export type FormValues = Record<string, unknown>;

export const HIDDEN_KEYS = ['ClientID', 'bid', 'mid', 'Children'];

export const visibleFields = (library: CommandLibrary) => library.productJsonConfs.filter((f) => !HIDDEN_KEYS.includes(f.fJsonKey));

const switchOf = (field: CommandField): SwitchOption | undefined => field.productJsonConfSwitches?.[0];

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

const kind = (field: CommandField): 'switch' | 'boolean' | 'integer' | 'number' | 'list' | 'json' | 'text' => {
  if (switchOf(field)) return 'switch';
  switch (Number(field.fDataType)) {
    case 1:
      return 'integer';
    case 2:
      return 'number';
    case 3:
    case 4:
      return 'list';
    case 5:
      return 'boolean';
    case 7:
    case 8:
      return 'json';
    default:
      return 'text';
  }
};

/** A stored or reported value as the form holds it. */
function formValue(field: CommandField, value: unknown): unknown {
  if (blank(value)) return undefined;
  switch (kind(field)) {
    case 'switch':
      return typeof value === 'boolean' ? value : String(value) === switchOf(field)!.fOpenValue;
    case 'boolean':
      return value === true || value === 1 || value === '1' || value === 'true';
    case 'integer':
    case 'number': {
      const n = Number(value);
      return Number.isFinite(n) ? n : undefined;
    }
    case 'list':
      return Array.isArray(value) ? value.join(',') : String(value);
    case 'json':
      return typeof value === 'string' ? value : JSON.stringify(value);
    default:
      return String(value);
  }
}

/** The library's defaults as form values. */
export function defaultValues(library: CommandLibrary): FormValues {
  const out: FormValues = {};
  for (const field of visibleFields(library)) {
    const v = formValue(field, field.fDefaultValue);
    if (v !== undefined) out[field.fJsonKey] = v;
  }
  return out;
}

/** Values a device reported (the answer's productJson) merged over the form's. */
export function withReported(library: CommandLibrary, current: FormValues, reported: Record<string, unknown> | undefined): FormValues {
  if (!reported) return current;
  const out = { ...current };
  for (const field of visibleFields(library)) {
    if (field.fJsonKey in reported) {
      const v = formValue(field, reported[field.fJsonKey]);
      if (v !== undefined) out[field.fJsonKey] = v;
    }
  }
  return out;
}

/** The productJson of /api/emq/send: switches as their open/close values, lists split on commas. */
export function toProductJson(library: CommandLibrary, values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = { fId: library.fId };
  for (const field of visibleFields(library)) {
    const v = values[field.fJsonKey];
    if (v === undefined || v === null || v === '') continue;
    switch (kind(field)) {
      case 'switch': {
        const option = switchOf(field)!;
        out[field.fJsonKey] = v === true ? option.fOpenValue : option.fCloseValue;
        break;
      }
      case 'list':
        out[field.fJsonKey] = String(v)
          .split(/[,，]/)
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      default:
        out[field.fJsonKey] = v;
    }
  }
  return out;
}

export interface FormTexts {
  listHint: string;
  jsonHint: string;
}

/** JSON Schema and uiSchema of a library's panel. */
export function buildForm(library: CommandLibrary, texts: FormTexts): { schema: RJSFSchema; uiSchema: UiSchema } {
  const properties: Record<string, RJSFSchema> = {};
  const uiSchema: UiSchema = {
    'ui:submitButtonOptions': { norender: true },
    'ui:options': { mui: { rjsfSlotProps: { objectGridItem: { size: { xs: 12, sm: 6, md: 4 } } } } },
    'ui:order': visibleFields(library).map((f) => f.fJsonKey),
  };
  for (const field of visibleFields(library)) {
    const base: RJSFSchema = { title: field.fJsonName, ...(field.fJsonDes ? { description: field.fJsonDes } : {}) };
    const ui: UiSchema = {};
    switch (kind(field)) {
      case 'switch': {
        const option = switchOf(field)!;
        properties[field.fJsonKey] = { ...base, type: 'boolean', title: option.fName || field.fJsonName };
        Object.assign(ui, { 'ui:widget': 'switch', 'ui:options': { openValue: option.fOpenValue, closeValue: option.fCloseValue } });
        break;
      }
      case 'boolean':
        properties[field.fJsonKey] = { ...base, type: 'boolean' };
        ui['ui:widget'] = 'switch';
        break;
      case 'integer':
        properties[field.fJsonKey] = { ...base, type: 'integer' };
        break;
      case 'number':
        properties[field.fJsonKey] = { ...base, type: 'number' };
        break;
      case 'list':
        properties[field.fJsonKey] = { ...base, type: 'string' };
        ui['ui:placeholder'] = texts.listHint;
        break;
      case 'json':
        properties[field.fJsonKey] = { ...base, type: 'string' };
        Object.assign(ui, { 'ui:widget': 'textarea', 'ui:placeholder': texts.jsonHint });
        break;
      default:
        properties[field.fJsonKey] = { ...base, type: 'string' };
    }
    uiSchema[field.fJsonKey] = ui;
  }
  return { schema: { type: 'object', properties }, uiSchema };
}

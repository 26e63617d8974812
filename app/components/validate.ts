import type { FieldConfig } from '../resources/types';
import { PICTURE_FORMATS } from '../../contract/picture';

export type FormValues = Record<string, unknown>;
/** A failed rule: the i18n key of its message and the values it interpolates. */
export interface FieldError {
  key: string;
  args?: Record<string, unknown>;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Client-side check of the schema's rules (required, maxLength, pattern, a picture's format,
 * integer/number and their minimum/maximum). The schema's own message is used when it declares one for the rule, otherwise a
 * generic message naming the field. The server checks the same rules, but answers in Chinese whatever
 * the console's language: a value the console can judge is refused under the field, in its language.
 */
export function validateField(field: FieldConfig, value: unknown): FieldError | null {
  const fallback = (rule: string, extra: Record<string, unknown> = {}) => ruleError(field, rule, extra);
  if (isEmpty(value)) return field.required ? fallback('required') : null;
  const text = String(value);
  // A schema words a wrong kind of value under its `type` rule.
  if (field.type === 'integer' && !/^-?\d+$/.test(text.trim())) return fallback(field.messages?.type ? 'type' : 'integer');
  if (field.type === 'number' && Number.isNaN(Number(text))) return fallback(field.messages?.type ? 'type' : 'number');
  if (field.type === 'integer' || field.type === 'number') {
    const n = Number(text);
    if (field.minimum !== undefined && n < field.minimum) return fallback('minimum', { min: field.minimum });
    if (field.maximum !== undefined && n > field.maximum) return fallback('maximum', { max: field.maximum });
  }
  if (field.maxLength !== undefined && text.length > field.maxLength) return fallback('maxLength', { max: field.maxLength });
  if (field.pattern && !new RegExp(field.pattern).test(text)) return fallback('pattern');
  // A picture field holds what the upload answered or an http(s) address, by the server's own rule.
  if (field.format && !PICTURE_FORMATS[field.format](text.trim())) return fallback(field.messages?.format ? 'format' : 'pattern');
  return null;
}

/** A failed rule of a field: the schema's own message for it, else the generic one naming the field. */
function ruleError(field: FieldConfig, rule: string, extra: Record<string, unknown> = {}): FieldError {
  return field.messages?.[rule] ? { key: field.messages[rule] } : { key: 'common.validation.' + rule, args: { labelKey: field.label, ...extra } };
}

/** The generic message of each rule the server may name (adapters/refusal.ts); others read as a bad format. */
const SERVER_RULES: Record<string, (field: FieldConfig) => Record<string, unknown>> = {
  required: () => ({}),
  maxLength: (f) => ({ max: f.maxLength }),
  minimum: (f) => ({ min: f.minimum }),
  maximum: (f) => ({ max: f.maximum }),
  notBefore: () => ({}),
  unique: () => ({}),
  ref: () => ({}),
  pattern: () => ({}),
};

/**
 * The server's refusal of a field's rule, as the console words it: the schema's message for that rule
 * when it declares one (the very text the server answered, in the console's language), else the
 * generic message of the rule; a wrong type, choice or format reads as the field's bad format.
 */
export function refusalError(field: FieldConfig, rule: string): FieldError {
  if (field.messages?.[rule]) return { key: field.messages[rule] };
  const args = SERVER_RULES[rule];
  return args ? ruleError(field, rule, args(field)) : ruleError(field, 'pattern');
}

/**
 * An end before the start it may not precede (the schema's x-notBefore), shown under the end. The
 * picker's texts (`YYYY-MM-DD HH:mm[:ss]`) compare as text once seconds are added.
 */
function orderError(field: FieldConfig, values: FormValues): FieldError | null {
  if (!field.notBefore) return null;
  const [end, start] = [values[field.source], values[field.notBefore]];
  const text = (v: unknown) => String(v).trim().replace('T', ' ').padEnd(19, ':00');
  if (isEmpty(end) || isEmpty(start) || text(end) >= text(start)) return null;
  return field.messages?.notBefore ? { key: field.messages.notBefore } : { key: 'common.validation.notBefore', args: { labelKey: field.label } };
}

export function validateForm(fields: FieldConfig[], values: FormValues): Record<string, FieldError> {
  const errors: Record<string, FieldError> = {};
  for (const field of fields) {
    const error = validateField(field, values[field.source]) ?? orderError(field, values);
    if (error) errors[field.source] = error;
  }
  return errors;
}

/** Form text back to the types the schema declares; an emptied field is sent as null so an edit clears it. */
export function toBody(fields: FieldConfig[], values: FormValues, editing: boolean): FormValues {
  const body: FormValues = {};
  for (const field of fields) {
    const value = values[field.source];
    if (isEmpty(value)) {
      if (editing) body[field.source] = field.type === 'string' ? '' : null;
      continue;
    }
    body[field.source] = field.type === 'integer' || field.type === 'number' ? Number(value) : typeof value === 'string' ? value.trim() : value;
  }
  return body;
}

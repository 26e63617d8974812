/**
 * Checks a request body against an entity's schema before anything reaches the database: only writable
 * fields pass, required ones must be present and non-empty, and each failure answers with the spec's
 * message for that field and rule.
 */
import { Refusal, reason, textOf, type Reason, type ReasonCode } from '../http/envelope';
import type { EntityModel, User } from './types';
import { isAdmin } from './types';
import { cleanHtmlFields } from './html';
import { formatTime } from './format';
import { schemaChecker } from '../http/schemas';

const checker = schemaChecker({ allErrors: false, coerceTypes: true, strict: false });
const validator = (entity: EntityModel) => checker(entity.body);

function empty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * Why one field's rule refused a value: the field's own message where its schema declares one (the code
 * `<entity>.<field>.<rule>`), else the general one naming the field.
 */
export function fieldReason(entity: EntityModel, field: string, rule: string): Reason {
  const f = entity.fields[field];
  if (f?.messages[rule]) return { code: `${entity.name}.${field}.${rule}` as ReasonCode, params: {} };
  const label = f?.labels ?? field;
  if (rule === 'required') return reason('field.required', { label });
  if (rule === 'maxLength') return reason('field.maxLength', { label });
  if (rule === 'ref') return reason('field.ref', { label });
  return reason('field.invalid', { label });
}

/** A field's refusal in the spec's words (zh-CN): a row report's reason. */
export const messageFor = (entity: EntityModel, field: string, rule: string): string => textOf(fieldReason(entity, field, rule));

/** The refusal of one field's rule: the field's message, naming the field and rule for the console. */
export function fieldRefusal(entity: EntityModel, field: string, rule: string, status?: number): Refusal {
  return new Refusal(fieldReason(entity, field, rule), { status, about: { field, rule } });
}

/** A time as the API writes it (`YYYY-MM-DD HH:mm:ss` in the server's zone), so times compare as text. */
function timeText(value: unknown): string | null {
  if (value instanceof Date) return formatTime(value, process.env.TZ || 'Asia/Shanghai');
  // Text that is no time is left to the field's own format check.
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value.trim()) ? value.trim().replace('T', ' ') : null;
}

/**
 * Refuses an end before its start (`x-notBefore`): the values being saved, else the stored row's, so a
 * save of the end alone is held to the stored start too.
 */
export function checkOrder(entity: EntityModel, values: Record<string, unknown>, stored: Record<string, unknown> = {}) {
  for (const [field, f] of Object.entries(entity.fields)) {
    if (!f.notBefore || !(field in values || f.notBefore in values)) continue;
    const pick = (name: string) => timeText(name in values ? values[name] : stored[name]);
    const [end, start] = [pick(field), pick(f.notBefore)];
    if (end && start && end < start) throw fieldRefusal(entity, field, 'notBefore');
  }
}

/**
 * The values to store. On create every required field must be given; on update a field that is absent
 * keeps its stored value, and the fields the resource makes read-only on edit are never changed.
 */
export function validateBody(entity: EntityModel, body: Record<string, unknown>, mode: 'create' | 'update', user: User | null): Record<string, unknown> {
  const writable = (validator(entity).schema as { properties: Record<string, unknown> }).properties;
  const values: Record<string, unknown> = {};
  for (const field of Object.keys(writable)) {
    if (field === entity.primaryKey) continue;
    if (!(field in body)) continue;
    if (mode === 'update' && entity.readOnlyOnEdit.includes(field)) continue;
    if (entity.adminOnly.includes(field) && !(user && isAdmin(user))) continue;
    const raw = body[field];
    const text = typeof raw === 'string' ? raw.trim() : raw;
    values[field] = empty(raw) ? null : typeof text === 'string' && entity.fields[field]?.transform === 'upper' ? text.toUpperCase() : text;
  }
  // Rich text is cleaned before the rules: a body of nothing but a script is an empty one.
  cleanHtmlFields(entity, values);
  for (const field of entity.required) {
    const missing = mode === 'create' ? empty(values[field]) : field in values && empty(values[field]);
    if (missing) throw fieldRefusal(entity, field, 'required');
  }
  const validate = validator(entity);
  if (!validate(values)) {
    const error = validate.errors![0];
    const field = error.instancePath.split('/')[1] ?? '';
    throw fieldRefusal(entity, field, error.keyword);
  }
  checkOrder(entity, values);
  return values;
}

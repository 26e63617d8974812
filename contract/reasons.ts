/**
 * A refusal's or notice's reason as the envelope carries it beside `message`: a code of the catalogue
 * (schemas/reasons/), the values its text fills in, and that text in the caller's language. Shared by the
 * server, which answers it, and the console, which translates it by code.
 */
import type { ReasonCode } from './generated/reasons';

export type { ReasonCode, ReasonParams, PlainReasonCode } from './generated/reasons';

export const LANGUAGES = ['zh-CN', 'zh-TW', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * A refused save that is about one field of what was sent (a duplicate number, a reference that does not
 * exist, a value out of the schema's range) names the field and the rule in the envelope's `data`: the
 * console shows the refusal under that field.
 */
export interface RefusedField {
  /** The body's property (`fNumber`). */
  field: string;
  /** The schema rule that failed: required, maxLength, pattern, minimum, maximum, type, enum, format, unique, ref, notBefore. */
  rule: string;
}

/** The refused field an envelope names, if any. */
export function refusedField(envelope: { data?: unknown } | undefined): RefusedField | null {
  const data = envelope?.data as Partial<RefusedField> | null | undefined;
  return data && typeof data.field === 'string' && typeof data.rule === 'string' ? { field: data.field, rule: data.rule } : null;
}

/** A parameter's value: as it is in every language, or worded per language (a field's label, a device type). */
export type ParamValue = string | number | Record<Language, string>;

export interface Reason {
  code: ReasonCode;
  params: Record<string, ParamValue>;
}

/** The envelope's `reason`: the code, its parameters, and its text in the language the caller asked for. */
export interface AnsweredReason extends Reason {
  text: string;
}

/** One refused row of a spreadsheet import: its line on the sheet, what names it (a device number), why. */
export interface RowReason<R = AnsweredReason> {
  row: number;
  label?: string;
  reason: R;
}

/**
 * A refused import's `data`: its bad rows (the first thousand at most) and how many there were in all.
 * Nothing of the file was written.
 */
export interface RefusedRows<R = AnsweredReason> {
  rows: RowReason<R>[];
  total: number;
}

/** An envelope's refused rows, if it has them. */
export function refusedRows(data: unknown): RefusedRows | null {
  const d = data as Partial<RefusedRows> | null | undefined;
  return d && Array.isArray(d.rows) && typeof d.total === 'number' ? (d as RefusedRows) : null;
}

/** A parameter in one language. */
export const paramIn = (value: ParamValue, language: Language): string | number => (typeof value === 'object' && value !== null ? value[language] ?? value['zh-CN'] : value);

/** The parameters in one language. */
export const paramsIn = (params: Record<string, ParamValue> | undefined, language: Language): Record<string, string | number> =>
  Object.fromEntries(Object.entries(params ?? {}).map(([k, v]) => [k, paramIn(v, language)]));

/** A text of the catalogue with its `{name}` placeholders filled in. */
export const fillText = (template: string, params: Record<string, string | number>): string => template.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? ''));

/**
 * The language an `Accept-Language` header asks for, of the three there are: Traditional Chinese for
 * zh-TW, zh-HK and zh-Hant, English for any en, Simplified Chinese otherwise (the legacy default).
 */
export function languageOf(header: string | undefined): Language {
  const first = (header ?? '').split(',').map((part) => part.split(';')[0].trim().toLowerCase()).find(Boolean) ?? '';
  if (/^zh-(tw|hk|mo|hant)/.test(first)) return 'zh-TW';
  if (first.startsWith('en')) return 'en-US';
  return 'zh-CN';
}

/** Whether an envelope's `reason` is one (a legacy backend's answer has none). */
export function isReason(value: unknown): value is AnsweredReason {
  const r = value as Partial<AnsweredReason> | null | undefined;
  return !!r && typeof r === 'object' && typeof r.code === 'string' && typeof r.params === 'object';
}

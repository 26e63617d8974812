/**
 * The legacy envelope `{ code, success, message, data }` and the ways a call is refused. A refusal or a
 * notice is a code of the catalogue (schemas/reasons/) with its parameters: `message` keeps the spec's
 * zh-CN words whatever the caller (legacy screens show it; a device call's text containing 成功 means
 * success), and `reason` beside it carries the code, the parameters and the text in the language the
 * caller's `Accept-Language` asks for (docs/api.md, "Refusals and notices").
 */
import { REASONS, type ReasonCode, type ReasonParams, type PlainReasonCode } from '../../contract/generated/reasons';
import { fillText, languageOf, paramsIn, type AnsweredReason, type Language, type ParamValue, type Reason, type RefusedField, type RowReason } from '../../contract/reasons';
import type { Envelope } from '../../contract/envelope';

export type { Envelope, Reason, ReasonCode, RefusedField, RowReason };

/** A code's text in one language, its parameters filled in. */
export function textOf(reason: Reason, language: Language = 'zh-CN'): string {
  return fillText(REASONS[reason.code][language], paramsIn(reason.params, language));
}

/** A text of the catalogue in the three languages (an operation-log name, a column header, a summary). */
export function wordsOf(code: PlainReasonCode): Record<Language, string>;
export function wordsOf<C extends ReasonCode>(code: C, params: ParamsOf<C>): Record<Language, string>;
export function wordsOf(code: ReasonCode, params: Record<string, ParamValue> = {}): Record<Language, string> {
  const why = { code, params };
  return { 'zh-CN': textOf(why, 'zh-CN'), 'zh-TW': textOf(why, 'zh-TW'), 'en-US': textOf(why, 'en-US') };
}

/** What the envelope carries of a reason for a caller asking in `language`. */
export const answered = (reason: Reason, language: Language): AnsweredReason => ({ code: reason.code, params: reason.params, text: textOf(reason, language) });

/** The parameters a code's text fills in, each plain or worded per language. */
type ParamsOf<C extends ReasonCode> = { [K in keyof ReasonParams[C]]: ParamValue };

/** A reason of the catalogue: `reason('device.offline')`, `reason('library.functionInUse', { name })`. */
export function reason<C extends PlainReasonCode>(code: C): Reason;
export function reason<C extends ReasonCode>(code: C, params: ParamsOf<C>): Reason;
export function reason(code: ReasonCode, params: Record<string, ParamValue> = {}): Reason {
  return { code, params };
}

/** The default notice of a success (`server.ok`): the legacy envelope's message, without a reason. */
const DONE = textOf({ code: 'server.ok', params: {} });

export function ok<T>(data: T, notice?: Reason, language: Language = 'zh-CN'): Envelope<T> {
  if (!notice) return { code: 200, success: true, message: DONE, data };
  return { code: 200, success: true, message: textOf(notice), data, reason: answered(notice, language) };
}

/** A refused call's envelope (what the server's error handler answers). */
export function fail(reason: Reason, language: Language, status: number = REASONS[reason.code].status, data: unknown = null): Envelope<unknown> {
  return { code: status, success: false, message: textOf(reason), data, reason: answered(reason, language) };
}

/** The language a request asks its refusals and notices in. */
export const languageOfRequest = (request: { headers: Record<string, string | string[] | undefined> }): Language => {
  const header = request.headers['accept-language'];
  return languageOf(Array.isArray(header) ? header[0] : header);
};

interface RefuseOptions {
  /** The envelope's code when not the catalogue's (a 409 for a duplicate found another way). */
  status?: number;
  /** The field of the body the refusal is about (the console shows it under that field). */
  about?: RefusedField;
  /** A refused import's bad rows (the first thousand at most) and how many there were in all. */
  rows?: { rows: RowReason<Reason>[]; total: number };
  /** The legacy `message` when it is not the code's text: a device's own words of its refusal. */
  message?: string;
}

/** The legacy message's lines of a refused import: `第<n>行（<label>）：<reason>` each, then how many more. */
const rowLines = ({ rows, total }: NonNullable<RefuseOptions['rows']>) => [...rows.map(rowLine), ...(total > rows.length ? [textOf(reason('row.more', { count: total - rows.length }))] : [])];

/** A bad row's line of the legacy message: `第<n>行（<label>）：<reason>`. */
const rowLine = (r: RowReason<Reason>) => textOf(r.label ? reason('row.labelledLine', { row: r.row, label: r.label, reason: textOf(r.reason) }) : reason('row.line', { row: r.row, reason: textOf(r.reason) }));

/**
 * Bad input or a refused business rule: HTTP 200, the envelope's code from the catalogue (400, 409 for a
 * duplicate, 429 for too many), the spec's message; a refusal about one field of the body names it in the
 * envelope's data.
 */
export class Refusal extends Error {
  readonly code: number;
  readonly about?: RefusedField;
  readonly rows?: RefuseOptions['rows'];
  readonly reason: Reason;
  constructor(reason: Reason, o: RefuseOptions = {}) {
    // A refused import's message lists its bad rows under the first line, as the legacy screens show it.
    super(o.message ?? [textOf(reason), ...(o.rows ? rowLines(o.rows) : [])].join('\n'));
    this.rows = o.rows;
    this.reason = reason;
    this.code = o.status ?? REASONS[reason.code].status;
    this.about = o.about;
  }
}

/** `throw refuse('device.offline')`, `throw refuse('library.functionInUse', { name })`. */
export function refuse<C extends PlainReasonCode>(code: C, params?: Record<string, never>, options?: RefuseOptions): Refusal;
export function refuse<C extends ReasonCode>(code: C, params: ParamsOf<C>, options?: RefuseOptions): Refusal;
export function refuse(code: ReasonCode, params: Record<string, ParamValue> = {}, options: RefuseOptions = {}): Refusal {
  return new Refusal({ code, params }, options);
}

/** The caller lacks the permission code: HTTP 401. */
export class Forbidden extends Error {
  readonly reason: Reason = reason('access.forbidden');
  constructor() {
    super(textOf(reason('access.forbidden')));
  }
}

/** No token, a bad one or an expired one: HTTP 700, and the console returns to the login page. */
export class LoginExpired extends Error {
  constructor(readonly reason: Reason = { code: 'access.loginExpired', params: {} }) {
    super(textOf(reason));
  }
}

/** What the call names does not exist (or is not the caller's): HTTP 404. */
export class NotFound extends Error {
  readonly reason?: Reason;
  constructor(why: Reason | string = { code: 'server.notFound', params: {} }) {
    super(typeof why === 'string' ? why : textOf(why));
    if (typeof why !== 'string') this.reason = why;
  }
}

/** An error's envelope: its reason's, or (a refusal still worded inline) its words alone. */
export function failOf(error: Error & { reason?: Reason; rows?: RefuseOptions['rows'] }, language: Language, status: number, data: unknown = null): Envelope<unknown> {
  if (!error.reason) return { code: status, success: false, message: error.message, data };
  const rows = error.rows && { rows: error.rows.rows.map((r) => ({ ...r, reason: answered(r.reason, language) })), total: error.rows.total };
  return { ...fail(error.reason, language, status, rows ?? data), message: error.message };
}

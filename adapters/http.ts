/**
 * The one place the console talks to the server: the legacy envelope, the token in `Authorization`,
 * a fresh token taken from the `authorization` response header, the HTTP 700 / 401 / 500 rules, and the
 * language of the server's reasons (`Accept-Language`; a refusal's text is the console's by its code).
 */
import { isReason } from '../contract/reasons';
import type { Envelope } from '../contract/envelope';
import type { ReasonCode } from '../contract/generated/reasons';
import { currentLocale, reasonText } from './i18nProvider';

export type { Envelope };

export const TOKEN_KEY = 'token';

export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status (700 expired login, 401 no permission, 500 server fault) or 200 for a refused request. */
    readonly status: number,
    readonly body?: Envelope,
  ) {
    super(message);
  }

  /** The refusal's code, for a page that acts on one (an alarm someone else signed: reload the list). */
  get code(): ReasonCode | undefined {
    return this.body?.reason?.code;
  }
}

/** An envelope's words in the console's language: its reason's, else its message as it came. */
export function envelopeText(envelope: Partial<Envelope> | undefined): string {
  return isReason(envelope?.reason) ? reasonText(envelope.reason) : envelope?.message ?? '';
}

type Listener = (error: ApiError) => void;
const listeners = new Set<Listener>();
/** The shell subscribes here to show the global messages (expired login, no permission, server error). */
export function onApiError(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function setToken(token: string | null): void {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

export interface CallOptions {
  method?: 'GET' | 'POST';
  /** Return the body of an HTTP 200 answer even when `success` is false (callers that show the message themselves). */
  raw?: boolean;
  /** Do not tell the global listeners (logging out with a token that may already have expired). */
  quiet?: boolean;
}

/** POST (or GET) a legacy call. Resolves with the envelope; rejects with ApiError unless `raw` is set. */
export async function call<T = unknown>(path: string, body?: unknown, options: CallOptions = {}): Promise<Envelope<T>> {
  const method = options.method ?? 'POST';
  const headers: Record<string, string> = { 'Accept-Language': currentLocale() };
  const token = getToken();
  if (token && !path.startsWith('/login')) headers.Authorization = token;
  if (method === 'POST') headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined });
  } catch {
    throw emit(new ApiError('network', 0), options.quiet);
  }
  const fresh = response.headers.get('authorization');
  if (fresh) setToken(fresh);
  let envelope: Envelope<T>;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    throw emit(new ApiError(response.statusText || 'error', response.status), options.quiet);
  }
  if (response.status !== 200) throw emit(new ApiError(envelopeText(envelope) || response.statusText, response.status, envelope), options.quiet);
  if (!options.raw && (envelope.success === false || envelope.code !== 200)) {
    throw new ApiError(envelopeText(envelope), 200, envelope);
  }
  return envelope;
}

function emit(error: ApiError, quiet = false): ApiError {
  if (!quiet) for (const listener of listeners) listener(error);
  return error;
}

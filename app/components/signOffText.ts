/**
 * Why a sign-off failed, in the console's language (spec 001 §4, §8). The server refuses with the texts
 * of adapters/signOff.ts, which are read back to the catalogue (common.signOff.refusals); an expired
 * login, a missing permission and a server fault read as the shell announces them (errors.*); any
 * other reason is shown as it came.
 */
import { ApiError } from '../../adapters/http';
import texts from './messages';

type Translate = (key: string, options?: Record<string, unknown>) => string;

const REFUSALS = new Map(Object.entries(texts['zh-CN'].common.signOff.refusals).map(([key, text]) => [text, `common.signOff.refusals.${key}`]));
const STATUS: Record<number, string> = { 700: 'errors.expired', 401: 'errors.noPermission', 500: 'errors.server' };

/** A refusal's text (one row of a batch sign-off answers its own `message`). */
export function signOffReason(translate: Translate, message: string): string {
  const known = REFUSALS.get(message);
  return known ? translate(known) : message;
}

/** What the sign-off dialog shows for the error its call threw. */
export function signOffFailure(translate: Translate, error: unknown): string {
  if (error instanceof ApiError && STATUS[error.status]) return translate(STATUS[error.status]);
  return signOffReason(translate, error instanceof Error ? error.message : String(error));
}

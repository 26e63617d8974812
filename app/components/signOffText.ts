/**
 * Why a sign-off failed, in the console's language (spec 001 §4, §8). The server refuses with the texts
 * of adapters/signOff.ts, which are read back to the catalogue (common.signOff.refusals); an expired
 * login, a missing permission and a server fault read as the shell announces them (errors.*); any
 * other reason is shown as it came.
 */
import { ApiError } from '../../adapters/http';
import texts from './messages';
import { readBack } from './serverText';

type Translate = (key: string, options?: Record<string, unknown>) => string;

const STATUS: Record<number, string> = { 700: 'errors.expired', 401: 'errors.noPermission', 500: 'errors.server' };

/** A refusal's text (one row of a batch sign-off answers its own `message`). */
export const signOffReason = readBack(texts['zh-CN'].common.signOff.refusals, 'common.signOff.refusals');

/** What the sign-off dialog shows for the error its call threw. */
export function signOffFailure(translate: Translate, error: unknown): string {
  if (error instanceof ApiError && STATUS[error.status]) return translate(STATUS[error.status]);
  return signOffReason(translate, error instanceof Error ? error.message : String(error));
}

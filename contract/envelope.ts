/**
 * The legacy envelope every call answers, `{ code, success, message, data }`, with the reason beside it
 * (docs/api.md, "Refusals and notices"): the server builds it (server/http/envelope.ts) and the console
 * reads it (adapters/http.ts).
 */
import type { AnsweredReason } from './reasons';

export interface Envelope<T = unknown> {
  code: number;
  success: boolean;
  message: string;
  data: T;
  /**
   * Why, by code, in the caller's language: on every refusal and on a notice other than the default.
   * Absent from a legacy backend's answers.
   */
  reason?: AnsweredReason;
}

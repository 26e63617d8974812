/** The legacy envelope and the three ways a call is refused (DESIGN.md §4). */
import type { RefusedField } from '../../adapters/refusal';

export interface Envelope<T = unknown> {
  code: number;
  success: boolean;
  message: string;
  data: T;
}

export function ok<T>(data: T, message = '操作成功'): Envelope<T> {
  return { code: 200, success: true, message, data };
}

/**
 * Bad input or a refused business rule: HTTP 200, code 400 (409 duplicate), the spec's message; a refusal
 * about one field of the body names it (adapters/refusal.ts), answered as the envelope's data.
 */
export class Refusal extends Error {
  constructor(message: string, readonly code = 400, readonly about?: RefusedField) {
    super(message);
  }
}

/** The caller lacks the permission code: HTTP 401. */
export class Forbidden extends Error {
  constructor(message = '没有操作权限') {
    super(message);
  }
}

/** No token, a bad one or an expired one: HTTP 700, and the console returns to the login page. */
export class LoginExpired extends Error {
  constructor(message = '登录已过期或无权访问，请重新登录') {
    super(message);
  }
}

export class NotFound extends Error {}

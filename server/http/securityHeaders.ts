/**
 * The security headers every answer carries (helmet's, with the console's content security policy).
 * They do not depend on the request, so they are worked out once at start and set by one hook:
 * @fastify/helmet built helmet's middleware again for every request, about 5 % of a cheap list call.
 */
import helmet, { type HelmetOptions } from 'helmet';

export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: () => undefined,
  };
  helmet(options)({} as never, recorder as never, () => undefined);
  return headers;
}

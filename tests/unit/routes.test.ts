/**
 * A domain module may be the first thing a script or a test imports: it reaches the generated route table
 * through the engine before its own exports exist, and the table must not read them until routes are
 * registered.
 */
import { sign } from '../../server/administration/feedback';
import { routes } from '../../server/generated/routes';
import { describe, expect, it } from 'vitest';

describe('the generated route table', () => {
  it('loads when a domain module is imported first and gives that module its handlers', () => {
    expect(routes.find((r) => r.path === '/biz/t-feedback/sign')?.handler).toBe(sign);
  });
});

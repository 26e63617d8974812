/**
 * Every call of contract/generated/calls.ts is served: each name's path under each declared method is a
 * route of the running server (the server also refuses to start with a declared call no module registers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from './harness';
import { calls } from '../../contract/generated/calls';

describe.each(backends)('calls by name on %s', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(backend);
  }, 60_000);
  afterAll(() => s?.close());

  it('serves every named call at its declared path and methods', () => {
    const routes = new Set(s.app.registeredRoutes.map((r) => `${r.method} ${r.url}`));
    const missing = Object.entries(calls).flatMap(([name, c]) =>
      c.methods.filter((m) => !routes.has(`${m} ${c.path.replace(/\{([^}]+)\}/g, ':$1')}`)).map((m) => `${name}: ${m} ${c.path}`),
    );
    expect(missing).toEqual([]);
  });
});

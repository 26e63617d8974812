/**
 * Every call the administrator's API document lists gets malformed requests (tests/api/malformed.ts):
 * about six thousand of them on the first database, seeded, over real HTTP with a few at a time. None may answer HTTP 5xx
 * or go unanswered; afterwards the server still answers a real list call, and its heap after a forced
 * collection is back near where it started. FUZZ_SEED replays another draw.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, backends, startServer, type TestServer } from './harness';
import { DESTRUCTIVE, malformedRequests, rawBodies, type MalformedRequest } from './malformed';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const CONCURRENCY = 8;
/** Longer than any refusal needs; a request still unanswered by then counts as a failure. */
const ANSWER_MS = 30_000;
/** undici's codes for a connection the other side closed or reset before any answer. */
const CLOSED_IDLE = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

function heapAfterGc(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

describe.each(backends)('malformed requests on %s', (backend) => {
  let s: TestServer;
  let adminId: number;

  beforeAll(async () => {
    s = await startServer(backend);
    [{ fId: adminId }] = await s.sql(`select f_id from t_sys_user where f_phone = '${ADMIN.phone}'`);
  }, 120_000);
  afterAll(() => s?.close());

  it('refuses every one without a server error, stays up and gives its memory back', async () => {
    let token = await s.token(adminId);
    const doc = await (await fetch(`${s.url}/openapi.json`, { headers: { authorization: token } })).json();
    // The full draw runs on the first database; the other gets every call with fewer variants each, since
    // what differs between them is only what the database itself refuses (and CI time is finite): most
    // raw bodies are refused before any handler runs. The full draw takes twelve of the raw bodies a call
    // and eight property variants (about 6,000 requests; every raw body and every variant a call made
    // 10,701 and took a sixth of the test run's time), the other four of each, every kind still sent to
    // some call on both.
    const full = backend === backends[0];
    const requests = malformedRequests(doc, { seed: SEED, perCall: full ? 8 : 4, rawPerCall: full ? 12 : 4 });
    const calls = new Set(requests.map((r) => r.call));
    // Every kind of raw body is sent on this database too (the limit in a label differs by call).
    const kind = (label: string) => label.replace(/ \(.*\)$/, '');
    const sent = new Set(requests.map((r) => kind(r.label)));
    expect(rawBodies(0).map((b) => kind(b.label)).filter((k) => !sent.has(k))).toEqual([]);
    expect(calls.size).toBe(Object.keys(doc.paths).length);
    if (full) expect(requests.length).toBeGreaterThanOrEqual(5_000);
    // Sessions end and passwords change only after everything else has run.
    const ordered = [...requests.filter((r) => !DESTRUCTIVE.test(r.call)), ...requests.filter((r) => DESTRUCTIVE.test(r.call))];

    const failures: string[] = [];
    let renewing: Promise<string> | null = null;
    let resent = 0;
    const send = async (r: MalformedRequest, again = true): Promise<void> => {
      const used = token;
      try {
        const res = await fetch(s.url + r.url, { method: r.method, headers: { ...r.headers, authorization: used }, body: r.body as BodyInit | undefined, signal: AbortSignal.timeout(ANSWER_MS) });
        const text = await res.text();
        if (res.status >= 500 && res.status < 600) failures.push(`${r.method} ${r.call} [${r.label}] → HTTP ${res.status} ${text.slice(0, 120)}`);
        // A logout or password change among them ended the session: carry on with a fresh token.
        if (res.status === 700 && used === token) token = await (renewing ??= s.token(adminId).finally(() => (renewing = null)));
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        // A kept-alive connection the server closed for idleness just as the client reused it (the client
        // stalled past its own idle limit on a busy machine): a browser sends such a request again, and so
        // does this test, once. A server that drops the request itself drops it again.
        if (again && CLOSED_IDLE.has(cause?.code ?? '')) {
          resent++;
          return send(r, false);
        }
        failures.push(`${r.method} ${r.call} [${r.label}] → no answer: ${(error as Error).message} (${cause?.code ?? ''} ${cause?.message ?? ''})`);
      }
    };

    // Warm-up: one of each call, so validators compiled and statements prepared on first use are not counted as growth.
    for (const call of calls) await send(ordered.find((r) => r.call === call)!);
    const before = heapAfterGc();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < ordered.length) await send(ordered[next++]);
      }),
    );
    const after = heapAfterGc();

    expect(failures, `${failures.length} of ${ordered.length} requests failed:\n${failures.slice(0, 40).join('\n')}`).toEqual([]);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    const list = await s.call('/biz/t-device/devices', { current: 1, size: 10 }, await s.token(adminId));
    expect(list.body).toMatchObject({ code: 200, success: true });
    // Back near the start: what the run leaves behind is bounded (rate-limit keys, statement statistics).
    const grown = (after - before) / 1024 / 1024;
    console.log(`${backend}: ${ordered.length} malformed requests over ${calls.size} calls; heap ${(before / 1048576).toFixed(0)} → ${(after / 1048576).toFixed(0)} MB; ${resent} sent again on a fresh connection`);
    expect(grown).toBeLessThan(32);
  }, 900_000);
});

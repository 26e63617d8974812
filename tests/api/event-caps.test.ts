/**
 * The live event stream's caps per user (server/devices/routes.ts): at most MAX_TICKETS_PER_USER unused
 * tickets, counted in the database across replicas (past it a ticket is refused with code 429), and at
 * most MAX_STREAMS_PER_USER open streams on one replica, where a new one closes the user's oldest after
 * telling it `superseded`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, USER, backends, startServer, until, type TestServer } from './harness';
import { MAX_STREAMS_PER_USER, MAX_TICKETS_PER_USER, TOO_MANY_TICKETS } from '../../server/devices/routes';

describe.each(backends)('event stream caps on %s', (backend) => {
  let s: TestServer;
  let user: string;
  let agent: string;
  let admin: string;
  let userId: number;

  beforeAll(async () => {
    s = await startServer(backend);
    [user, agent, admin] = [await s.login(USER), await s.login(AGENT), await s.login(ADMIN)];
    [{ fId: userId }] = await s.sql(`select f_id from t_sys_user where f_phone = '${USER.phone}'`);
  }, 120_000);
  afterAll(() => s?.close());

  const ticket = (token: string, server: Pick<TestServer, 'call'> = s) => server.call('/api/events/ticket', {}, token);

  /** Opens a stream and reads it; answers once its first event (the broker state) has arrived. */
  async function open(token: string, server: Pick<TestServer, 'call' | 'url'> = s) {
    const { ticket: t } = (await ticket(token, server)).body.data;
    const abort = new AbortController();
    const res = await fetch(`${server.url}/api/events?ticket=${t}`, { signal: abort.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const stream = { text: '', ended: false, close: () => abort.abort() };
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          stream.text += decoder.decode(value, { stream: true });
        }
      } catch {
        // Aborted by the test.
      }
      stream.ended = true;
    })();
    await until(async () => stream.text.includes('event: broker'));
    return stream;
  }

  it(`refuses a user's ticket past ${MAX_TICKETS_PER_USER} unused ones with code 429, across replicas; a spent or expired one frees its place`, async () => {
    await s.sql(`delete from t_event_ticket`);
    // Asked all at once: the places are taken one at a time, so exactly the cap's worth is given.
    const answers = await Promise.all(Array.from({ length: MAX_TICKETS_PER_USER + 5 }, () => ticket(user)));
    expect(answers.filter((a) => a.body.success)).toHaveLength(MAX_TICKETS_PER_USER);
    for (const a of answers.filter((x) => !x.body.success)) {
      expect(a.status).toBe(200);
      expect(a.body).toMatchObject({ code: 429, success: false, message: TOO_MANY_TICKETS });
    }
    expect(await s.sql(`select count(*)::int as n from t_event_ticket where user_id = ${userId}`)).toEqual([{ n: MAX_TICKETS_PER_USER }]);
    // Another replica counts the same rows.
    const replica = await s.replica();
    expect((await ticket(user, replica)).body).toMatchObject({ code: 429, message: TOO_MANY_TICKETS });
    // Another user is not held back by it.
    expect((await ticket(agent)).body.success).toBe(true);
    // A ticket spent on a stream leaves the count; so does an expired one.
    const held = answers.find((a) => a.body.success)!.body.data.ticket;
    const abort = new AbortController();
    const res = await fetch(`${s.url}/api/events?ticket=${held}`, { signal: abort.signal });
    expect(res.status).toBe(200);
    abort.abort();
    expect((await ticket(user)).body.success).toBe(true);
    expect((await ticket(user)).body).toMatchObject({ code: 429 });
    await s.sql(`update t_event_ticket set expires_at = now() - interval '1 second' where user_id = ${userId}`);
    expect((await ticket(user)).body.success).toBe(true);
    await s.sql(`delete from t_event_ticket`);
  });

  it(`keeps at most ${MAX_STREAMS_PER_USER} streams of a user on one replica: a new one closes the oldest, which is told why`, async () => {
    await s.sql(`delete from t_event_ticket`);
    const streams: Awaited<ReturnType<typeof open>>[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await open(admin));
    const others = [await open(agent)];
    const replica = await s.replica();
    const elsewhere = await open(admin, replica);
    expect(streams.some((x) => x.ended)).toBe(false);

    const newest = await open(admin);
    await until(async () => streams[0].ended);
    expect(streams[0].text).toMatch(/event: superseded\ndata: \{"max":10\}/);
    // Only the oldest went: the rest, the new one, another user's and the user's stream on another replica stay open.
    await new Promise((r) => setTimeout(r, 300));
    expect(streams.slice(1).map((x) => x.ended)).toEqual(Array(MAX_STREAMS_PER_USER - 1).fill(false));
    expect([newest.ended, others[0].ended, elsewhere.ended]).toEqual([false, false, false]);
    expect(streams.slice(1).some((x) => x.text.includes('superseded'))).toBe(false);

    // A stream the page closed itself frees its place: the next one closes nobody.
    streams[1].close();
    await new Promise((r) => setTimeout(r, 300));
    const next = await open(admin);
    await new Promise((r) => setTimeout(r, 300));
    expect(streams.slice(2).map((x) => x.ended)).toEqual(Array(MAX_STREAMS_PER_USER - 2).fill(false));
    for (const x of [...streams, newest, next, elsewhere, ...others]) x.close();
  });
});

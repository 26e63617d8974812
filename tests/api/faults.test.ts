/**
 * Faults with real server processes: SIGTERM and SIGKILL in the middle of a stream of writes, a rolling
 * restart of two replicas behind the cluster's proxy, and an MQTT broker that is away for 30 s. Whatever
 * happens, a write answered 200 is there afterwards, and is there once.
 */
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { ADMIN, backends, freshPostgres, until } from './harness';
import { copyPglite } from './template';
import { exited, freePort, startProcess, type Running } from './processes';

/** One call's fate as its caller saw it. */
type Answer = { status: number; body: { code: number; success: boolean; message: string; data: any } } | { error: string };

/**
 * A POST on a connection of its own, so a failure is the call's own: ECONNREFUSED means no server took
 * the connection; a reset or hang-up means one did and never answered.
 */
function post(url: string, path: string, body: unknown, token?: string): Promise<Answer> {
  const text = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = request(url + path, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...(token ? { authorization: token } : {}) } }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (data += d));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode!, body: JSON.parse(data) });
        } catch {
          resolve({ error: `HTTP ${res.statusCode} without an envelope: ${data.slice(0, 80)}` });
        }
      });
      res.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.end(text);
  });
}

async function login(url: string): Promise<string> {
  const answer = await post(url, '/login', { userName: ADMIN.phone, password: ADMIN.password });
  if ('error' in answer || !answer.body.success) throw new Error(`login: ${JSON.stringify(answer)}`);
  return answer.body.data.token;
}

interface Write {
  name: string;
  answer: Answer;
}

const saved = (w: Write) => !('error' in w.answer) && w.answer.status === 200 && w.answer.body.success;
const restarting = (w: Write) => !('error' in w.answer) && w.answer.status === 503;

/**
 * A few administrators saving groups with names of their own, each one call after the other, until told
 * to stop. `untilDown`: a writer stops at the first call the server refuses or leaves unanswered, as a
 * console would wait for the server to come back.
 */
function writeStream(url: string, token: string, prefix: string, options: { writers?: number; untilDown?: boolean } = {}) {
  const writes: Write[] = [];
  let stopped = false;
  const writer = async (w: number) => {
    for (let i = 0; !stopped; i++) {
      const name = `${prefix}-${w}-${i}`;
      const answer = await post(url, '/biz/t-group/addorupdate', { fName: name }, token);
      writes.push({ name, answer });
      if (options.untilDown && !saved({ name, answer })) return;
    }
  };
  const done = Promise.all(Array.from({ length: options.writers ?? 4 }, (_, w) => writer(w)));
  return {
    writes,
    acknowledged: () => writes.filter(saved).length,
    stop: async () => {
      stopped = true;
      await done;
      return writes;
    },
    done,
  };
}

/** How many groups bear each name (the administrator sees them all). */
async function groupNames(url: string, token: string): Promise<Map<string, number>> {
  const answer = await post(url, '/biz/t-group/groups', { current: 1, size: 100000, condition: {} }, token);
  if ('error' in answer || !answer.body.success) throw new Error(`groups: ${JSON.stringify(answer)}`);
  const names = new Map<string, number>();
  for (const g of answer.body.data.records as { fName: string }[]) names.set(g.fName, (names.get(g.fName) ?? 0) + 1);
  return names;
}

describe.each(backends)('SIGTERM and SIGKILL in the middle of a stream of writes on %s', (backend) => {
  it('keeps every write answered 200, answers the envelope while stopping, and reopens after SIGKILL', { timeout: 300_000 }, async () => {
    const templates = inject('templates');
    const dataDir = mkdtempSync(join(tmpdir(), 'iot-faults-'));
    if (backend === 'pglite') copyPglite(templates, dataDir);
    const pgdb = backend === 'postgres' ? await freshPostgres(templates.postgres) : undefined;
    const env: NodeJS.ProcessEnv = {
      ...process.env, DATA_DIR: dataDir, DATABASE_URL: pgdb?.url ?? '', MQTT_URL: '', MQTT_PORT: String(await freePort()), PORT: String(await freePort()), HOST: '127.0.0.1',
      SHUTDOWN_DRAIN_MS: '1000', SIMULATOR: 'off', SERVE_CONSOLE: '0', SKIP_CONSOLE_BUILD: '1', LOG_LEVEL: 'warn',
    };
    let server: Running | undefined;
    try {
      // SIGTERM: the calls under way finish, the ones after are refused with the envelope.
      server = await startProcess(env);
      const term = writeStream(server.url, await login(server.url), 'term', { untilDown: true });
      await until(async () => term.acknowledged() >= 40, 60_000);
      server.child.kill('SIGTERM');
      const [termWrites] = await Promise.all([term.done.then(() => term.writes), exited(server.child)]);
      expect(server.child.exitCode).toBe(0);
      const unexpected = termWrites.filter((w) => !saved(w) && !restarting(w) && !('error' in w.answer && w.answer.error === 'ECONNREFUSED'));
      expect(unexpected).toEqual([]);
      const refused = termWrites.filter(restarting);
      expect(refused.length).toBeGreaterThan(0);
      for (const w of refused) expect('body' in w.answer && w.answer.body).toMatchObject({ code: 503, success: false, message: expect.stringMatching(/重启/) });

      // SIGKILL: nothing is answered any more; what was answered 200 was committed.
      server = await startProcess(env);
      const kill = writeStream(server.url, await login(server.url), 'kill', { untilDown: true });
      await until(async () => kill.acknowledged() >= 40, 60_000);
      server.child.kill('SIGKILL');
      const [killWrites] = await Promise.all([kill.done.then(() => kill.writes), exited(server.child)]);

      // The same database opens again, the embedded one included.
      server = await startProcess(env);
      const names = await groupNames(server.url, await login(server.url));
      const lost = [...termWrites, ...killWrites].filter((w) => saved(w) && names.get(w.name) !== 1).map((w) => w.name);
      const appliedWhenRefused = refused.filter((w) => names.has(w.name)).map((w) => w.name);
      const twice = [...names].filter(([n, count]) => /^(term|kill)-/.test(n) && count > 1).map(([n]) => n);
      expect({ lost, appliedWhenRefused, twice }).toEqual({ lost: [], appliedWhenRefused: [], twice: [] });
      expect(killWrites.filter(saved).length).toBeGreaterThanOrEqual(40);
    } finally {
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await exited(server.child);
      }
      await pgdb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

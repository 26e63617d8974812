/**
 * A server killed with SIGKILL in the middle of a QoS 1 stream loses nothing: it acknowledges a message
 * to the broker only once stored, and the installation's persistent ingest session makes the broker deliver
 * the rest (and the unacknowledged ones again) after the restart. Readings the broker redelivers are stored once, so every
 * message is stored exactly once. Needs an external broker (MQTT_URL): the embedded one dies with the process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import mqtt from 'mqtt';
import { ADMIN, backends, freshPostgres, until } from './harness';
import { copyPglite } from './template';
import { exited, freePort, startProcess, type ServerProcess } from './processes';
import { reading, storedReadings } from './readings';

const DEVICE = 'DEV000001';
const M = 1500;

const tokens = new Map<string, string>();

/** Telemetry messages of the device in the message log (each delivery is logged, a redelivery too). */
async function logged(url: string): Promise<number> {
  const post = (path: string, body: unknown, token?: string) =>
    fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) }, body: JSON.stringify(body) }).then((r) => r.json());
  if (!tokens.has(url)) tokens.set(url, (await post('/login', { userName: ADMIN.phone, password: ADMIN.password })).data.token);
  const page = await post('/biz/t-emq-message-publish/records', { current: 1, size: 1, condition: { deviceNumber: DEVICE, type: 'telemetry' } }, tokens.get(url));
  return page.data.total as number;
}

describe.skipIf(!process.env.MQTT_URL).each(backends)('SIGKILL in the middle of a QoS 1 stream on %s', (backend) => {
  it('stores every message the broker accepted exactly once after the restart', { timeout: 240_000 }, async () => {
    const templates = inject('templates');
    const dataDir = mkdtempSync(join(tmpdir(), 'iot-kill-'));
    if (backend === 'pglite') copyPglite(templates, dataDir);
    const pgdb = backend === 'postgres' ? await freshPostgres(templates.postgres) : undefined;
    const tag = `${process.pid}-${Date.now()}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env, DATA_DIR: dataDir, DATABASE_URL: pgdb?.url ?? '', MQTT_URL: process.env.MQTT_URL, PORT: String(await freePort()), HOST: '127.0.0.1',
      MQTT_CLIENT_ID: `kill-${tag}`, MQTT_INGEST_CLIENT_ID: `kill-ingest-${tag}`, SIMULATOR: 'off', SERVE_CONSOLE: '0', SKIP_CONSOLE_BUILD: '1', LOG_LEVEL: 'warn',
    };
    const publisher = await mqtt.connectAsync(process.env.MQTT_URL!, { protocolVersion: 5, clientId: `kill-pub-${tag}` });
    let server: ServerProcess | undefined;
    try {
      server = await startProcess(env);
      const base = Date.now() - 86_400_000;
      const topic = `dev/P1/${DEVICE}/up`;
      const message = (i: number) => reading(DEVICE, base, i);
      // The first message shows the server's subscription is in place.
      await publisher.publishAsync(topic, message(0), { qos: 1 });
      const running = server;
      await until(async () => (await logged(running.url)) >= 1, 20_000);

      // About 1500 messages a second; the server dies once some of them are stored. Fewer than 1000 follow
      // while it is down: Mosquitto keeps at most max_queued_messages (1000) for an absent client.
      const sends: Promise<unknown>[] = [];
      let killedAt = -1;
      for (let i = 1; i < M; i++) {
        sends.push(publisher.publishAsync(topic, message(i), { qos: 1 }));
        if (i % 15 === 0) await new Promise((r) => setTimeout(r, 10));
        if (killedAt < 0 && i >= M - 600 && i % 50 === 0 && (await logged(running.url)) >= 300) {
          running.child.kill('SIGKILL');
          killedAt = i;
        }
      }
      await Promise.all(sends);
      expect(killedAt).toBeGreaterThan(0);
      expect(killedAt).toBeLessThan(M - 1);
      await exited(running.child);

      server = await startProcess(env);
      const again = server;
      // Redeliveries are logged as well, so the log reaches M before the last messages are in: wait
      // until it has also stopped growing.
      let last = -1;
      let steadySince = Date.now();
      await until(async () => {
        const n = await logged(again.url);
        if (n !== last) [last, steadySince] = [n, Date.now()];
        return n >= M && Date.now() - steadySince >= 3000;
      }, 90_000).catch(() => undefined);
      again.child.kill('SIGTERM');
      await exited(again.child);
      server = undefined;

      const stored = await storedReadings({ dataDir, databaseUrl: pgdb?.url }, DEVICE, base, M);
      expect(stored).toEqual({ missing: [], twice: [], rows: M });
    } finally {
      server?.child.kill('SIGKILL');
      await publisher.endAsync();
      // The broker's sessions of the killed server are no longer needed.
      for (const clientId of [`kill-${tag}`, `kill-ingest-${tag}`]) {
        const ending = await mqtt.connectAsync(process.env.MQTT_URL!, { protocolVersion: 5, clientId, clean: true, properties: { sessionExpiryInterval: 0 } });
        await ending.endAsync();
      }
      await pgdb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

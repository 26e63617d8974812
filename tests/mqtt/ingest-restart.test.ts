/**
 * The ingest session across a Mosquitto restart: a persistent session with a plain subscription to `up`,
 * one client id for the installation. What devices publish while no client holds the session — after the
 * broker came back, before any replica reconnected — is queued for it, and the next client that opens it
 * (another process, with the same client id) receives all of it, in order. A shared subscription lost
 * exactly these messages: Mosquitto 2.0.11 brings it back from persistence delivering nothing, and the
 * group has no member until a replica subscribes again.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { DeviceTransport } from '../../server/mqtt/transport.js';
import { deviceTopic } from '../../server/mqtt/topics.js';
import { eventually, runTag } from './helpers.js';
import { MOSQUITTO, startMosquitto, stopMosquitto } from './own-mosquitto.js';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

describe.skipIf(!existsSync(MOSQUITTO))('the ingest session across a Mosquitto restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iot-ingest-session-'));
  let broker: ChildProcess | undefined;
  const open: DeviceTransport[] = [];
  afterAll(async () => {
    for (const t of open) await t.close();
    if (broker) await stopMosquitto(broker);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps what devices publish while no client holds it, for the next one', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const url = `mqtt://127.0.0.1:${port}`;
    const tag = runTag();
    broker = await startMosquitto(dir, port);
    const received: number[] = [];
    const ingest = () => {
      const t = new DeviceTransport({ url, protocolVersion: 5, channels: ['up'], clientId: `ingest-${tag}`, persistentSession: true, reconnectPeriodMs: 200 });
      t.on('message', (m) => m.direction === 'up' && received.push(JSON.parse(m.payload).seq));
      open.push(t);
      return t;
    };
    const first = ingest();
    await first.connect();
    const device = await mqtt.connectAsync(url, { protocolVersion: 5, clientId: `ingest-dev-${tag}`, reconnectPeriod: 200 });
    const topic = deviceTopic('P-INGEST', `ING-${tag}`, 'up');
    const publish = (seq: number) => device.publishAsync(topic, JSON.stringify({ bid: 'telemetry', seq, ts: Date.now(), voltage: 220 }), { qos: 1 });
    for (let i = 0; i < 10; i++) await publish(i);
    await eventually(() => received.length === 10, 5000, 'messages before the restart');
    // Their acknowledgements reach the broker (those that do not are delivered again, as they should be).
    await new Promise((r) => setTimeout(r, 500));

    // The broker stops, and the session's holder goes away meanwhile (its replica stopped or was killed).
    await stopMosquitto(broker);
    await first.close();
    broker = await startMosquitto(dir, port);
    await eventually(() => device.connected, 10_000, 'device reconnected');
    for (let i = 100; i < 120; i++) await publish(i);

    // Another holder of the same session gets all of them, in order.
    await ingest().connect();
    await eventually(() => received.length === 30, 5000, 'queued messages').catch(() => undefined);
    expect(received).toEqual([...Array.from({ length: 10 }, (_, i) => i), ...Array.from({ length: 20 }, (_, i) => 100 + i)]);
    await device.endAsync(true);
  });
});

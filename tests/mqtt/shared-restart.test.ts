/**
 * Two replicas on a shared subscription of a persistent Mosquitto that restarts: Mosquitto 2.0.11 brings
 * their sessions back (session present) with the shared subscription listed but delivering nothing, and
 * takes a plain second SUBSCRIBE of it as one it already has. The transport makes it again, so the
 * replicas go on receiving every message published once they have reconnected.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { DeviceTransport, type TransportState } from '../../server/mqtt/transport.js';
import { deviceTopic } from '../../server/mqtt/topics.js';
import { eventually, runTag } from './helpers.js';

const MOSQUITTO = '/usr/sbin/mosquitto';

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** A Mosquitto of the test's own (the machine's broker serves others), persistent across its restart. */
async function mosquitto(dir: string, port: number): Promise<ChildProcess> {
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'persistence true', `persistence_location ${dir}/`, ...(process.getuid?.() === 0 ? ['user root'] : [])].join('\n') + '\n');
  const child = spawn(MOSQUITTO, ['-c', conf], { stdio: 'ignore' });
  let up = false;
  for (let i = 0; i < 100 && !up; i++) {
    up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (!up) await new Promise((r) => setTimeout(r, 100));
  }
  return child;
}

const stopped = (child: ChildProcess) => new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));

describe.skipIf(!existsSync(MOSQUITTO))('shared subscription across a Mosquitto restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'iot-share-'));
  let broker: ChildProcess | undefined;
  const replicas: DeviceTransport[] = [];
  afterAll(async () => {
    for (const r of replicas) await r.close();
    broker?.kill('SIGTERM');
    if (broker) await stopped(broker);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the replicas receive what devices publish after they reconnected', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const url = `mqtt://127.0.0.1:${port}`;
    const tag = runTag();
    broker = await mosquitto(dir, port);
    const received = new Set<number>();
    const states: TransportState[][] = [];
    for (const name of ['a', 'b']) {
      const t = new DeviceTransport({ url, protocolVersion: 5, clientId: `share-${name}-${tag}`, persistentSession: true, shareGroup: `share-${tag}` });
      const seen: TransportState[] = [];
      states.push(seen);
      t.on('state', (s) => seen.push(s));
      t.on('message', (m) => m.direction === 'up' && received.add(JSON.parse(m.payload).seq));
      replicas.push(t);
    }
    await Promise.all(replicas.map((r) => r.connect()));
    const device = await mqtt.connectAsync(url, { protocolVersion: 5, clientId: `share-dev-${tag}`, reconnectPeriod: 200 });
    const topic = deviceTopic('P-SHARE', `SHR-${tag}`, 'up');
    const publish = (seq: number) => device.publishAsync(topic, JSON.stringify({ bid: 'telemetry', seq, ts: Date.now(), voltage: 220 }), { qos: 1 });
    for (let i = 0; i < 10; i++) await publish(i);
    await eventually(() => received.size === 10, 5000, 'messages before the restart');

    broker.kill('SIGTERM');
    await stopped(broker);
    broker = await mosquitto(dir, port);
    // Both replicas back (their sessions present), and a moment for their subscriptions to be answered.
    await eventually(() => states.every((s) => s.at(-1) === 'connected' && s.includes('reconnecting')), 15_000, 'replicas reconnected');
    await eventually(() => device.connected, 5000, 'device reconnected');
    await new Promise((r) => setTimeout(r, 500));
    for (let i = 100; i < 120; i++) await publish(i);
    await eventually(() => [...received].filter((s) => s >= 100).length === 20, 5000, 'messages after the restart').catch(() => undefined);
    expect([...received].filter((s) => s >= 100).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => 100 + i));
    await device.endAsync(true);
  });
});

/**
 * Against a real MQTT 5 broker (e.g. the machine's Mosquitto): MQTT_URL=mqtt://127.0.0.1:1883.
 * Skipped when MQTT_URL is not set.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { DeviceTransport, type TelemetryEvent, type AckEvent } from '../../server/mqtt/transport.js';
import { startSimulator, type SimulatorHandle } from '../../server/simulator/simulator.js';
import { deviceSuite } from './suite.js';
import { clearRetained, eventually, runTag } from './helpers.js';

const url = process.env.MQTT_URL;

if (url) {
  deviceSuite(`devices on ${url} (MQTT 5)`, { url: () => url, expectedProtocol: 5, cleanRetained: true });
}

describe.skipIf(!url)('replicas on a real MQTT 5 broker', () => {
  const tag = runTag();
  const device = { productNumber: 'P5', deviceNumber: `REP${tag}`, type: 5 as const };
  let sim: SimulatorHandle | undefined;
  const replicas: DeviceTransport[] = [];
  let ingest: DeviceTransport | undefined;

  afterAll(async () => {
    await Promise.all([...replicas, ...(ingest ? [ingest] : [])].map((r) => r.close()));
    await sim?.stop();
    if (url) await clearRetained(url, [device]);
  });

  it('hands device messages to the ingest connection only and each ack to its sender', async () => {
    // Each replica's own connection reads acks and statuses; the leader's ingest connection reads `up`.
    for (let i = 0; i < 2; i++) {
      const r = new DeviceTransport({ url: url!, channels: ['ack', 'status'], reconnectPeriodMs: 100 });
      await r.connect({ waitMs: 5000 });
      expect(r.protocolVersion).toBe(5);
      replicas.push(r);
    }
    ingest = new DeviceTransport({ url: url!, channels: ['up'], reconnectPeriodMs: 100 });
    await ingest.connect({ waitMs: 5000 });
    const seen: TelemetryEvent[][] = [[], [], []];
    const acks: AckEvent[][] = [[], []];
    [...replicas, ingest].forEach((r, i) => r.on('telemetry', (t) => t.deviceNumber === device.deviceNumber && seen[i].push(t)));
    replicas.forEach((r, i) => r.on('ack', (a) => acks[i].push(a)));
    sim = await startSimulator({ url: url!, devices: [device], telemetryMs: 100 });
    await eventually(() => seen[2].length >= 10, 5000, 'ten samples');
    expect(seen[0].length + seen[1].length).toBe(0);
    const ts = seen[2].map((t) => t.ts);
    expect(ts).toEqual([...ts].sort((a, b) => a - b));

    const ack = await replicas[1].sendCommand(device.productNumber, device.deviceNumber, { bid: 'switch', value: 0 }, { timeoutMs: 2000 });
    expect(ack.ack).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(acks[1].map((a) => a.ack.mid)).toContain(ack.mid);
    expect(acks[0]).toHaveLength(0);
  });
});

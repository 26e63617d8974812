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

describe.skipIf(!url)('replicas sharing a real MQTT 5 broker', () => {
  const tag = runTag();
  const device = { productNumber: 'P5', deviceNumber: `REP${tag}`, type: 5 as const };
  let sim: SimulatorHandle | undefined;
  const replicas: DeviceTransport[] = [];

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await sim?.stop();
    if (url) await clearRetained(url, [device]);
  });

  it('hands each device message to one replica and each ack to its sender', async () => {
    for (let i = 0; i < 2; i++) {
      const r = new DeviceTransport({ url: url!, shareGroup: `grp${tag}`, reconnectPeriodMs: 100 });
      await r.connect({ waitMs: 5000 });
      expect(r.protocolVersion).toBe(5);
      replicas.push(r);
    }
    const seen: TelemetryEvent[][] = [[], []];
    const acks: AckEvent[][] = [[], []];
    replicas.forEach((r, i) => {
      r.on('telemetry', (t) => t.deviceNumber === device.deviceNumber && seen[i].push(t));
      r.on('ack', (a) => acks[i].push(a));
    });
    sim = await startSimulator({ url: url!, devices: [device], telemetryMs: 100 });
    await eventually(() => seen[0].length + seen[1].length >= 10, 5000, 'ten samples');
    const all = [...seen[0], ...seen[1]].map((t) => t.ts);
    // Shared subscription: no sample delivered twice.
    expect(new Set(all).size).toBe(all.length);

    const ack = await replicas[1].sendCommand(device.productNumber, device.deviceNumber, { bid: 'switch', value: 0 }, { timeoutMs: 2000 });
    expect(ack.ack).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(acks[1].map((a) => a.ack.mid)).toContain(ack.mid);
    expect(acks[0]).toHaveLength(0);
  });
});

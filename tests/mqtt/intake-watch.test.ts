/**
 * Overload is never silent (server/monitor/intake.ts): against a Mosquitto of the test's own whose session
 * queues hold 50 messages and which reports on itself every second, a persistent session that is away while
 * 500 QoS 1 messages are published for it loses 450 — and the watch reads the broker's dropped count and
 * raises the alarm with it; an intake whose oldest waiting message is past the limit raises the lag alarm,
 * once until it comes back under.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { until } from '../api/harness';
import { freePort } from '../api/processes';
import { MOSQUITTO, startMosquitto, stopMosquitto } from './own-mosquitto';
import { watchIntake, type IntakeAlarm } from '../../server/monitor/intake';
import type { IntakeCounts } from '../../server/devices/ingest';
import { existsSync } from 'node:fs';

describe.skipIf(!existsSync(MOSQUITTO))('the broker and intake watch (Mosquitto)', () => {
  it('reports the messages the broker dropped for a full session queue, and a lagging intake, to administrators', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'iot-intake-'));
    const port = await freePort();
    const broker = await startMosquitto(dir, port, { max_queued_messages: 50, sys_interval: 1 });
    const url = `mqtt://127.0.0.1:${port}`;
    const alarms: IntakeAlarm[] = [];
    const counts: IntakeCounts = { offered: 0, stored: 0, waiting: 0, lagMs: 0 };
    const watch = watchIntake({ brokerUrl: url, clientId: 'intake-test', counts: () => ({ ...counts }), lagAlarmMs: 10_000, raise: async (a) => void alarms.push(a) });
    try {
      // The ingest session subscribes, then is away.
      const session = await mqtt.connectAsync(url, { protocolVersion: 5, clientId: 'intake-test-ingest', clean: false, properties: { sessionExpiryInterval: 3600 } });
      await session.subscribeAsync('dev/+/+/up', { qos: 1 });
      await session.endAsync();
      await until(async () => watch.broker().dropped !== null, 15_000);
      expect(watch.broker()).toMatchObject({ connected: true, reported: true, dropped: 0 });

      const device = await mqtt.connectAsync(url, { protocolVersion: 5, clientId: 'intake-test-device' });
      await Promise.all(Array.from({ length: 500 }, (_, i) => device.publishAsync('dev/P1/D1/up', JSON.stringify({ i }), { qos: 1 })));
      await device.endAsync();
      const dropped = await until(async () => alarms.find((a) => a.kind === 'dropped'), 20_000);
      expect(dropped).toEqual({ kind: 'dropped', count: 450 });
      expect(watch.broker().dropped).toBe(450);

      // The intake falls behind: one alarm, not one per check; again only after it caught up.
      Object.assign(counts, { offered: 100, waiting: 100, lagMs: 12_000 });
      await until(async () => alarms.find((a) => a.kind === 'lagging'), 10_000);
      await new Promise((r) => setTimeout(r, 6000));
      expect(alarms.filter((a) => a.kind === 'lagging')).toEqual([{ kind: 'lagging', seconds: 12, limit: 10 }]);
      expect(watch.intake()).toMatchObject({ waiting: 100, lagMs: 12_000, lagAlarmMs: 10_000 });
    } finally {
      await watch.stop();
      await stopMosquitto(broker);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

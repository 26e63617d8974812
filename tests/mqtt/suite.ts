/**
 * The transport and the simulator together on a live broker. Run against the embedded broker and,
 * when MQTT_URL is set, against a real MQTT 5 broker.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DeviceTransport, CommandError, type StatusEvent, type TelemetryEvent, type AlarmEvent, type ProgressEvent, type AckEvent, type MessageEvent } from '../../server/mqtt/transport.js';
import { startSimulator, type SimulatorHandle } from '../../server/simulator/simulator.js';
import type { DeviceSpec } from '../../server/simulator/device.js';
import { clearRetained, eventually, nextEvent, runTag } from './helpers.js';

export interface BrokerUnderTest {
  url(): string;
  expectedProtocol: 4 | 5;
  /** Remove leftovers on a broker that outlives the test run. */
  cleanRetained?: boolean;
}

export function deviceSuite(name: string, broker: BrokerUnderTest): void {
  describe(name, () => {
    const tag = runTag();
    const n = (s: string) => `${s}${tag}`;
    const specs: DeviceSpec[] = [
      { productNumber: 'P6', deviceNumber: n('BRK'), type: 6 },
      { productNumber: 'P2', deviceNumber: n('GW'), type: 2, children: [n('CHA'), n('CHB')] },
      { productNumber: 'P4', deviceNumber: n('G4'), type: 4, children: [{ deviceNumber: n('CHC'), type: 1 }] },
      { productNumber: 'P5', deviceNumber: n('WIFI'), type: 5 },
      { productNumber: 'P3', deviceNumber: n('LTE'), type: 3 },
      { productNumber: 'P1', deviceNumber: n('RS'), type: 1 },
    ];
    const [BRK, GW, G4, WIFI, LTE, RS] = specs;
    let sim: SimulatorHandle;
    let transport: DeviceTransport;
    const statuses: StatusEvent[] = [];
    const telemetry: TelemetryEvent[] = [];
    const messages: MessageEvent[] = [];

    beforeAll(async () => {
      sim = await startSimulator({
        url: broker.url(),
        devices: specs,
        telemetryMs: 150,
        upgradeStepMs: 20,
        rebootMs: 50,
        reconnectPeriodMs: 100,
      });
      transport = new DeviceTransport({ url: broker.url(), reconnectPeriodMs: 100, commandTimeoutMs: 2000 });
      transport.on('status', (s) => statuses.push(s));
      transport.on('telemetry', (t) => telemetry.push(t));
      transport.on('message', (m) => messages.push(m));
      await transport.connect({ waitMs: 5000 });
    });

    afterAll(async () => {
      await transport?.close();
      await sim?.stop();
      if (broker.cleanRetained) {
        await clearRetained(broker.url(), specs.flatMap((s) => [s, ...(s.children ?? []).map((c) => ({ productNumber: s.productNumber, deviceNumber: typeof c === 'string' ? c : c.deviceNumber }))]));
      }
    });

    const send = (spec: DeviceSpec, command: Parameters<DeviceTransport['sendCommand']>[2], timeoutMs = 2000) =>
      transport.sendCommand(spec.productNumber, spec.deviceNumber, command, { timeoutMs });

    it('speaks the expected protocol level', () => {
      expect(transport.state).toBe('connected');
      expect(transport.protocolVersion).toBe(broker.expectedProtocol);
      expect(sim.protocolVersion).toBe(broker.expectedProtocol);
    });

    it('sees every device online through the retained status, gateway children included', async () => {
      const all = [BRK, GW, G4, WIFI, LTE, RS].map((s) => s.deviceNumber).concat([n('CHA'), n('CHB'), n('CHC')]);
      await eventually(() => all.every((d) => statuses.some((s) => s.deviceNumber === d && s.online)), 3000, 'all online');
      expect(statuses.find((s) => s.deviceNumber === n('CHA'))).toMatchObject({ gateway: GW.deviceNumber, online: true });
      expect(statuses.find((s) => s.deviceNumber === BRK.deviceNumber)).toMatchObject({ type: 6, version: '1.0.0' });
    });

    it('receives periodic telemetry with plausible, increasing values', async () => {
      const of = (d: string) => telemetry.filter((t) => t.deviceNumber === d);
      await eventually(() => of(WIFI.deviceNumber).length >= 3 && of(n('CHC')).length >= 2, 3000, 'telemetry');
      const samples = of(WIFI.deviceNumber);
      const [a, b] = [samples[0].readings, samples.at(-1)!.readings];
      expect(a.voltage).toBeGreaterThan(200);
      expect(a.voltage).toBeLessThan(240);
      expect(a.current).toBeGreaterThan(0);
      expect(a.power).toBeGreaterThan(0);
      expect(a.temperature).toBeGreaterThan(20);
      expect(a.leakage).toBeGreaterThanOrEqual(0);
      expect(b.energy).toBeGreaterThan(a.energy);
      expect(of(n('CHC'))[0]).toMatchObject({ gateway: G4.deviceNumber, productNumber: 'P4' });
    });

    it('switches, locks (held closed, switching refused) and unlocks', async () => {
      const off = await send(WIFI, { bid: 'switch', value: 0 });
      expect(off).toMatchObject({ ack: true, bid: 'switch', ClientID: WIFI.deviceNumber, state: { switch: 0 } });
      expect(off.message).toContain('成功');
      expect(sim.device(WIFI.deviceNumber)!.switch).toBe(0);
      const offReading = await nextEvent<TelemetryEvent>(transport, 'telemetry', (t) => t.deviceNumber === WIFI.deviceNumber);
      expect(offReading.readings).toMatchObject({ switch: 0, current: 0, power: 0 });

      expect(await send(WIFI, { bid: 'lock', value: 1 })).toMatchObject({ ack: true, state: { switch: 1, lock: 1 } });
      const refused = await send(WIFI, { bid: 'switch', value: 0 });
      expect(refused).toMatchObject({ ack: false, code: 'locked' });
      expect(refused.message).not.toContain('成功');
      expect(sim.device(WIFI.deviceNumber)!.switch).toBe(1);
      expect(await send(WIFI, { bid: 'lock', value: 0 })).toMatchObject({ ack: true, state: { lock: 0 } });
      expect(await send(WIFI, { bid: 'switch', value: 0 })).toMatchObject({ ack: true });
      expect(await send(WIFI, { bid: 'switch', value: 1 })).toMatchObject({ ack: true, state: { switch: 1 } });
    });

    it('sets and reads gateway thresholds, refusing out-of-range values', async () => {
      const bad = await send(GW, { bid: 'set-threshold', time: 30, tHi: 70 });
      expect(bad).toMatchObject({ ack: false, code: 'out-of-range' });
      expect(bad.message).toContain('time');
      const good = await send(GW, { bid: 'set-threshold', time: 600, iMut: 2000, tHi: 90, tMut: 5, iHi: 60, buad: 9600, protocl: 2, eMut: 500, onOff: 0, alm: 1, mode: 1 });
      expect(good).toMatchObject({ ack: true, state: { time: 600, tHi: 90, buad: 9600, mode: 1 } });
      expect(sim.device(GW.deviceNumber)!.thresholds).toMatchObject({ iMut: 2000, protocl: 2 });
      expect(await send(GW, { bid: 'read-threshold' })).toMatchObject({ ack: true, state: { time: 600, eMut: 500 } });
      expect(await send(WIFI, { bid: 'set-threshold', tHi: 80 })).toMatchObject({ ack: false, code: 'unsupported' });
    });

    it('runs the gateway abilities 414 password, 415 clear data, 416 time sync', async () => {
      expect(await send(G4, { bid: 414, password: '9999', newPassword: '4321' })).toMatchObject({ ack: false, code: 'bad-password' });
      expect(await send(G4, { bid: 414, password: '1234', newPassword: '4321' })).toMatchObject({ ack: true });
      expect(sim.device(G4.deviceNumber)!.password).toBe('4321');
      expect(await send(G4, { bid: 415 })).toMatchObject({ ack: true, state: { energy: 0 } });
      const afterClear = await nextEvent<TelemetryEvent>(transport, 'telemetry', (t) => t.deviceNumber === G4.deviceNumber);
      expect(afterClear.readings.energy).toBeLessThan(0.01);
      const time = Date.parse('2030-01-01T00:00:00Z');
      expect(await send(G4, { bid: 416, time })).toMatchObject({ ack: true, state: { time } });
      expect(sim.device(G4.deviceNumber)!.clockOffsetMs).toBeGreaterThan(0);
      expect(sim.device(n('CHC'))!.clockOffsetMs).toBe(sim.device(G4.deviceNumber)!.clockOffsetMs);
    });

    it('drives the type-6 motor only with the device password', async () => {
      expect(await send(BRK, { bid: 'motor', onOff: 0, password: '0000' })).toMatchObject({ ack: false, code: 'bad-password' });
      expect(sim.device(BRK.deviceNumber)!.switch).toBe(1);
      const off = await send(BRK, { bid: 'motor', onOff: 0, password: '1234' });
      expect(off).toMatchObject({ ack: true, state: { switch: 0 } });
      expect(sim.device(BRK.deviceNumber)!.switch).toBe(0);
      expect(await send(BRK, { bid: 'motor', onOff: 1, password: '1234' })).toMatchObject({ ack: true, state: { switch: 1 } });
      expect(await send(LTE, { bid: 'motor', onOff: 1, password: '1234' })).toMatchObject({ ack: false, code: 'unsupported' });
    });

    it('sets and reads breaker protection parameters and calibration coefficients', async () => {
      const read = await send(BRK, { bid: 'read-parameter' });
      expect(read.state).toMatchObject({ baud: 115200, iz: 30, ov1: 260000, ov2: 280000, uv1: 180000, uv2: 160000, oi1: 90000, oi2: 100000, Ue: 220000, Ie: 80000, Pe: 17600, v_unbalance: 10 });
      expect(await send(BRK, { bid: 'set-parameter', params: { ov1: 0 } })).toMatchObject({ ack: false, code: 'out-of-range' });
      expect(await send(BRK, { bid: 'set-parameter', params: { ov1: 250000, ov_alm_en: 0 } })).toMatchObject({ ack: true, state: { ov1: 250000, ov_alm_en: 0 } });
      expect(sim.device(BRK.deviceNumber)!.protection.ov1).toBe(250000);
      await send(BRK, { bid: 'set-parameter', params: { ov1: 260000, ov_alm_en: 1 } });

      const cal = await send(BRK, { bid: 'read-calibration' });
      expect(Object.keys(cal.state!)).toHaveLength(19);
      expect(cal.state).toMatchObject({ va_k: 1000, tn_k: 1000 });
      expect(await send(BRK, { bid: 'set-calibration', params: { va_k: 1010 } })).toMatchObject({ ack: true, state: { va_k: 1010 } });
      expect(await send(BRK, { bid: 'set-calibration', params: { zz_k: 1 } })).toMatchObject({ ack: false, code: 'out-of-range' });
    });

    it('addresses gateway children through their gateway', async () => {
      const ack = await send(GW, { bid: 'switch', value: 0, Children: [n('CHA'), n('NOPE')] });
      expect(ack.ack).toBe(false);
      expect(ack.Children).toEqual([
        expect.objectContaining({ ClientID: n('CHA'), ack: true }),
        expect.objectContaining({ ClientID: n('NOPE'), ack: false, code: 'no-child' }),
      ]);
      expect(sim.device(n('CHA'))!.switch).toBe(0);
      expect(sim.device(GW.deviceNumber)!.switch).toBe(1);
      const child = await nextEvent<TelemetryEvent>(transport, 'telemetry', (t) => t.deviceNumber === n('CHA'));
      expect(child.readings.switch).toBe(0);
      expect(await send(GW, { bid: 'switch', value: 1, Children: [n('CHA')] })).toMatchObject({ ack: true });
    });

    it('reports firmware upgrade progress through to the new version', async () => {
      // Collected from before the send: the ack and the first steps can arrive in one read.
      const steps: ProgressEvent[] = [];
      const onProgress = (p: ProgressEvent) => steps.push(p);
      transport.on('progress', onProgress);
      const of = (mid: string) => steps.filter((s) => s.progress.mid === mid).map((s) => s.progress);
      try {
        const ack = await send(LTE, { bid: 'upgrade', version: '2.0.0', md5: 'd41d8cd98f00b204e9800998ecf8427e' });
        expect(ack).toMatchObject({ ack: true, state: { step: 'accepted', progress: 0 } });
        await eventually(() => of(ack.mid).some((p) => p.step === 'done'), 3000, 'upgrade done');
        expect(of(ack.mid).map((p) => [p.step, p.progress])).toEqual([['download', 30], ['verify', 60], ['flash', 90], ['done', 100]]);
        expect(of(ack.mid).at(-1)).toMatchObject({ version: '2.0.0', ClientID: LTE.deviceNumber });
        await eventually(() => statuses.some((s) => s.deviceNumber === LTE.deviceNumber && s.version === '2.0.0'), 2000, 'new version in status');

        const bad = await send(RS, { bid: 'upgrade', version: '2.0.0', md5: 'not-a-signature' });
        await eventually(() => of(bad.mid).some((p) => p.step === 'failed'), 3000, 'upgrade failed');
        expect(of(bad.mid).at(-1)!.message).toBeTruthy();
        expect(sim.device(RS.deviceNumber)!.version).toBe('1.0.0');
      } finally {
        transport.off('progress', onProgress);
      }
    });

    it('answers a refresh with the current state and a fresh sample', async () => {
      const sample = nextEvent<TelemetryEvent>(transport, 'telemetry', (t) => t.deviceNumber === RS.deviceNumber, 1000);
      const ack = await send(RS, { bid: 'refresh' });
      expect(ack).toMatchObject({ ack: true, state: { switch: 1, lock: 0, online: true } });
      expect((ack.state as { readings: { voltage: number } }).readings.voltage).toBeGreaterThan(200);
      await sample;
    });

    it('goes offline and back online on reboot', async () => {
      const down = nextEvent<StatusEvent>(transport, 'status', (s) => s.deviceNumber === GW.deviceNumber && !s.online);
      expect(await send(GW, { bid: 'reboot' })).toMatchObject({ ack: true });
      await down;
      await nextEvent<StatusEvent>(transport, 'status', (s) => s.deviceNumber === GW.deviceNumber && s.online);
    });

    it('publishes an alarm when telemetry crosses a limit, and its clearing', async () => {
      const raised = nextEvent<AlarmEvent>(transport, 'alarm', (a) => a.deviceNumber === WIFI.deviceNumber && a.alarm.active);
      sim.setReadings(WIFI.deviceNumber, { voltage: 265 });
      const alarm = await raised;
      expect(alarm.alarm).toMatchObject({ kind: 'overvoltage', field: 'voltage', value: 265, limit: 260, level: 'alarm' });
      const cleared = nextEvent<AlarmEvent>(transport, 'alarm', (a) => a.deviceNumber === WIFI.deviceNumber && !a.alarm.active);
      sim.setReadings(WIFI.deviceNumber, undefined);
      expect((await cleared).alarm.kind).toBe('overvoltage');

      const child = nextEvent<AlarmEvent>(transport, 'alarm', (a) => a.deviceNumber === n('CHB'));
      sim.setReadings(n('CHB'), { leakage: 45 });
      expect(await child).toMatchObject({ gateway: GW.deviceNumber, alarm: { kind: 'leakage', level: 'trip', limit: 30 } });
      sim.setReadings(n('CHB'), undefined);
      expect(sim.device(n('CHB'))!.switch).toBe(0);
    });

    it('takes gateway children offline with their gateway', async () => {
      const childOff = nextEvent<StatusEvent>(transport, 'status', (st) => st.deviceNumber === n('CHC') && !st.online);
      sim.kill(G4.deviceNumber);
      expect(await childOff).toMatchObject({ gateway: G4.deviceNumber });
      const childOn = nextEvent<StatusEvent>(transport, 'status', (st) => st.deviceNumber === n('CHC') && st.online);
      await sim.setOnline(G4.deviceNumber, true);
      await childOn;
    });

    it('reports a killed device offline through its last will, and its return', async () => {
      const offline = nextEvent<StatusEvent>(transport, 'status', (s) => s.deviceNumber === LTE.deviceNumber && !s.online);
      sim.kill(LTE.deviceNumber);
      await offline;
      await expect(send(LTE, { bid: 'refresh' }, 300)).rejects.toMatchObject({ code: 'timeout' });
      const online = nextEvent<StatusEvent>(transport, 'status', (s) => s.deviceNumber === LTE.deviceNumber && s.online);
      await sim.setOnline(LTE.deviceNumber, true);
      await online;
      expect(await send(LTE, { bid: 'refresh' })).toMatchObject({ ack: true });
    });

    it('reports a graceful offline, and a gateway child leaving', async () => {
      const offline = nextEvent<StatusEvent>(transport, 'status', (s) => s.deviceNumber === RS.deviceNumber && !s.online);
      await sim.setOnline(RS.deviceNumber, false);
      await offline;
      await sim.setOnline(RS.deviceNumber, true);

      const childOff = nextEvent<StatusEvent>(transport, 'status', (s) => s.deviceNumber === n('CHC') && !s.online);
      await sim.setOnline(n('CHC'), false);
      expect(await childOff).toMatchObject({ gateway: G4.deviceNumber });
      expect((await send(G4, { bid: 'refresh', Children: [n('CHC')] })).Children?.[0]).toMatchObject({ ack: false, code: 'offline' });
      await sim.setOnline(n('CHC'), true);
    });

    it('times out a command to an absent device', async () => {
      const started = Date.now();
      const err = await send({ productNumber: 'P5', deviceNumber: n('GHOST'), type: 5 }, { bid: 'switch', value: 1 }, 250).catch((e) => e);
      expect(err).toBeInstanceOf(CommandError);
      expect(err.code).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(1000);
      expect(transport.pendingCount).toBe(0);
    });

    it('reports an acknowledgement that arrives after its timeout as late', async () => {
      const late = nextEvent<AckEvent>(transport, 'ack', (a) => a.late && a.deviceNumber === WIFI.deviceNumber);
      sim.device(WIFI.deviceNumber)!.ackDelayMs = 300;
      try {
        await expect(send(WIFI, { bid: 'refresh' }, 100)).rejects.toMatchObject({ code: 'timeout' });
        expect((await late).ack.ack).toBe(true);
      } finally {
        sim.device(WIFI.deviceNumber)!.ackDelayMs = 0;
      }
    });

    it('logs commands out and device messages in', () => {
      expect(messages.some((m) => m.direction === 'down' && m.topic === `dev/P5/${WIFI.deviceNumber}/down` && JSON.parse(m.payload).bid === 'switch')).toBe(true);
      expect(messages.some((m) => m.direction === 'up' && m.channel === 'ack')).toBe(true);
      expect(messages.some((m) => m.direction === 'up' && m.channel === 'up' && JSON.parse(m.payload).bid === 'telemetry')).toBe(true);
    });
  });
}

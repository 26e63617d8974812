import { describe, it, expect } from 'vitest';
import { SimDevice } from '../../server/simulator/device.js';
import { generateDevices } from '../../server/simulator/simulator.js';
import { THRESHOLD_DEFAULTS, validateThresholds, validateProtection } from '../../contract/deviceParams';

const breaker = () => new SimDevice({ productNumber: 'P6', deviceNumber: 'B1', type: 6 });
const gateway = () => new SimDevice({ productNumber: 'P2', deviceNumber: 'G1', type: 2, children: ['C1', 'C2'] });

describe('simulated device model', () => {
  it('starts with the spec defaults', () => {
    const d = breaker();
    expect(d.thresholds).toEqual(THRESHOLD_DEFAULTS);
    expect(d.protection).toMatchObject({
      baud: 115200, iz: 30, ov1: 260000, ov2: 280000, uv1: 180000, uv2: 160000,
      oi1: 90000, oi2: 100000, Ue: 220000, Ie: 80000, Pe: 17600, v_unbalance: 10, i_unbalance: 10,
    });
    expect(Object.values(d.calibration).every((v) => v === 1000)).toBe(true);
    expect(d.password).toBe('1234');
    expect(new SimDevice({ productNumber: 'P5', deviceNumber: 'W1', type: 5 }).thresholds).toBeUndefined();
  });

  it('produces plausible readings with energy that only grows', () => {
    const d = breaker();
    const t0 = Date.now();
    const first = d.sample(t0).readings;
    const later = d.sample(t0 + 3_600_000).readings;
    expect(first.voltage).toBeGreaterThan(210);
    expect(first.voltage).toBeLessThan(230);
    expect(first.current).toBeGreaterThan(0);
    expect(later.energy).toBeGreaterThan(first.energy);
    // One hour at the sampled power is roughly power/1000 kWh.
    expect(later.energy - first.energy).toBeCloseTo(later.power / 1000, 0);
  });

  it('lock forces the breaker closed and refuses switching until unlocked', () => {
    const d = breaker();
    expect(d.handle({ bid: 'switch', value: 0 }).ack).toBe(true);
    expect(d.switch).toBe(0);
    const locked = d.handle({ bid: 'lock', value: 1 });
    expect(locked).toMatchObject({ ack: true, state: { switch: 1, lock: 1 } });
    expect(d.handle({ bid: 'switch', value: 0 })).toMatchObject({ ack: false, code: 'locked' });
    expect(d.handle({ bid: 'motor', onOff: 0, password: '1234' })).toMatchObject({ ack: false, code: 'locked' });
    expect(d.switch).toBe(1);
    d.handle({ bid: 'lock', value: 0 });
    expect(d.handle({ bid: 'switch', value: 0 }).ack).toBe(true);
  });

  it('checks threshold ranges and the device password', () => {
    const d = gateway();
    expect(d.handle({ bid: 'set-threshold', tHi: 151 })).toMatchObject({ ack: false, code: 'out-of-range' });
    expect(d.handle({ bid: 'set-threshold', buad: 4800 })).toMatchObject({ ack: false, code: 'out-of-range' });
    expect(d.handle({ bid: 'set-threshold', tHi: 90, buad: 9600 })).toMatchObject({ ack: true, state: { tHi: 90, buad: 9600 } });
    expect(d.handle({ bid: 414, password: '0000', newPassword: '9' })).toMatchObject({ ack: false, code: 'bad-password' });
    expect(d.handle({ bid: 414, password: '1234', newPassword: '12345' })).toMatchObject({ ack: false, code: 'out-of-range' });
    expect(d.handle({ bid: 414, password: '1234', newPassword: '4321' }).ack).toBe(true);
    expect(d.password).toBe('4321');
    expect(validateThresholds({ ...THRESHOLD_DEFAULTS }, { requireAll: true })).toEqual([]);
    expect(validateThresholds({ time: 59, iMut: 50001, tMut: 4, eMut: 100000, protocl: 7 })).toHaveLength(5);
    expect(validateProtection({ ov1: 0, ov_en: 2, nope: 1 })).toHaveLength(3);
  });

  it('refuses commands a device type does not have', () => {
    const plain = new SimDevice({ productNumber: 'P5', deviceNumber: 'W1', type: 5 });
    expect(plain.handle({ bid: 'motor', onOff: 1, password: '1234' })).toMatchObject({ ack: false, code: 'unsupported' });
    expect(plain.handle({ bid: 416 })).toMatchObject({ ack: false, code: 'unsupported' });
    expect(plain.handle({ bid: 'dance' })).toMatchObject({ ack: false, code: 'unsupported' });
    expect(plain.handle({ bid: 'switch', value: 2 })).toMatchObject({ ack: false, code: 'bad-request' });
  });

  it('raises an alarm once when a limit is crossed, trips, and clears', () => {
    const d = new SimDevice({ productNumber: 'P5', deviceNumber: 'W2', type: 5 });
    d.sample();
    d.overrides = { voltage: 265 };
    const raised = d.sample().alarms;
    expect(raised).toEqual([expect.objectContaining({ kind: 'overvoltage', level: 'alarm', active: true, limit: 260 })]);
    expect(d.sample().alarms).toEqual([]);
    d.overrides = { voltage: 285 };
    const trip = d.sample();
    expect(trip.alarms).toEqual([expect.objectContaining({ kind: 'overvoltage', level: 'trip', active: true })]);
    expect(trip.readings.switch).toBe(0);
    d.overrides = {};
    expect(d.sample().alarms).toEqual([expect.objectContaining({ kind: 'overvoltage', active: false })]);
  });

  it('applies calibration coefficients to the readings', () => {
    const d = breaker();
    const before = d.sample().readings.voltage;
    d.handle({ bid: 'set-calibration', params: { va_k: 2000 } });
    const after = d.sample().readings.voltage;
    expect(after / before).toBeGreaterThan(1.9);
  });

  it('routes Children commands to a gateway child and reports each result', () => {
    const g = gateway();
    g.children[1].online = false;
    const r = g.handle({ bid: 'switch', value: 0, Children: ['C1', 'C2', 'C9'] });
    expect(r.ack).toBe(false);
    expect(r.Children).toEqual([
      expect.objectContaining({ ClientID: 'C1', ack: true }),
      expect.objectContaining({ ClientID: 'C2', ack: false, code: 'offline' }),
      expect.objectContaining({ ClientID: 'C9', ack: false, code: 'no-child' }),
    ]);
    expect(g.children[0].switch).toBe(0);
    expect(g.switch).toBe(1);
  });

  it('generates a mixed fleet with unique numbers', () => {
    const specs = generateDevices(12);
    expect(new Set(specs.map((s) => s.type))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    const numbers = specs.flatMap((s) => [s.deviceNumber, ...(s.children ?? []).map((c) => (typeof c === 'string' ? c : c.deviceNumber))]);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers[0]).toBe('SIM0001');
  });
});

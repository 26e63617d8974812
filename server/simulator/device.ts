/**
 * One simulated device: its electrical readings, switch and lock, configuration, alarms, and how it
 * answers each command. No MQTT here, so the behaviour can be reasoned about (and tested) on its own.
 */
import {
  DEVICE_PASSWORD_DEFAULT,
  DEVICE_PASSWORD_MAX,
  THRESHOLD_DEFAULTS,
  THRESHOLD_RULES,
  defaultCalibration,
  defaultProtection,
  hasThresholds,
  isGatewayType,
  validateCalibration,
  validateProtection,
  validateThresholds,
  type Calibration,
  type DeviceType,
  type Protection,
  type Thresholds,
} from '../../contract/deviceParams';
import type { AckCode, AlarmKind, AlarmMessage, ChildAck, Command, Readings } from '../mqtt/protocol.js';
import { reason, textOf } from '../http/envelope.js';
import type { Reason } from '../../contract/reasons.js';
import type { PlainReasonCode } from '../../contract/generated/reasons.js';

export interface ChildSpec {
  deviceNumber: string;
  /** Default 1 (485 device), the usual thing hanging off a gateway bus. */
  type?: DeviceType;
}

export interface DeviceSpec {
  productNumber: string;
  deviceNumber: string;
  type: DeviceType;
  children?: (string | ChildSpec)[];
  password?: string;
  version?: string;
}

export interface Outcome {
  ack: boolean;
  code?: AckCode;
  message: string;
  state?: Record<string, unknown>;
}

/** Work the connection layer does after acknowledging. */
export type FollowUp = 'telemetry' | 'reboot' | 'upgrade';

export interface CommandResult extends Outcome {
  Children?: ChildAck[];
  followUp?: FollowUp;
  upgrade?: { version: string; valid: boolean };
}

/** An alarm as the device raises or clears it; the connection layer adds whose it is and when. */
export type AlarmEvent = Pick<AlarmMessage, 'kind' | 'field' | 'value' | 'limit' | 'level' | 'active'>;

/** A device speaks zh-CN (docs/mqtt.md): its words are the catalogue's zh-CN texts (schemas/reasons/devices.json). */
const says = (why: Reason | PlainReasonCode): string => textOf(typeof why === 'string' ? reason(why) : why);
const ok = (state?: Record<string, unknown>, message: PlainReasonCode = 'simulator.done'): Outcome => ({ ack: true, message: says(message), state });
const refuse = (code: AckCode, why: Reason | PlainReasonCode): Outcome => ({ ack: false, code, message: says(why) });
/** Problems with the values of a command, as the device words them. */
const outOfRange = (problems: Reason[]) => refuse('out-of-range', reason('simulator.outOfRange', { problems: problems.map((p) => says(p)).join('; ') }));

const UNSUPPORTED = refuse('unsupported', 'simulator.unsupported');
const LOCKED = refuse('locked', 'simulator.locked');
const BAD_PASSWORD = refuse('bad-password', 'simulator.badPassword');

function isBit(v: unknown): v is 0 | 1 {
  return v === 0 || v === 1;
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** Pseudo-random but stable per device number, so a restarted simulator looks the same. */
function seeded(text: string): () => number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    h ^= h >>> 16;
    return (h >>> 0) / 4294967296;
  };
}

export class SimDevice {
  readonly productNumber: string;
  readonly deviceNumber: string;
  readonly type: DeviceType;
  readonly children: SimDevice[];
  readonly gateway?: SimDevice;

  version: string;
  password: string;
  switch: 0 | 1 = 1;
  lock: 0 | 1 = 0;
  /** A child's own link to its gateway; top-level devices are online while connected. */
  online = true;
  thresholds?: Thresholds;
  protection: Protection = defaultProtection();
  calibration: Calibration = defaultCalibration();
  /** Device clock minus host clock, set by time sync. */
  clockOffsetMs = 0;
  reboots = 0;
  /** Delay before acknowledging, to imitate a slow device or link. */
  ackDelayMs = 0;
  /** While set, acknowledgements wait for it: a command stays in flight exactly as long as a test needs. */
  ackHeld: Promise<void> | null = null;
  /** Fixed values that replace the generated ones, for demos and tests. */
  overrides: Partial<Readings> = {};
  readonly activeAlarms = new Map<AlarmKind, Omit<AlarmEvent, 'active'>>();

  private energy = 0;
  private readonly random: () => number;
  private readonly baseLoadA: number;
  private last?: Readings;
  private lastSampleAt?: number;

  constructor(spec: DeviceSpec, gateway?: SimDevice) {
    this.productNumber = spec.productNumber;
    this.deviceNumber = spec.deviceNumber;
    this.type = spec.type;
    this.gateway = gateway;
    this.version = spec.version ?? '1.0.0';
    this.password = spec.password ?? DEVICE_PASSWORD_DEFAULT;
    if (hasThresholds(this.type)) this.thresholds = { ...THRESHOLD_DEFAULTS };
    this.random = seeded(spec.deviceNumber);
    this.baseLoadA = 0.5 + this.random() * 7.5;
    this.energy = round(this.random() * 500, 3);
    this.children = isGatewayType(this.type)
      ? (spec.children ?? []).map((c) => {
          const child = typeof c === 'string' ? { deviceNumber: c } : c;
          return new SimDevice(
            { productNumber: spec.productNumber, deviceNumber: child.deviceNumber, type: child.type ?? 1 },
            this,
          );
        })
      : [];
  }

  get isGateway(): boolean {
    return isGatewayType(this.type);
  }

  /** Most recent readings (generated on first access). */
  get readings(): Readings {
    return this.last ?? this.sample().readings;
  }

  /** Advances the meter to `now` and evaluates the alarm limits. */
  sample(now = Date.now()): { readings: Readings; alarms: AlarmEvent[] } {
    const dt = this.lastSampleAt === undefined ? 0 : Math.max(0, now - this.lastSampleAt);
    this.lastSampleAt = now;
    const k = (key: keyof Calibration) => this.calibration[key] / 1000;
    const noise = (spread: number) => (this.random() - 0.5) * 2 * spread;

    const on = this.switch === 1;
    let voltage = (220 + noise(4)) * k('va_k');
    let current = on ? this.baseLoadA * (1 + noise(0.2)) * k('ia_k') : 0;
    if (this.overrides.voltage !== undefined) voltage = this.overrides.voltage;
    if (this.overrides.current !== undefined) current = this.overrides.current;
    let power = voltage * current * 0.95 * k('pa_k');
    if (this.overrides.power !== undefined) power = this.overrides.power;
    this.energy += ((power * dt) / 3_600_000_000) * k('ea_k');
    if (this.overrides.energy !== undefined) this.energy = this.overrides.energy;
    const temperature = this.overrides.temperature ?? (28 + current * 1.2 + noise(0.5)) * k('ta_k');
    const leakage = this.overrides.leakage ?? (on ? 0.5 + this.random() * 2.5 : 0) * k('in_k');

    const readings: Readings = {
      voltage: round(voltage, 1),
      current: round(current, 3),
      power: round(power, 1),
      energy: round(this.energy, 6),
      temperature: round(temperature, 1),
      leakage: round(leakage, 1),
      switch: this.switch,
      lock: this.lock,
    };
    const alarms = this.evaluate(readings, this.last);
    if (alarms.some((a) => a.active && a.level === 'trip') && !this.lock) {
      // Protection opens the breaker; a locked breaker is held closed by design.
      this.switch = 0;
      readings.switch = 0;
    }
    this.last = readings;
    return { readings, alarms };
  }

  /** Alarm raised or cleared since the previous sample, the worst level per kind. */
  private evaluate(r: Readings, previous?: Readings): AlarmEvent[] {
    const p = this.protection;
    const found = new Map<AlarmKind, Omit<AlarmEvent, 'active'>>();
    const consider = (
      kind: AlarmKind,
      field: keyof Readings,
      value: number,
      enable: string,
      levels: { trip?: number; alarm?: number },
      above: boolean,
      scale = 1,
    ) => {
      const crosses = (limit: number) => (above ? value * scale > limit : value * scale < limit);
      if (levels.trip !== undefined && p[`${enable}_en`] === 1 && crosses(levels.trip)) {
        found.set(kind, { kind, field, value, limit: levels.trip / scale, level: 'trip' });
      } else if (levels.alarm !== undefined && p[`${enable}_alm_en`] === 1 && crosses(levels.alarm)) {
        if (found.get(kind)?.level !== 'trip') {
          found.set(kind, { kind, field, value, limit: levels.alarm / scale, level: 'alarm' });
        }
      }
    };
    // Protection levels are in mV / mA / W / °C.
    consider('overvoltage', 'voltage', r.voltage, 'ov', { alarm: p.ov1, trip: p.ov2 }, true, 1000);
    consider('undervoltage', 'voltage', r.voltage, 'uv', { alarm: p.uv1, trip: p.uv2 }, false, 1000);
    consider('overcurrent', 'current', r.current, 'oi', { alarm: p.oi1, trip: p.oi2 }, true, 1000);
    consider('overpower', 'power', r.power, 'op', { alarm: p.op1, trip: p.op2 }, true);
    consider('overtemperature', 'temperature', r.temperature, 'ot', { alarm: p.ot1, trip: p.ot2 }, true);
    consider('leakage', 'leakage', r.leakage, 'iz', { trip: p.iz }, true);
    if (!found.has('leakage')) consider('leakage', 'leakage', r.leakage, 'iz', { alarm: p.iz }, true);

    const t = this.thresholds;
    if (t && t.alm === 1) {
      if (!found.has('overtemperature') && r.temperature > t.tHi) {
        found.set('overtemperature', { kind: 'overtemperature', field: 'temperature', value: r.temperature, limit: t.tHi, level: 'alarm' });
      }
      // iHi is in amperes (default 80 = the 80000 mA maximum current); iMut in mA.
      if (!found.has('overcurrent') && r.current > t.iHi) {
        found.set('overcurrent', { kind: 'overcurrent', field: 'current', value: r.current, limit: t.iHi, level: 'alarm' });
      }
      if (previous && Math.abs(r.current - previous.current) * 1000 > t.iMut) {
        found.set('current-jump', { kind: 'current-jump', field: 'current', value: r.current, limit: t.iMut / 1000, level: 'alarm' });
      }
      if (previous && Math.abs(r.temperature - previous.temperature) > t.tMut) {
        found.set('temperature-jump', { kind: 'temperature-jump', field: 'temperature', value: r.temperature, limit: t.tMut, level: 'alarm' });
      }
    }

    const events: AlarmEvent[] = [];
    for (const [kind, a] of found) {
      if (this.activeAlarms.get(kind)?.level !== a.level) events.push({ ...a, active: true });
      this.activeAlarms.set(kind, a);
    }
    for (const [kind, a] of this.activeAlarms) {
      if (!found.has(kind)) {
        this.activeAlarms.delete(kind);
        events.push({ ...a, value: r[a.field] as number, active: false });
      }
    }
    return events;
  }

  snapshot(): Record<string, unknown> {
    return {
      switch: this.switch,
      lock: this.lock,
      version: this.version,
      online: this.online,
      readings: this.readings,
    };
  }

  /** Applies a command addressed to this device, or to the listed children of a gateway. */
  handle(command: Command): CommandResult {
    const targets = command.Children;
    if (targets && targets.length > 0) {
      if (!this.isGateway) return UNSUPPORTED;
      const { Children: _omit, ...forChild } = command;
      const results: ChildAck[] = targets.map((number) => {
        const child = this.children.find((c) => c.deviceNumber === number);
        if (!child) return { ClientID: number, ...refuse('no-child', 'simulator.noChild') };
        if (!child.online) return { ClientID: number, ...refuse('offline', 'simulator.childOffline') };
        const { followUp: _f, upgrade: _u, Children: _c, ...outcome } = child.handle(forChild);
        return { ClientID: number, ...outcome };
      });
      const all = results.every((r) => r.ack);
      return {
        ack: all,
        code: all ? undefined : results.find((r) => !r.ack)?.code,
        message: says(all ? 'simulator.done' : 'simulator.someChildrenFailed'),
        Children: results,
        followUp: all && command.bid === 'refresh' ? 'telemetry' : undefined,
      };
    }
    return this.apply(command);
  }

  private apply(c: Command): CommandResult {
    switch (String(c.bid)) {
      case 'switch': {
        const value = c.value ?? c.onOff;
        if (!isBit(value)) return refuse('bad-request', reason('simulator.badBit', { key: 'value' }));
        if (this.lock) return LOCKED;
        this.switch = value;
        return { ...ok({ switch: this.switch, lock: this.lock }), followUp: 'telemetry' };
      }
      case 'lock': {
        const value = c.value;
        if (!isBit(value)) return refuse('bad-request', reason('simulator.badBit', { key: 'value' }));
        this.lock = value;
        if (value === 1) this.switch = 1;
        return { ...ok({ switch: this.switch, lock: this.lock }), followUp: 'telemetry' };
      }
      case 'set-threshold': {
        if (!this.thresholds) return UNSUPPORTED;
        const given = Object.fromEntries(Object.entries(c).filter(([k]) => k in THRESHOLD_RULES));
        if (Object.keys(given).length === 0) return refuse('bad-request', 'simulator.noThresholds');
        const problems = validateThresholds(given);
        if (problems.length) return outOfRange(problems);
        Object.assign(this.thresholds, given);
        return ok({ ...this.thresholds }, 'simulator.thresholdsSet');
      }
      case 'read-threshold':
        return this.thresholds ? ok({ ...this.thresholds }, 'simulator.read') : UNSUPPORTED;
      case '414': {
        if (!this.thresholds) return UNSUPPORTED;
        if (c.password !== this.password) return BAD_PASSWORD;
        const next = c.newPassword;
        if (typeof next !== 'string' || next.length < 1 || next.length > DEVICE_PASSWORD_MAX) {
          return refuse('out-of-range', reason('simulator.passwordLength', { max: DEVICE_PASSWORD_MAX }));
        }
        this.password = next;
        return ok(undefined, 'simulator.passwordChanged');
      }
      case '415': {
        if (!this.thresholds) return UNSUPPORTED;
        this.energy = 0;
        delete this.overrides.energy;
        this.activeAlarms.clear();
        this.last = undefined;
        return { ...ok({ energy: 0 }, 'simulator.dataCleared'), followUp: 'telemetry' };
      }
      case '416': {
        if (!this.thresholds) return UNSUPPORTED;
        const time = c.time === undefined ? Date.now() : typeof c.time === 'number' ? c.time : Date.parse(String(c.time));
        if (!Number.isFinite(time)) return refuse('bad-request', reason('simulator.badField', { key: 'time' }));
        this.clockOffsetMs = time - Date.now();
        for (const child of this.children) child.clockOffsetMs = this.clockOffsetMs;
        return ok({ time }, 'simulator.timeSynced');
      }
      case 'motor': {
        if (this.type !== 6) return UNSUPPORTED;
        if (typeof c.password !== 'string' || c.password === '') return refuse('bad-request', 'simulator.passwordRequired');
        if (c.password !== this.password) return BAD_PASSWORD;
        const value = c.onOff ?? c.value;
        if (!isBit(value)) return refuse('bad-request', reason('simulator.badBit', { key: 'onOff' }));
        if (this.lock) return LOCKED;
        this.switch = value;
        return { ...ok({ switch: this.switch, lock: this.lock }, value ? 'simulator.closed' : 'simulator.opened'), followUp: 'telemetry' };
      }
      case 'set-parameter':
      case 'set-calibration': {
        const params = c.params;
        if (!params || typeof params !== 'object' || Array.isArray(params) || Object.keys(params).length === 0) {
          return refuse('bad-request', reason('simulator.badField', { key: 'params' }));
        }
        const isProtection = String(c.bid) === 'set-parameter';
        const input = params as Record<string, unknown>;
        const problems = isProtection ? validateProtection(input) : validateCalibration(input);
        if (problems.length) return outOfRange(problems);
        const target = isProtection ? this.protection : this.calibration;
        Object.assign(target, input);
        return ok({ ...target }, 'simulator.parametersSet');
      }
      case 'read-parameter':
        return ok({ ...this.protection }, 'simulator.read');
      case 'read-calibration':
        return ok({ ...this.calibration }, 'simulator.read');
      case 'upgrade': {
        if (typeof c.version !== 'string' || c.version === '') return refuse('bad-request', reason('simulator.badField', { key: 'version' }));
        // A signature that cannot be an MD5 fails verification, so the failure path can be shown.
        const valid = c.md5 === undefined || /^[0-9a-f]{32}$/i.test(String(c.md5));
        return { ...ok({ step: 'accepted', progress: 0, from: this.version }, 'simulator.upgradeAccepted'), followUp: 'upgrade', upgrade: { version: c.version, valid } };
      }
      case 'refresh':
        return { ...ok(this.snapshot(), 'simulator.refreshed'), followUp: 'telemetry' };
      case 'reboot':
        this.reboots++;
        return { ...ok(undefined, 'simulator.rebooted'), followUp: 'reboot' };
      default:
        return UNSUPPORTED;
    }
  }

  /** Every device in this one's tree, itself first. */
  *all(): Generator<SimDevice> {
    yield this;
    for (const child of this.children) yield* child.all();
  }
}

/**
 * Puts simulated devices on an MQTT broker: one client per top-level device (gateways speak for their
 * children), a retained online status with a last will, periodic telemetry, alarms, and an
 * acknowledgement for every command.
 */
import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { resolveProtocolVersion, type ProtocolChoice, type ProtocolVersion } from '../mqtt/connect.js';
import { deviceTopic } from '../mqtt/topics.js';
import type {
  Ack,
  AlarmMessage,
  Command,
  Readings,
  StatusMessage,
  TelemetryMessage,
  UpgradeProgressMessage,
} from '../mqtt/protocol.js';
import { SimDevice, type AlarmEvent, type CommandResult, type DeviceSpec } from './device.js';
import { reason, textOf } from '../http/envelope.js';

export interface SimulatorOptions {
  /** Default mqtt://127.0.0.1:1884, the embedded broker. */
  url?: string;
  devices: DeviceSpec[];
  /** Telemetry period per device; default 30 s. */
  telemetryMs?: number;
  protocolVersion?: ProtocolChoice;
  username?: string;
  password?: string;
  reconnectPeriodMs?: number;
  /** Delay between firmware upgrade steps; default 1 s. */
  upgradeStepMs?: number;
  /** How long a rebooting device stays offline; default 500 ms. */
  rebootMs?: number;
  /** Give up starting when not every device is connected by then; default 15 s. */
  waitMs?: number;
}

export interface SimulatorHandle {
  readonly url: string;
  readonly protocolVersion: ProtocolVersion;
  /** Top-level devices (gateways hold their children). */
  readonly devices: SimDevice[];
  /** Any device by number, children included. */
  device(deviceNumber: string): SimDevice | undefined;
  /**
   * Offline: a top-level device says so (retained) and disconnects cleanly; a child drops off its
   * gateway's list. Online: reconnects / rejoins.
   */
  setOnline(deviceNumber: string, online: boolean): Promise<void>;
  /** Drops a top-level device's connection without a DISCONNECT, so the broker publishes its last will. */
  kill(deviceNumber: string): void;
  /** Fixes some readings (e.g. an overvoltage) until cleared with undefined. */
  setReadings(deviceNumber: string, readings: Partial<Readings> | undefined): void;
  /** Publishes a telemetry sample now instead of waiting for the period. */
  publishTelemetry(deviceNumber: string): Promise<void>;
  stop(): Promise<void>;
}

interface LinkSettings {
  url: string;
  version: ProtocolVersion;
  username?: string;
  password?: string;
  telemetryMs: number;
  reconnectPeriodMs: number;
  upgradeStepMs: number;
  rebootMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The MQTT side of one top-level device. */
class DeviceLink {
  private client?: MqttClient;
  private telemetryTimer?: NodeJS.Timeout;
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    readonly device: SimDevice,
    private readonly settings: LinkSettings,
  ) {}

  private topic(channel: 'up' | 'ack' | 'status' | 'down'): string {
    return deviceTopic(this.device.productNumber, this.device.deviceNumber, channel);
  }

  get connected(): boolean {
    return this.client?.connected === true;
  }

  /** Resolves once connected, subscribed and announced. */
  start(): Promise<void> {
    this.stopped = false;
    const { url, version, username, password, reconnectPeriodMs } = this.settings;
    const offline: StatusMessage = { online: false, ClientID: this.device.deviceNumber };
    const client = mqtt.connect(url, {
      clientId: `sim-${this.device.deviceNumber}-${randomBytes(3).toString('hex')}`,
      username,
      password,
      protocolVersion: version,
      clean: true,
      reconnectPeriod: reconnectPeriodMs,
      connectTimeout: 5000,
      queueQoSZero: false,
      resubscribe: false,
      will: { topic: this.topic('status'), payload: Buffer.from(JSON.stringify(offline)), qos: 1, retain: true },
    });
    this.client = client;
    client.on('message', (_topic, payload) => void this.onCommand(payload));
    // Errors surface as reconnect attempts; a simulator must not crash on a broker restart.
    client.on('error', () => {});
    return new Promise((resolve) => {
      client.on('connect', async () => {
        await client.subscribeAsync(this.topic('down'), { qos: 1 }).catch(() => {});
        // Stopped while (re)connecting: an online status now would follow the offline one stop() sent.
        if (this.stopped || this.client !== client) return resolve();
        await this.publishStatus();
        this.startTelemetry();
        resolve();
      });
    });
  }

  private startTelemetry(): void {
    clearInterval(this.telemetryTimer);
    void this.publishTelemetry();
    this.telemetryTimer = setInterval(() => void this.publishTelemetry(), this.settings.telemetryMs);
  }

  private later(ms: number, fn: () => void | Promise<void>): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.stopped) void fn();
    }, ms);
    this.timers.add(t);
  }

  private async publish(channel: 'up' | 'ack' | 'status', message: object, qos: 0 | 1, retain = false) {
    const client = this.client;
    if (!client?.connected) return;
    await client.publishAsync(this.topic(channel), JSON.stringify(message), { qos, retain }).catch(() => {});
  }

  publishStatus(online = true): Promise<void> {
    const d = this.device;
    const status: StatusMessage = {
      online,
      ClientID: d.deviceNumber,
      type: d.type,
      version: d.version,
      ts: Date.now(),
    };
    if (d.isGateway) status.Children = d.children.map((c) => ({ ClientID: c.deviceNumber, online: c.online }));
    return this.publish('status', status, 1, true);
  }

  async publishTelemetry(): Promise<void> {
    if (!this.connected) return;
    const d = this.device;
    const now = Date.now();
    const own = d.sample(now);
    const message: TelemetryMessage = { bid: 'telemetry', ClientID: d.deviceNumber, ts: now, ...own.readings };
    const alarms: AlarmMessage[] = own.alarms.map((a) => this.alarm(a, d, now));
    if (d.isGateway) {
      message.Children = [];
      for (const child of d.children) {
        if (!child.online) continue;
        const s = child.sample(now);
        message.Children.push({ ClientID: child.deviceNumber, ...s.readings });
        alarms.push(...s.alarms.map((a) => this.alarm(a, child, now)));
      }
    }
    await this.publish('up', message, 0);
    for (const alarm of alarms) await this.publish('up', alarm, 1);
  }

  private alarm(a: AlarmEvent, about: SimDevice, ts: number): AlarmMessage {
    return {
      bid: 'alarm',
      ClientID: about.deviceNumber,
      ...(about.gateway ? { gateway: about.gateway.deviceNumber } : {}),
      ...a,
      ts,
    };
  }

  private async onCommand(payload: Buffer): Promise<void> {
    let command: Command & { mid?: unknown };
    try {
      command = JSON.parse(payload.toString('utf8'));
    } catch {
      return; // Not ours to answer: without a mid nobody waits for it.
    }
    if (!command || typeof command !== 'object' || command.mid === undefined) return;
    let result: CommandResult;
    try {
      result = this.device.handle(command);
    } catch (err) {
      result = { ack: false, code: 'bad-request', message: textOf(reason('simulator.badField', { key: (err as Error).message })) };
    }
    const ack: Ack = {
      bid: command.bid,
      mid: String(command.mid),
      ClientID: this.device.deviceNumber,
      ack: result.ack,
      ...(result.code ? { code: result.code } : {}),
      message: result.message,
      ...(result.state ? { state: result.state } : {}),
      ...(result.Children ? { Children: result.Children } : {}),
    };
    if (this.device.ackDelayMs > 0) await sleep(this.device.ackDelayMs);
    if (this.device.ackHeld) await this.device.ackHeld;
    await this.publish('ack', ack, 1);
    if (result.followUp === 'telemetry') await this.publishTelemetry();
    else if (result.followUp === 'reboot') await this.reboot();
    else if (result.followUp === 'upgrade' && result.upgrade) this.upgrade(ack.mid, result.upgrade);
  }

  private async reboot(): Promise<void> {
    await this.publishStatus(false);
    this.later(this.settings.rebootMs, () => this.publishStatus(true));
  }

  private upgrade(mid: string, { version, valid }: { version: string; valid: boolean }): void {
    const d = this.device;
    const step = (name: UpgradeProgressMessage['step'], progress: number, message?: string): Promise<void> => {
      const m: UpgradeProgressMessage = { bid: 'upgrade', mid, ClientID: d.deviceNumber, step: name, progress, version, ts: Date.now() };
      if (message) m.message = message;
      return this.publish('up', m, 1);
    };
    const ms = this.settings.upgradeStepMs;
    this.later(ms, () => step('download', 30));
    if (!valid) {
      this.later(2 * ms, () => step('failed', 30, textOf(reason('simulator.signatureInvalid'))));
      return;
    }
    this.later(2 * ms, () => step('verify', 60));
    this.later(3 * ms, () => step('flash', 90));
    this.later(4 * ms, async () => {
      d.version = version;
      await step('done', 100);
      await this.publishStatus(true);
    });
  }

  private clearTimers(): void {
    clearInterval(this.telemetryTimer);
    this.telemetryTimer = undefined;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Announces offline (retained) and disconnects cleanly. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    if (client.connected) {
      const offline: StatusMessage = { online: false, ClientID: this.device.deviceNumber, ts: Date.now() };
      await client.publishAsync(this.topic('status'), JSON.stringify(offline), { qos: 1, retain: true }).catch(() => {});
    }
    await client.endAsync(false).catch(() => client.end(true));
  }

  kill(): void {
    this.stopped = true;
    this.clearTimers();
    this.client?.end(true);
    this.client = undefined;
  }
}

export async function startSimulator(options: SimulatorOptions): Promise<SimulatorHandle> {
  const url = options.url ?? 'mqtt://127.0.0.1:1884';
  const version = await resolveProtocolVersion(url, options.protocolVersion ?? 'auto', {
    username: options.username,
    password: options.password,
  });
  const settings: LinkSettings = {
    url,
    version,
    username: options.username,
    password: options.password,
    telemetryMs: options.telemetryMs ?? 30_000,
    reconnectPeriodMs: options.reconnectPeriodMs ?? 1000,
    upgradeStepMs: options.upgradeStepMs ?? 1000,
    rebootMs: options.rebootMs ?? 500,
  };

  const devices = options.devices.map((spec) => new SimDevice(spec));
  const byNumber = new Map<string, SimDevice>();
  for (const top of devices) {
    for (const d of top.all()) {
      if (byNumber.has(d.deviceNumber)) throw new Error(`duplicate device number ${d.deviceNumber}`);
      byNumber.set(d.deviceNumber, d);
    }
  }
  const links = new Map(devices.map((d) => [d.deviceNumber, new DeviceLink(d, settings)]));

  const find = (number: string) => {
    const d = byNumber.get(number);
    if (!d) throw new Error(`no simulated device ${number}`);
    return d;
  };
  const linkOf = (d: SimDevice) => links.get((d.gateway ?? d).deviceNumber)!;

  const waitMs = options.waitMs ?? 15_000;
  let timer: NodeJS.Timeout | undefined;
  const stopAll = () => Promise.all([...links.values()].map((l) => l.stop())).then(() => undefined);
  try {
    await Promise.race([
      Promise.all([...links.values()].map((l) => l.start())),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`simulated devices not connected to ${url} within ${waitMs} ms`)), waitMs);
      }),
    ]);
  } catch (err) {
    await stopAll();
    throw err;
  } finally {
    clearTimeout(timer);
  }

  return {
    url,
    protocolVersion: version,
    devices,
    device: (number) => byNumber.get(number),
    async setOnline(number, online) {
      const d = find(number);
      if (d.gateway) {
        d.online = online;
        await linkOf(d).publishStatus(true);
        return;
      }
      const link = linkOf(d);
      d.online = online;
      if (online && !link.connected) await link.start();
      else if (!online) await link.stop();
    },
    kill(number) {
      const d = find(number);
      if (d.gateway) throw new Error(`${number} is a gateway child; it has no connection of its own`);
      d.online = false;
      linkOf(d).kill();
    },
    setReadings(number, readings) {
      find(number).overrides = { ...(readings ?? {}) };
    },
    async publishTelemetry(number) {
      await linkOf(find(number)).publishTelemetry();
    },
    stop: stopAll,
  };
}

export { SimDevice } from './device.js';
export type { DeviceSpec, ChildSpec } from './device.js';

/** A mixed fleet for demos: every type, gateways with two or three children. */
export function generateDevices(count: number, { prefix = 'SIM', productPrefix = 'P' } = {}): DeviceSpec[] {
  const specs: DeviceSpec[] = [];
  const types = [5, 3, 6, 2, 1, 4] as const;
  let n = 0;
  const next = () => `${prefix}${String(++n).padStart(4, '0')}`;
  for (let i = 0; i < count; i++) {
    const type = types[i % types.length];
    const spec: DeviceSpec = { productNumber: `${productPrefix}${type}`, deviceNumber: next(), type };
    if (type === 2 || type === 4) {
      spec.children = Array.from({ length: 2 + (i % 2) }, () => ({ deviceNumber: next(), type: 1 as const }));
    }
    specs.push(spec);
  }
  return specs;
}

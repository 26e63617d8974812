/**
 * Live devices: connects the server to the MQTT broker (the embedded one unless MQTT_URL is set),
 * writes what devices say into the database (online state, switch and lock, telemetry, alarms, the
 * message log), and routes commands to a device or, for a gateway's child, through its gateway.
 */
import { EventEmitter } from 'node:events';
import type { DB } from '../db';
import { DeviceTransport, type TransportState } from '../mqtt/transport';
import type { Ack, Command } from '../mqtt/protocol';
import { recordSecurityEvent, type AlarmEvent } from '../domain/alarmEvents';

export interface LiveDevice {
  fId: number;
  fNumber: string;
  fTypeId: number | null;
  tOnline: number | null;
  productNumber: string;
  /** Set when the device hangs off a gateway: commands go through it. */
  gateway?: { fNumber: string; productNumber: string };
}

/** What the console hears about without reloading: online state and switch changes. */
export interface LiveEvents {
  device: [{ fId: number; fNumber: string; tOnline?: number; switchStatus?: number; fLock?: number }];
  state: [TransportState];
  /** A new rental-house alarm (docs/mqtt.md, security events). */
  alarm: [AlarmEvent];
}

export class LiveDevices extends EventEmitter<LiveEvents> {
  /** Device numbers -> ids, so each message costs no lookup once seen. */
  readonly #ids = new Map<string, number>();
  /**
   * Each device's messages are handled one after another, in the order they arrived: otherwise the
   * database writes of a late telemetry sample could land after its device's offline status.
   */
  readonly #queues = new Map<string, Promise<void>>();

  #serial(deviceNumber: string, work: () => Promise<void>) {
    const next = (this.#queues.get(deviceNumber) ?? Promise.resolve()).then(work).catch((err: Error) => this.#warn(err));
    this.#queues.set(deviceNumber, next);
    void next.then(() => {
      if (this.#queues.get(deviceNumber) === next) this.#queues.delete(deviceNumber);
    });
  }

  constructor(
    readonly db: DB,
    readonly transport: DeviceTransport,
  ) {
    super();
    transport.on('state', (s) => this.emit('state', s));
    transport.on('status', (e) => this.#serial(e.deviceNumber, () => this.#status(e.deviceNumber, e.online, e.version)));
    transport.on('telemetry', (e) => this.#serial(e.deviceNumber, () => this.#telemetry(e.deviceNumber, e.readings, e.ts)));
    transport.on('alarm', (e) => this.#serial(e.deviceNumber, () => this.#alarm(e.deviceNumber, e.alarm)));
    transport.on('security', (e) => this.#serial(e.deviceNumber, async () => {
      const alarm = await recordSecurityEvent(this.db, e.deviceNumber, e.event);
      if (alarm) this.emit('alarm', alarm);
    }));
    transport.on('message', (e) => void this.#log(e).catch((err) => this.#warn(err)));
    transport.on('warning', (err) => this.#warn(err));
  }

  get state(): TransportState {
    return this.transport.state;
  }

  #warn(error: Error) {
    console.warn(`mqtt: ${error.message}`);
  }

  async #id(deviceNumber: string): Promise<number | undefined> {
    const known = this.#ids.get(deviceNumber);
    if (known) return known;
    const row = await this.db.selectFrom('t_device').select('fId').where('fNumber', '=', deviceNumber).executeTakeFirst();
    if (row) this.#ids.set(deviceNumber, row.fId);
    return row?.fId;
  }

  async #status(deviceNumber: string, online: boolean, version?: string) {
    const id = await this.#id(deviceNumber);
    if (!id) return;
    await this.db
      .updateTable('t_device')
      .set({ tOnline: online ? 1 : 0, ...(online ? { fLastOnlineTime: new Date() } : {}), ...(version ? { fVersion: version } : {}) })
      .where('fId', '=', id)
      .execute();
    this.emit('device', { fId: id, fNumber: deviceNumber, tOnline: online ? 1 : 0 });
  }

  async #telemetry(deviceNumber: string, r: { voltage: number; current: number; power: number; energy: number; temperature: number; leakage: number; switch: 0 | 1; lock: 0 | 1 }, ts: number) {
    const id = await this.#id(deviceNumber);
    if (!id) return;
    const time = new Date(ts);
    await this.db
      .insertInto('t_device_telemetry')
      .values({ fDeviceId: id, fTime: time, voltage: r.voltage, current: r.current, power: r.power, energy: r.energy, temperature: r.temperature, leakage: r.leakage, switch: r.switch })
      .execute();
    const before = await this.db.selectFrom('t_device').select(['switchStatus', 'fLock', 'tOnline', 'fStateTime']).where('fId', '=', id).executeTakeFirst();
    // A device that reports is online, even when its status message was missed; its switch and lock state
    // count only when the reading is newer than the state stored (an acknowledgement may have overtaken it).
    const fresh = !before?.fStateTime || new Date(before.fStateTime as Date) <= time;
    await this.db
      .updateTable('t_device')
      .set({ tOnline: 1, fLastOnlineTime: time, ...(fresh ? { switchStatus: r.switch, fLock: r.lock, fStateTime: time } : {}) })
      .where('fId', '=', id)
      .execute();
    if (before && ((fresh && (before.switchStatus !== r.switch || before.fLock !== r.lock)) || before.tOnline !== 1)) {
      this.emit('device', { fId: id, fNumber: deviceNumber, tOnline: 1, ...(fresh ? { switchStatus: r.switch, fLock: r.lock } : {}) });
    }
  }

  async #alarm(deviceNumber: string, a: { kind: string; field: string; value: number; limit: number; level: string; active: boolean }) {
    const id = await this.#id(deviceNumber);
    if (!id) return;
    await this.db
      .insertInto('t_device_alarm')
      .values({ fDeviceId: id, fKind: a.kind, fField: a.field, fValue: a.value, fLimit: a.limit, fLevel: a.level, fActive: a.active ? 1 : 0 })
      .execute();
  }

  async #log(e: { direction: 'up' | 'down'; topic: string; productNumber: string; deviceNumber: string; payload: string }) {
    let bid: string | null = null;
    try {
      const parsed = JSON.parse(e.payload);
      if (parsed && parsed.bid !== undefined) bid = String(parsed.bid);
    } catch {
      // Logged as it came: the message log is where a malformed payload is looked at.
    }
    await this.db
      .insertInto('t_emq_message_publish')
      .values({ fDeviceId: (await this.#id(e.deviceNumber)) ?? null, fDeviceNumber: e.deviceNumber, fProductNumber: e.productNumber, fDirection: e.direction, fTopic: e.topic, fBid: bid, fPayload: e.payload })
      .execute();
  }

  /** The device with what routing needs: its product number and, for a child, its gateway. */
  async find(deviceId: number): Promise<LiveDevice | undefined> {
    const row = await this.db
      .selectFrom('t_device as d')
      .innerJoin('t_product as p', 'p.fId', 'd.fProductId')
      .leftJoin('t_gateway_device as gd', 'gd.fDeviceId', 'd.fId')
      .leftJoin('t_device as g', 'g.fId', 'gd.fGatewayId')
      .leftJoin('t_product as gp', 'gp.fId', 'g.fProductId')
      .select(['d.fId', 'd.fNumber', 'd.fTypeId', 'd.tOnline', 'p.fNumber as productNumber', 'g.fNumber as gatewayNumber', 'gp.fNumber as gatewayProductNumber'])
      .where('d.fId', '=', deviceId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { gatewayNumber, gatewayProductNumber, ...device } = row;
    return { ...device, ...(gatewayNumber ? { gateway: { fNumber: gatewayNumber, productNumber: gatewayProductNumber } } : {}) } as LiveDevice;
  }

  /** Sends a command and answers the device's own acknowledgement (a child's, when sent through its gateway). */
  async send(device: LiveDevice, command: Command, options: { mid: string; timeoutMs: number }): Promise<Ack> {
    if (!device.gateway) return this.transport.sendCommand(device.productNumber, device.fNumber, command, options);
    const ack = await this.transport.sendCommand(device.gateway.productNumber, device.gateway.fNumber, { ...command, Children: [device.fNumber] }, options);
    const child = ack.Children?.find((c) => c.ClientID === device.fNumber);
    return child ? { ...ack, ack: child.ack, code: child.code, message: child.message, state: child.state } : ack;
  }
}

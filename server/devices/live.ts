/**
 * Live devices: connects the server to the MQTT broker (the embedded one unless MQTT_URL is set),
 * writes what devices say into the database (online state, switch and lock, telemetry, alarms, the
 * message log), and routes commands to a device or, for a gateway's child, through its gateway.
 */
import { EventEmitter } from 'node:events';
import type { DB } from '../db';
import { DeviceTransport, type MessageEvent, type ProgressEvent, type TransportState } from '../mqtt/transport';
import type { Ack, Command } from '../mqtt/protocol';
import { Ingest, type IngestHandlers, type IngestItem, type IngestOptions, type IngestSource } from './ingest';

export interface LiveDevice {
  fId: number;
  fNumber: string;
  fTypeId: number | null;
  tOnline: number | null;
  productNumber: string;
  /** Set when the device hangs off a gateway: commands go through it. */
  gateway?: { fNumber: string; productNumber: string };
}

/**
 * `state`: this replica's own connection to the broker. `message` and `progress` come from that
 * connection and, on the replica that ingests, from the ingest connection. What devices say reaches the
 * consoles of every replica through the relay (server/relay.ts), not from here.
 */
export interface LiveEvents {
  state: [TransportState];
  /** Every device message in and command out, raw. */
  message: [MessageEvent];
  /** Firmware upgrade steps (read on the ingest connection). */
  progress: [ProgressEvent];
}

export class LiveDevices extends EventEmitter<LiveEvents> {
  /** Stores device messages in batches and tells the transport when they are committed. */
  readonly ingest: Ingest;

  constructor(
    readonly db: DB,
    /** This replica's own connection: commands out, their acknowledgements and device statuses in. */
    readonly transport: DeviceTransport,
    /** What a security device's message means (the security domain's, handed in so this side does not import it). */
    security: IngestHandlers['security'],
    ingestOptions: IngestOptions = {},
  ) {
    super();
    this.ingest = new Ingest(
      db,
      {
        security,
        warn: (err) => this.#warn(err),
      },
      ingestOptions,
    );
    transport.on('state', (s) => this.emit('state', s));
    this.read(transport);
  }

  /**
   * Stores what the transport receives (this replica's own connection, and the ingest connection while it
   * holds it); answers the source, to abandon when the connection is given up without its messages stored.
   * `fence`: the ingest lock session's backend pid, which the writes of what this connection delivers check.
   */
  read(transport: DeviceTransport, fence?: number): IngestSource {
    transport.attach(this.ingest);
    const source: IngestSource = { abandoned: false, fence };
    const push = (item: IngestItem) => this.ingest.push(Object.assign(item, { source }));
    transport.on('status', (e) => push({ kind: 'status', deviceNumber: e.deviceNumber, online: e.online, version: e.version, at: new Date() }));
    transport.on('telemetry', (e) => push({ kind: 'telemetry', deviceNumber: e.deviceNumber, readings: e.readings, time: new Date(e.ts), redelivered: e.redelivered }));
    transport.on('alarm', (e) => push({ kind: 'alarm', deviceNumber: e.deviceNumber, alarm: e.alarm }));
    transport.on('security', (e) => push({ kind: 'security', deviceNumber: e.deviceNumber, event: e.event }));
    transport.on('message', (e) => {
      push({ kind: 'log', deviceNumber: e.deviceNumber, productNumber: e.productNumber, direction: e.direction, topic: e.topic, payload: e.payload, bid: e.bid });
      this.emit('message', e);
    });
    transport.on('progress', (e) => this.emit('progress', e));
    transport.on('warning', (err) => this.#warn(err));
    return source;
  }

  get state(): TransportState {
    return this.transport.state;
  }

  #warn(error: Error) {
    console.warn(`mqtt: ${error.message}`);
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

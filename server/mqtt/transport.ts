import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import mqtt, { type IPublishPacket, type MqttClient } from 'mqtt';
import { resolveProtocolVersion, type ProtocolChoice, type ProtocolVersion } from './connect.js';
import { allDevices, deviceTopic, parseTopic, type Channel } from './topics.js';
import type {
  Ack,
  AlarmMessage,
  Command,
  CommandMessage,
  Readings,
  SecurityMessage,
  StatusMessage,
  TelemetryMessage,
  UpgradeProgressMessage,
} from './protocol.js';
import { businessId } from './protocol.js';

export type TransportState = 'connected' | 'reconnecting' | 'offline';

export interface DeviceTransportOptions {
  /** mqtt://host:port; the embedded broker is mqtt://127.0.0.1:1884. */
  url: string;
  /** 4 for aedes, 5 for Mosquitto/EMQX; 'auto' (default) asks the broker once at connect time. */
  protocolVersion?: ProtocolChoice;
  username?: string;
  password?: string;
  clientId?: string;
  /**
   * The device channels this connection reads (plain subscriptions to every device's). A server reads
   * `ack` and `status` on its own connection and `up` on the installation's ingest connection, which one
   * replica at a time holds (server/devices/leader.ts).
   */
  channels?: Exclude<Channel, 'down'>[];
  /**
   * Keep the broker session across disconnects and restarts (clean: false; MQTT 5 session expiry),
   * so QoS 1 messages sent while this client was away, or not yet acknowledged when it died, are
   * delivered again. Needs a clientId that stays the same across restarts.
   */
  persistentSession?: boolean;
  /** Seconds an MQTT 5 broker keeps the persistent session after a disconnect. */
  sessionExpirySeconds?: number;
  /** MQTT 5 Receive Maximum: QoS 1 messages the broker may have sent unacknowledged at a time. */
  receiveMaximum?: number;
  reconnectPeriodMs?: number;
  connectTimeoutMs?: number;
  /** Default for sendCommand when the caller gives none. */
  commandTimeoutMs?: number;
}

export interface SendOptions {
  timeoutMs?: number;
  /** Use the caller's id (e.g. the command row id) instead of a generated one. */
  mid?: string;
}

export type CommandErrorCode = 'timeout' | 'not-connected' | 'disconnected' | 'closed' | 'publish-failed';

export class CommandError extends Error {
  constructor(
    readonly code: CommandErrorCode,
    message: string,
    readonly mid?: string,
  ) {
    super(message);
    this.name = 'CommandError';
  }
}

interface DeviceRef {
  productNumber: string;
  deviceNumber: string;
  /** Set when a gateway reported for this child device; then productNumber is the gateway's. */
  gateway?: string;
}

export interface TelemetryEvent extends DeviceRef {
  readings: Readings;
  ts: number;
  /** The broker sent this message before (MQTT DUP): it may already be stored. */
  redelivered?: boolean;
}
export interface StatusEvent extends DeviceRef {
  online: boolean;
  type?: number;
  version?: string;
}
export interface AlarmEvent extends DeviceRef {
  alarm: AlarmMessage;
}
export interface AckEvent extends DeviceRef {
  ack: Ack;
  /** The command had already been settled (timed out or failed) when this arrived. */
  late: boolean;
}
export interface SecurityEvent extends DeviceRef {
  event: SecurityMessage;
}
export interface ProgressEvent extends DeviceRef {
  progress: UpgradeProgressMessage;
}
export interface MessageEvent {
  direction: 'up' | 'down';
  topic: string;
  channel: Channel;
  productNumber: string;
  deviceNumber: string;
  payload: string;
  /** The payload's business id, as read once here (the message log keeps it). */
  bid: string | null;
}

export interface TransportEvents {
  state: [TransportState];
  telemetry: [TelemetryEvent];
  status: [StatusEvent];
  alarm: [AlarmEvent];
  /** Rental-house security events of door locks and access controls. */
  security: [SecurityEvent];
  ack: [AckEvent];
  progress: [ProgressEvent];
  /** Every device message in and every command out, raw, for the message log. */
  message: [MessageEvent];
  /** Malformed payloads and client errors; never thrown, since a bad device must not stop the server. */
  warning: [Error];
}

/**
 * Where the device messages are stored. The transport hands each message's events over synchronously,
 * then asks the sink when they are committed (a QoS 1 message is acknowledged to the broker only then)
 * and whether there is room for more (if not, it stops reading from the broker until there is).
 */
export interface IngestSink {
  /** Resolves once everything handed over so far is stored. */
  committed(): Promise<void>;
  /** A promise to wait on before taking more, or undefined when there is room now. */
  room(): Promise<void> | undefined;
}

/** Tells mqtt.js not to send the PUBACK itself: the transport sends it once the message is committed. */
const ACK_LATER = new Error('acknowledged once stored');

interface Pending {
  resolve(ack: Ack): void;
  reject(err: CommandError): void;
  timer: NodeJS.Timeout;
}

const RECENT_MIDS = 10_000;

export class DeviceTransport extends EventEmitter<TransportEvents> {
  readonly options: Required<Omit<DeviceTransportOptions, 'username' | 'password'>> &
    Pick<DeviceTransportOptions, 'username' | 'password'>;
  private client?: MqttClient;
  private current: TransportState = 'offline';
  private version?: ProtocolVersion;
  private starting?: Promise<void>;
  private closed = false;
  /** Closed without draining: no PUBACK is sent any more. */
  private abandoned = false;
  private readonly pending = new Map<string, Pending>();
  /** Mids this instance sent, so acks for other replicas' commands are ignored. */
  private readonly sent = new Set<string>();
  /** The newest group of messages waiting for their commit to be acknowledged. */
  private acks?: { commit: Promise<void>; client: MqttClient; stream: MqttClient['stream']; ids: number[] };
  private readonly midPrefix = randomBytes(4).toString('hex');
  private seq = 0;
  /** Last known children per gateway, so a gateway's last will (which lists none) takes them offline too. */
  private readonly childrenOf = new Map<string, string[]>();
  private sink?: IngestSink;

  constructor(options: DeviceTransportOptions) {
    super();
    this.options = {
      protocolVersion: 'auto',
      clientId: `console-${randomBytes(6).toString('hex')}`,
      channels: ['up', 'ack', 'status'],
      persistentSession: false,
      sessionExpirySeconds: 3600,
      receiveMaximum: 20_000,
      reconnectPeriodMs: 1000,
      connectTimeoutMs: 5000,
      commandTimeoutMs: 10_000,
      ...options,
    };
  }

  get state(): TransportState {
    return this.current;
  }

  /** The MQTT protocol level in use, known once connected. */
  get protocolVersion(): ProtocolVersion | undefined {
    return this.version;
  }

  /** From now on, QoS 1 messages are acknowledged when `sink` has stored them, and reading waits for its room. */
  attach(sink: IngestSink): void {
    this.sink = sink;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Starts connecting and resolves once connected. If the broker is not reachable within `waitMs`
   * the promise rejects but the transport keeps trying in the background (state 'reconnecting'),
   * so a server can start before its broker.
   */
  connect({ waitMs = 15_000 }: { waitMs?: number } = {}): Promise<void> {
    if (this.closed) return Promise.reject(new Error('transport closed'));
    this.starting ??= this.start();
    if (this.current === 'connected') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('state', onState);
        reject(new Error(`MQTT broker ${this.options.url} not reachable within ${waitMs} ms`));
      }, waitMs);
      const onState = (s: TransportState) => {
        if (s === 'connected') {
          clearTimeout(timer);
          this.off('state', onState);
          resolve();
        } else if (this.closed) {
          clearTimeout(timer);
          this.off('state', onState);
          reject(new Error('transport closed'));
        }
      };
      this.on('state', onState);
    });
  }

  private async start(): Promise<void> {
    const { url, username, password, connectTimeoutMs, reconnectPeriodMs } = this.options;
    // Protocol detection needs a live broker; keep asking until one answers.
    while (!this.closed && this.version === undefined) {
      try {
        this.version = await resolveProtocolVersion(url, this.options.protocolVersion, {
          username,
          password,
          connectTimeoutMs,
        });
      } catch (err) {
        this.setState('reconnecting');
        this.emit('warning', err as Error);
        await new Promise((r) => setTimeout(r, reconnectPeriodMs));
      }
    }
    if (this.closed) return;

    const { persistentSession, sessionExpirySeconds, receiveMaximum } = this.options;
    const client = mqtt.connect(url, {
      clientId: this.options.clientId,
      username,
      password,
      protocolVersion: this.version,
      clean: !persistentSession,
      ...(this.version === 5
        ? { properties: { receiveMaximum, ...(persistentSession ? { sessionExpiryInterval: sessionExpirySeconds } : {}) } }
        : {}),
      reconnectPeriod: reconnectPeriodMs,
      connectTimeout: connectTimeoutMs,
      // Commands are never queued while offline: the caller gets an immediate failure instead.
      queueQoSZero: false,
      resubscribe: true,
    });
    this.client = client;

    client.on('connect', () => {
      this.subscribe(client);
      this.setState('connected');
    });
    client.on('close', () => {
      this.failAll('disconnected', 'connection to the MQTT broker was lost before the acknowledgement');
      if (!this.closed) this.setState('reconnecting');
    });
    client.on('error', (err) => this.emit('warning', err));
    // mqtt.js takes the next packet off the socket only when this callback has been called: holding it
    // is how a full sink stops reading (TCP back-pressure, then the broker's own queue and inflight window).
    client.handleMessage = (packet, callback) => this.receive(client, packet as IPublishPacket, callback);
  }

  private receive(client: MqttClient, packet: IPublishPacket, callback: (error?: Error) => void): void {
    // Only PUBLISH packets and QoS 2 PUBRELs come here; PUBRELs carry no message.
    if ((packet as { cmd: string }).cmd !== 'publish') return callback();
    // Closing: neither taken nor acknowledged, so the broker keeps it for the session's next holder.
    if (this.closed) return;
    this.onMessage(packet.topic, typeof packet.payload === 'string' ? packet.payload : packet.payload.toString('utf8'), packet.dup === true);
    const sink = this.sink;
    const later = packet.qos === 1 && sink !== undefined && packet.messageId !== undefined;
    if (later) this.ackWhenCommitted(client, sink, packet.messageId!);
    const go = () => callback(later ? ACK_LATER : undefined);
    const wait = sink?.room();
    if (wait) void wait.then(go);
    else go();
  }

  /**
   * Messages handed over before the same commit wait on the same promise: their packet ids are gathered
   * and acknowledged together when it resolves, in one write to the socket rather than one each.
   */
  private ackWhenCommitted(client: MqttClient, sink: IngestSink, messageId: number): void {
    const commit = sink.committed();
    const last = this.acks;
    if (last && last.commit === commit && last.client === client && last.stream === client.stream) {
      last.ids.push(messageId);
      return;
    }
    const group = { commit, client, stream: client.stream, ids: [messageId] };
    this.acks = group;
    void commit.then(() => {
      if (this.acks === group) this.acks = undefined;
      this.puback(group.client, group.stream, group.ids);
    });
  }

  private puback(client: MqttClient, stream: MqttClient['stream'], messageIds: number[]): void {
    // A packet id of an earlier connection means nothing on this one: the broker sends that message again.
    // Nor is anything acknowledged once the connection is given up without draining (its messages were
    // abandoned, not stored): the socket may not be closed yet.
    if (client.stream !== stream || !client.connected || this.abandoned) return;
    const send = client as unknown as { _sendPacket(packet: object, cb: () => void): void };
    stream.cork();
    for (const messageId of messageIds) send._sendPacket({ cmd: 'puback', messageId }, () => undefined);
    stream.uncork();
  }

  /**
   * Subscribes on every connection, at once, whether or not the broker kept the session: a broker that
   * lost it (no persistence) would otherwise deliver nothing. Subscribing again to what a kept session has
   * is harmless (plain subscriptions; retained statuses are sent again).
   */
  private subscribe(client: MqttClient): void {
    client.subscribe(this.options.channels.map((c) => allDevices(c)), { qos: 1 }, (err) => {
      if (err) this.emit('warning', err);
    });
  }

  private setState(state: TransportState): void {
    if (state === this.current) return;
    this.current = state;
    this.emit('state', state);
  }

  private nextMid(): string {
    this.seq = (this.seq + 1) % Number.MAX_SAFE_INTEGER;
    return `${this.midPrefix}-${this.seq}`;
  }

  private remember(mid: string): void {
    this.sent.add(mid);
    if (this.sent.size > RECENT_MIDS) {
      const oldest = this.sent.values().next().value;
      if (oldest !== undefined) this.sent.delete(oldest);
    }
  }

  /**
   * Publishes a command and resolves with the device's acknowledgement (which may say ack: false).
   * Rejects with CommandError: 'not-connected' at once when the broker connection is down,
   * 'disconnected' when it drops before the ack, 'timeout' when no ack arrives in time.
   */
  sendCommand(
    productNumber: string,
    deviceNumber: string,
    command: Command,
    { timeoutMs = this.options.commandTimeoutMs, mid = this.nextMid() }: SendOptions = {},
  ): Promise<Ack> {
    const client = this.client;
    if (this.closed) return Promise.reject(new CommandError('closed', 'transport closed', mid));
    if (!client || this.current !== 'connected' || !client.connected) {
      return Promise.reject(new CommandError('not-connected', 'not connected to the MQTT broker', mid));
    }
    if (this.pending.has(mid)) {
      return Promise.reject(new CommandError('publish-failed', `message id ${mid} already in flight`, mid));
    }
    let topic: string;
    try {
      topic = deviceTopic(productNumber, deviceNumber, 'down');
    } catch (err) {
      return Promise.reject(new CommandError('publish-failed', (err as Error).message, mid));
    }
    const message: CommandMessage = { ...command, mid, ClientID: deviceNumber, ts: Date.now() };
    const payload = JSON.stringify(message);

    return new Promise<Ack>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(mid)) {
          reject(new CommandError('timeout', `no acknowledgement from ${deviceNumber} within ${timeoutMs} ms`, mid));
        }
      }, timeoutMs);
      this.pending.set(mid, { resolve, reject, timer });
      this.remember(mid);
      // QoS 0: the acknowledgement is the delivery guarantee. A QoS 1 publish would be replayed by
      // the client after a reconnect, executing a command the caller was already told had failed.
      client.publish(topic, payload, { qos: 0 }, (err) => {
        if (err) this.settle(mid, new CommandError('publish-failed', err.message, mid));
      });
      this.emit('message', { direction: 'down', topic, channel: 'down', productNumber, deviceNumber, payload, bid: businessId(message) });
    });
  }

  private settle(mid: string, outcome: Ack | CommandError): boolean {
    const p = this.pending.get(mid);
    if (!p) return false;
    this.pending.delete(mid);
    clearTimeout(p.timer);
    if (outcome instanceof CommandError) p.reject(outcome);
    else p.resolve(outcome);
    return true;
  }

  private failAll(code: CommandErrorCode, message: string): void {
    for (const mid of [...this.pending.keys()]) this.settle(mid, new CommandError(code, message, mid));
  }

  private onMessage(topic: string, payload: string, redelivered = false): void {
    const parsed = parseTopic(topic);
    if (!parsed || parsed.channel === 'down') return;
    const { productNumber, deviceNumber, channel } = parsed;

    let data: Record<string, unknown>;
    try {
      data = payload === '' ? {} : JSON.parse(payload);
      if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('not an object');
    } catch {
      this.emit('warning', new Error(`malformed payload on ${topic}: ${payload.slice(0, 100)}`));
      return;
    }
    // Acks of other replicas' commands are not ours to log or handle.
    if (channel === 'ack' && !this.sent.has(String(data.mid))) return;
    this.emit('message', { direction: 'up', topic, channel, productNumber, deviceNumber, payload, bid: businessId(data) });

    if (channel === 'status') {
      // An empty retained payload clears the status (a deleted device); nothing to report.
      if (payload === '') return;
      const status = data as unknown as StatusMessage;
      const online = status.online === true;
      this.emit('status', { productNumber, deviceNumber, online, type: status.type, version: status.version });
      const key = `${productNumber}/${deviceNumber}`;
      if (status.Children) this.childrenOf.set(key, status.Children.map((c) => c.ClientID));
      const children = status.Children ?? (online ? [] : (this.childrenOf.get(key) ?? []).map((ClientID) => ({ ClientID, online: false })));
      for (const child of children) {
        this.emit('status', {
          productNumber,
          deviceNumber: child.ClientID,
          gateway: deviceNumber,
          // A gateway that went away takes its children with it.
          online: online && child.online === true,
        });
      }
      return;
    }

    if (channel === 'ack') {
      const ack = data as unknown as Ack;
      const late = !this.settle(String(ack.mid), ack);
      this.emit('ack', { productNumber, deviceNumber, ack, late });
      return;
    }

    switch (data.bid) {
      case 'telemetry': {
        const t = data as unknown as TelemetryMessage;
        const { bid: _bid, ClientID: _id, ts, Children, ...readings } = t;
        this.emit('telemetry', { productNumber, deviceNumber, readings, ts: ts ?? Date.now(), ...(redelivered ? { redelivered } : {}) });
        for (const child of Children ?? []) {
          const { ClientID, ...childReadings } = child;
          this.emit('telemetry', {
            productNumber,
            deviceNumber: ClientID,
            gateway: deviceNumber,
            readings: childReadings,
            ts: ts ?? Date.now(),
            ...(redelivered ? { redelivered } : {}),
          });
        }
        return;
      }
      case 'alarm': {
        const alarm = data as unknown as AlarmMessage;
        const child = alarm.ClientID && alarm.ClientID !== deviceNumber;
        this.emit('alarm', {
          productNumber,
          deviceNumber: child ? alarm.ClientID : deviceNumber,
          gateway: child ? deviceNumber : undefined,
          alarm,
        });
        return;
      }
      case 'security':
        this.emit('security', { productNumber, deviceNumber, event: data as unknown as SecurityMessage });
        return;
      case 'upgrade':
        this.emit('progress', { productNumber, deviceNumber, progress: data as unknown as UpgradeProgressMessage });
        return;
      default:
        this.emit('warning', new Error(`unknown bid ${String(data.bid)} on ${topic}`));
    }
  }

  /**
   * Ends the connection; commands still waiting are rejected with 'closed'. It stops taking messages at
   * once; with `drain` it then waits (at most `drainMs`) until those taken are stored and acknowledged,
   * and says DISCONNECT, which leaves a persistent session in place: what the broker has not had
   * acknowledged, and what arrives later, goes to the session's next holder.
   */
  async close({ drain = false, drainMs = 10_000 }: { drain?: boolean; drainMs?: number } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.abandoned = !drain;
    this.failAll('closed', 'transport closed');
    await this.starting;
    const client = this.client;
    if (client && drain && this.sink) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise((r) => (timer = setTimeout(r, drainMs)));
      // The PUBACKs are written when the commit resolves, before this wait ends; DISCONNECT follows them.
      await Promise.race([this.sink.committed(), late]).finally(() => clearTimeout(timer));
    }
    // A DISCONNECT (not a dropped socket) lets the PUBACKs written before it reach the broker.
    if (client) await client.endAsync(!(drain && client.connected));
    this.setState('offline');
    this.removeAllListeners();
  }
}

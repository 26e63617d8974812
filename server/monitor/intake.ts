/**
 * Overload is never silent: what the broker says of itself and what this replica's intake does, for the
 * system monitor, and an alarm to administrators when device messages are dropped or storing falls behind.
 *
 * - The broker: a connection of its own subscribed to `$SYS/#`. Mosquitto publishes `$SYS/broker/...`
 *   (every `sys_interval`, 10 s by default): clients connected, messages stored, and
 *   `publish/messages/dropped` — messages it threw away because a session's queue was full
 *   (max_queued_messages, max_queued_bytes: README, "Broker settings"). EMQX publishes
 *   `$SYS/brokers/<node>/stats/...` and `.../metrics/...` with the same names where it has them. A broker
 *   that says nothing of itself (the embedded one) shows as "not reported".
 * - The intake (server/devices/ingest.ts): messages offered by the broker and stored, per second over the
 *   last sample window, how many wait, and the lag — how long the oldest waiting message has waited.
 *
 * The alarm: a rise of the broker's dropped count, or a lag past INTAKE_LAG_ALARM_S. Every replica
 * watches; `raise` (server/administration/intakeAlarm.ts) makes sure administrators are told once.
 */
import mqtt, { type MqttClient } from 'mqtt';
import type { IntakeCounts } from '../devices/ingest';

const CHECK_MS = 5000;

export interface BrokerFigures {
  /** Whether this watch is connected to the broker, and whether the broker has said anything of itself. */
  connected: boolean;
  reported: boolean;
  clients: number | null;
  /** Messages the broker dropped since it started (a session's queue full, an inflight window full). */
  dropped: number | null;
  /** Messages the broker holds (queued for sessions, retained, in flight). */
  stored: number | null;
  received: number | null;
  sent: number | null;
}

export interface IntakeFigures {
  offeredPerSecond: number;
  storedPerSecond: number;
  waiting: number;
  lagMs: number;
  lagAlarmMs: number;
  /** Whether this replica stores the devices' messages now (it had some to store lately). */
  ingesting: boolean;
}

export type IntakeAlarm = { kind: 'dropped'; count: number } | { kind: 'lagging'; seconds: number; limit: number };

export interface IntakeWatch {
  broker(): BrokerFigures;
  intake(): IntakeFigures;
  stop(): Promise<void>;
}

/** `$SYS/broker/clients/connected` (Mosquitto), `$SYS/brokers/<node>/stats/connections/count` (EMQX) → the figure's name. */
const NAMES: [RegExp, keyof Omit<BrokerFigures, 'connected' | 'reported'>][] = [
  [/\/(clients\/connected|connections\/count)$/, 'clients'],
  [/\/(publish\/messages\/dropped|messages\/dropped)$/, 'dropped'],
  [/\/(messages\/stored|store\/messages\/count)$/, 'stored'],
  [/^\$SYS\/broker\/messages\/received$|\/metrics\/messages\/received$/, 'received'],
  [/^\$SYS\/broker\/messages\/sent$|\/metrics\/messages\/sent$/, 'sent'],
];

const round = (v: number) => Math.round(v * 10) / 10;

export function watchIntake(options: {
  brokerUrl: string;
  clientId?: string;
  counts: () => IntakeCounts;
  lagAlarmMs: number;
  raise: (alarm: IntakeAlarm) => Promise<void>;
}): IntakeWatch {
  const figures: BrokerFigures = { connected: false, reported: false, clients: null, dropped: null, stored: null, received: null, sent: null };
  // A clean session of its own: $SYS figures are published afresh, nothing needs keeping.
  const client: MqttClient = mqtt.connect(options.brokerUrl, { clientId: `${options.clientId ?? 'iot-console'}-sys-${process.pid}`, clean: true, reconnectPeriod: 5000, connectTimeout: 5000 });
  client.on('connect', () => {
    figures.connected = true;
    client.subscribe('$SYS/#', { qos: 0 });
  });
  client.on('close', () => (figures.connected = false));
  client.on('error', () => undefined);
  // The first dropped count the broker gives is its count since it started: the rises after it are this watch's.
  let droppedSeen: number | null = null;
  client.on('message', (topic, payload) => {
    const value = Number(String(payload));
    if (!Number.isFinite(value)) return;
    for (const [pattern, name] of NAMES) {
      if (!pattern.test(topic)) continue;
      figures[name] = value;
      figures.reported = true;
      if (name === 'dropped') droppedSeen ??= value;
    }
  });

  let last = { at: Date.now(), counts: options.counts() };
  let rates = { offeredPerSecond: 0, storedPerSecond: 0 };
  let lagging = false;
  const check = async () => {
    const now = { at: Date.now(), counts: options.counts() };
    const seconds = (now.at - last.at) / 1000;
    rates = { offeredPerSecond: round((now.counts.offered - last.counts.offered) / seconds), storedPerSecond: round((now.counts.stored - last.counts.stored) / seconds) };
    last = now;
    const dropped = figures.dropped;
    if (dropped !== null && droppedSeen !== null && dropped !== droppedSeen) {
      // Lower: the broker restarted and counts afresh.
      const rise = dropped > droppedSeen ? dropped - droppedSeen : 0;
      droppedSeen = dropped;
      if (rise) await options.raise({ kind: 'dropped', count: rise });
    }
    // Told once when the lag passes the limit, again only after it came back under.
    const over = now.counts.lagMs > options.lagAlarmMs;
    if (over && !lagging) await options.raise({ kind: 'lagging', seconds: Math.round(now.counts.lagMs / 1000), limit: Math.round(options.lagAlarmMs / 1000) });
    lagging = over;
  };
  let checking: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    checking = checking.then(check).catch((e: Error) => console.warn(`intake watch: ${e.message}`));
  }, CHECK_MS);

  return {
    broker: () => ({ ...figures }),
    intake: () => {
      const counts = options.counts();
      return { ...rates, waiting: counts.waiting, lagMs: counts.lagMs, lagAlarmMs: options.lagAlarmMs, ingesting: counts.offered > 0 && (rates.offeredPerSecond > 0 || counts.waiting > 0) };
    },
    async stop() {
      clearInterval(timer);
      await checking;
      await client.endAsync(true).catch(() => undefined);
    },
  };
}

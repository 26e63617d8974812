/**
 * Events every replica hears. Several servers may share one database (and one MQTT broker's shared
 * subscription, so each device message is handled by one of them); what one replica learns that the
 * consoles or the other replicas must hear travels as a PostgreSQL NOTIFY on one channel. PostgreSQL
 * delivers it when the publishing transaction commits — never for a rolled-back one — to every replica,
 * the publishing one included, so each replica hears its own events the same way as the others'. On
 * PGlite the one process is the only replica and NOTIFY is delivered in process.
 *
 * A topic is a name in RelayEvents and the type of its items; publish() packs items into as few
 * notifications as the 8000-byte payload limit allows.
 */
import type { DeviceAlarmEvent } from '../contract/deviceAlarm';
import type { DeviceImportProgress } from '../contract/deviceImport';
import { EventEmitter } from 'node:events';
import { sql } from 'kysely';
import type { DB, Database } from './db';
import type { AlarmEvent, DeviceChange, MessageEvent } from '../contract/liveEvents';

export type { AlarmEvent, DeviceChange, MessageEvent };

/** Every topic, with what one item of it carries. */
export interface RelayEvents {
  /** A device's online state, switch or lock changed (a batch of device messages, an acknowledged command). */
  device: DeviceChange;
  /** A device raised or cleared a threshold alarm (t_device_alarm). */
  deviceAlarm: DeviceAlarmEvent;
  /** A new rental-house alarm (t_alarm). */
  alarm: AlarmEvent;
  /** A new message of the message centre. */
  message: MessageEvent;
  /** How far a device import has got, for the event stream of the user who sent it (server/devices/deviceTransfer.ts). */
  deviceImport: DeviceImportProgress & { userId: number };
  /** A timer fired with a reverse action due at `at` (ISO time): every replica wakes then to claim it. */
  reverse: { at: string };
  /**
   * A change to what the session cache holds (server/auth/sessions.ts): `user:<id>`, `token:<jti>`, `all`,
   * or a write's own `barrier:<id>`. Published by the triggers of migrations 017 and 023 as well.
   */
  session: string;
}


export type Topic = keyof RelayEvents;

export interface Relay {
  /** Calls back with every item of the topic that any replica publishes; answers how to stop. */
  on<K extends Topic>(topic: K, handler: (item: RelayEvents[K]) => void): () => void;
  /**
   * Hands items to this replica's own listeners, without the database: for the embedded database, whose
   * one connection a long transaction may hold (a NOTIFY would wait for it) and whose one process is the
   * only replica anyway.
   */
  emit<K extends Topic>(topic: K, items: readonly RelayEvents[K][]): void;
  stop(): Promise<void>;
}

const CHANNEL = 'relay';
/** PostgreSQL refuses a payload of 8000 bytes or more; a little room is kept for the envelope. */
const PAYLOAD_BYTES = 7900;

/**
 * Sends the items to every replica when `db`'s transaction commits (at once when `db` is not a
 * transaction). One statement however many notifications the items need.
 */
export async function publish<K extends Topic>(db: DB, topic: K, items: readonly RelayEvents[K][]): Promise<void> {
  const payloads = pack(topic, items);
  if (payloads.length) await sql`select pg_notify(${CHANNEL}, p) from unnest(${payloads}::text[]) as p`.execute(db);
}

/** `{"t":topic,"i":[…]}` payloads, each under PAYLOAD_BYTES. An item too big alone is dropped with a warning. */
export function pack(topic: Topic, items: readonly unknown[]): string[] {
  const head = `{"t":${JSON.stringify(topic)},"i":[`;
  const payloads: string[] = [];
  let parts: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (parts.length) payloads.push(`${head}${parts.join(',')}]}`);
    parts = [];
    bytes = Buffer.byteLength(head) + 2;
  };
  flush();
  for (const item of items) {
    const text = JSON.stringify(item);
    const size = Buffer.byteLength(text) + 1;
    if (Buffer.byteLength(head) + 2 + size > PAYLOAD_BYTES) {
      console.warn(`relay: a ${topic} event of ${size} bytes is too big to send`);
      continue;
    }
    if (bytes + size > PAYLOAD_BYTES) flush();
    parts.push(text);
    bytes += size;
  }
  flush();
  return payloads;
}

/** Listens for every replica's events (one connection of its own on PostgreSQL). */
export async function startRelay(database: Pick<Database, 'listen'>): Promise<Relay> {
  const topics = new EventEmitter();
  // One listener per open console and topic.
  topics.setMaxListeners(0);
  const stop = await database.listen(CHANNEL, (payload) => {
    let parsed: { t: Topic; i: unknown[] };
    try {
      parsed = JSON.parse(payload);
    } catch (error) {
      console.warn(`relay: ${(error as Error).message}`);
      return;
    }
    for (const item of parsed.i) topics.emit(parsed.t, item);
  });
  return {
    on(topic, handler) {
      // One failing listener must not keep the event from the others.
      const guarded = (item: unknown) => {
        try {
          handler(item as RelayEvents[typeof topic]);
        } catch (error) {
          console.warn(`relay: ${topic}: ${(error as Error).message}`);
        }
      };
      topics.on(topic, guarded);
      return () => void topics.off(topic, guarded);
    },
    emit(topic, items) {
      for (const item of items) topics.emit(topic, item);
    },
    stop,
  };
}

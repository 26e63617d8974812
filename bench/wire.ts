/**
 * The ingest bench's own MQTT clients (3.1.1 or 5), for publishing and for a subscriber that only counts.
 * They share the machine with the server being measured, so they do as little as a client can: packets
 * are written straight to the socket, a tick's worth in one write, and the counter reads only each
 * packet's header and id. With mqtt.js, publishers and counter took about 1.7 of the 2 cores at 20,000
 * messages a second, which the server then could not have, however fast it was.
 */
import { connect as tcp, type Socket } from 'node:net';

const CONNECT = 0x10;
const CONNACK = 0x20;
const PUBLISH = 0x30;
const PUBACK = 0x40;
const SUBSCRIBE = 0x82;
const SUBACK = 0x90;
/** A QoS 1 message's id is 16 bits: no more may wait for their acknowledgement on one connection. */
const MAX_OUTSTANDING = 65_000;
const ACK_EVERY_MS = 5;

function varint(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) b |= 0x80;
    out.push(b);
  } while (n > 0);
  return out;
}

const str = (s: string) => {
  const b = Buffer.from(s, 'utf8');
  return [b.length >> 8, b.length & 0xff, ...b];
};

function packet(type: number, body: number[] | Buffer): Buffer {
  const b = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return Buffer.concat([Buffer.from([type, ...varint(b.length)]), b]);
}

/** Splits what arrives into packets: (first byte, body). */
function reader(onPacket: (type: number, body: Buffer) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    const buf = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let at = 0;
    for (;;) {
      if (buf.length - at < 2) break;
      let len = 0;
      let mul = 1;
      let i = at + 1;
      let complete = false;
      for (; i < buf.length && i < at + 5; i++) {
        len += (buf[i] & 0x7f) * mul;
        mul *= 128;
        if (!(buf[i] & 0x80)) {
          complete = true;
          i++;
          break;
        }
      }
      if (!complete || buf.length - i < len) break;
      onPacket(buf[at], buf.subarray(i, i + len));
      at = i + len;
    }
    pending = at < buf.length ? Buffer.from(buf.subarray(at)) : Buffer.alloc(0);
  };
}

export interface WireClient {
  socket: Socket;
  version: 4 | 5;
  /** Messages published at QoS 1 and not yet acknowledged. */
  outstanding: number;
  close(): void;
}

async function open(url: string, clientId: string, version: 4 | 5, onPacket: (c: WireClient, type: number, body: Buffer) => void): Promise<WireClient> {
  const u = new URL(url);
  const socket = tcp({ host: u.hostname, port: Number(u.port || 1883) });
  socket.setNoDelay(true);
  const client: WireClient = { socket, version, outstanding: 0, close: () => socket.destroy() };
  let connected!: () => void;
  let failed!: (e: Error) => void;
  const ready = new Promise<void>((res, rej) => ((connected = res), (failed = rej)));
  socket.on('error', (e) => failed(e));
  socket.on(
    'data',
    reader((type, body) => {
      if ((type & 0xf0) === CONNACK) {
        const code = body[1];
        return code === 0 ? connected() : failed(new Error(`connection refused: ${code}`));
      }
      onPacket(client, type, body);
    }),
  );
  await new Promise<void>((res, rej) => socket.once('connect', res).once('error', rej));
  // Clean session, keep-alive off; MQTT 5 asks for as many messages in flight as the server does.
  const props = version === 5 ? [...varint(3), 0x21, 20_000 >> 8, 20_000 & 0xff] : [];
  socket.write(packet(CONNECT, [...str('MQTT'), version, 0x02, 0, 0, ...props, ...str(clientId)]));
  await ready;
  return client;
}

/** A client that publishes: `publish` writes what it is given at once, `settled` waits for every PUBACK. */
export async function publisher(url: string, clientId: string, version: 4 | 5) {
  let nextId = 0;
  let idle: (() => void) | undefined;
  const client = await open(url, clientId, version, (c, type) => {
    if ((type & 0xf0) !== PUBACK) return;
    c.outstanding--;
    if (c.outstanding === 0) idle?.();
  });
  const props = version === 5 ? Buffer.from([0]) : Buffer.alloc(0);
  return {
    client,
    /** Writes these messages in one write; QoS 1 with ids of their own, or QoS 0. */
    publish(messages: { topic: string; payload: string }[], qos: 0 | 1): void {
      const parts: Buffer[] = [];
      for (const m of messages) {
        const topic = Buffer.from(str(m.topic));
        const payload = Buffer.from(m.payload, 'utf8');
        const id = qos ? Buffer.from([((nextId = (nextId % 65_535) + 1) >> 8) & 0xff, nextId & 0xff]) : Buffer.alloc(0);
        const len = topic.length + id.length + props.length + payload.length;
        parts.push(Buffer.from([PUBLISH | (qos << 1), ...varint(len)]), topic, id, props, payload);
        if (qos) client.outstanding++;
      }
      client.socket.write(Buffer.concat(parts));
    },
    /** Whether more may be published now without reusing an id still waiting for its PUBACK. */
    get room(): boolean {
      return client.outstanding < MAX_OUTSTANDING;
    },
    settled(): Promise<void> {
      if (client.outstanding === 0) return Promise.resolve();
      return new Promise((r) => (idle = r));
    },
    close: client.close,
  };
}

/** A subscriber that only counts what it receives, acknowledging QoS 1 messages a few milliseconds at a time. */
export async function counter(url: string, clientId: string, version: 4 | 5, filter: string, qos: 0 | 1, onMessage: () => void) {
  let acks: number[] = [];
  let subscribed!: () => void;
  const done = new Promise<void>((r) => (subscribed = r));
  const client = await open(url, clientId, version, (c, type, body) => {
    if ((type & 0xf0) === SUBACK) return subscribed();
    if ((type & 0xf0) !== PUBLISH) return;
    onMessage();
    if (((type >> 1) & 3) === 0) return;
    const topicLength = (body[0] << 8) | body[1];
    const id = body.subarray(2 + topicLength, 4 + topicLength);
    acks.push(PUBACK, 2, id[0], id[1]);
    if (acks.length === 4) {
      // What arrives within a few milliseconds is acknowledged in one write: a write per read would cost
      // a system call per handful of messages (the broker lets 20,000 wait for their acknowledgement).
      setTimeout(() => {
        c.socket.write(Buffer.from(acks));
        acks = [];
      }, ACK_EVERY_MS);
    }
  });
  const props = version === 5 ? [0] : [];
  client.socket.write(packet(SUBSCRIBE, [0, 1, ...props, ...str(filter), qos]));
  await done;
  return client;
}

/**
 * A TCP relay on a replica's link with a latency that can be set while it runs (this kernel has no netem):
 * every chunk is passed on `delayMs` after it arrived, in order, both ways. With no delay it passes bytes on
 * at once; the protocol's own keepalives (MQTT's PINGREQ) still cross it end to end, so a replica cut off
 * behind it is noticed by the broker as one cut off in production would be.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface DelayRelay {
  port: number;
  delayMs: number;
  close(): Promise<void>;
}

/**
 * Passes what `from` sends on to `to`, each chunk `relay.delayMs` after it came, in the order they came: one
 * queue per direction, drained by one timer (timers of different lengths may fire out of order).
 */
function pipeDelayed(from: Socket, to: Socket, relay: { delayMs: number }) {
  const queue: { at: number; chunk: Buffer | null }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const pump = () => {
    timer = undefined;
    while (queue.length && queue[0].at <= Date.now()) {
      const { chunk } = queue.shift()!;
      if (chunk === null) to.end();
      else if (to.writable) to.write(chunk);
    }
    if (queue.length) timer = setTimeout(pump, queue[0].at - Date.now());
  };
  const push = (chunk: Buffer | null) => {
    queue.push({ at: Date.now() + relay.delayMs, chunk });
    if (!timer) pump();
  };
  from.on('data', (chunk: Buffer) => push(chunk));
  from.on('end', () => push(null));
}

export function startDelayRelay(listen: { host: string; port: number }, target: { host: string; port: number }): Promise<DelayRelay> {
  const sockets = new Set<Socket>();
  const relay: DelayRelay = { port: listen.port, delayMs: 0, close: async () => undefined };
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    pipeDelayed(client, upstream, relay);
    pipeDelayed(upstream, client, relay);
  });
  relay.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve(relay));
  });
}

import net from 'node:net';
import { Aedes } from 'aedes';

export interface BrokerOptions {
  /** TCP port; 0 picks a free one. Default 1884 so it does not collide with a system Mosquitto on 1883. */
  port?: number;
  /** Default loopback: the embedded broker has no authentication, so exposing it is an explicit choice. */
  host?: string;
}

export interface EmbeddedBroker {
  readonly port: number;
  readonly host: string;
  /** mqtt:// address clients should use. */
  readonly url: string;
  readonly aedes: Aedes;
  close(): Promise<void>;
}

export async function startBroker(options: BrokerOptions = {}): Promise<EmbeddedBroker> {
  const host = options.host ?? '127.0.0.1';
  const aedes = await Aedes.createBroker();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    aedes.handle(socket);
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(options.port ?? 1884, host);
  }).catch(async (err) => {
    await new Promise<void>((r) => aedes.close(() => r()));
    throw err;
  });

  const port = (server.address() as net.AddressInfo).port;
  let closing: Promise<void> | undefined;

  return {
    port,
    host,
    url: `mqtt://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`,
    aedes,
    close() {
      closing ??= (async () => {
        const serverClosed = new Promise<void>((r) => server.close(() => r()));
        await new Promise<void>((r) => aedes.close(() => r()));
        // Sockets still half-open after aedes let go would keep server.close() waiting,
        // and a restart on the same port must not wait for client timeouts.
        for (const s of sockets) s.destroy();
        await serverClosed;
      })();
      return closing;
    },
  };
}

/**
 * The reverse proxy of `npm run cluster`: round-robin over the API replicas that answer /healthz, with
 * X-Forwarded-For for the login limits (the replicas trust it with TRUST_PROXY=127.0.0.1). It behaves as
 * deploy/Caddyfile asks Caddy to: a call goes to another replica only when the first one provably did not
 * run it (the connection was refused, or the replica answered 503, which it does only while stopping and
 * before the call runs), so a write is never applied twice.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Replica {
  /** http://host:port of the replica. */
  url: string;
  /** Answered /healthz with 200 at the last check. */
  healthy: boolean;
  /** Taken out of rotation before a restart: no new calls, the ones under way finish. */
  draining: boolean;
  /** Calls under way. */
  inflight: number;
}

export interface Proxy {
  url: string;
  replicas: Replica[];
  /** Sends no new call to the replica and resolves once its calls under way are answered. */
  drain(url: string): Promise<void>;
  /** Puts a drained replica back; it takes calls again after its next passing health check. */
  restore(url: string): void;
  /** Checks the replica's health now (a restarted replica need not wait for the next round). */
  check(url: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface ProxyOptions {
  port: number;
  host?: string;
  replicas: string[];
  healthIntervalMs?: number;
  /** How long a call waits for a healthy replica when none is (a one-replica restart) before 503. */
  waitForReplicaMs?: number;
}

/** The body is kept to send the call again elsewhere; larger calls than the API takes are refused. */
const BODY_LIMIT = 16 * 1024 * 1024;

const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

const envelope = (res: ServerResponse, status: number, message: string) => {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ code: status, success: false, message, data: null }));
};

export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const replicas: Replica[] = options.replicas.map((url) => ({ url, healthy: false, draining: false, inflight: 0 }));
  const waiters = new Set<() => void>();
  let next = 0;

  const available = () => replicas.filter((r) => r.healthy && !r.draining);
  const settle = () => {
    for (const wake of waiters) wake();
  };

  const check = (replica: Replica) =>
    new Promise<boolean>((resolve) => {
      const req = request(replica.url + '/healthz', { timeout: 2000, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(false));
      req.end();
    }).then((ok) => {
      replica.healthy = ok;
      settle();
      return ok;
    });
  const checks = setInterval(() => replicas.forEach((r) => void check(r)), options.healthIntervalMs ?? 1000);
  await Promise.all(replicas.map(check));

  /** The next healthy replica in turn; waits for one until `end` (a restart of the only one up). */
  const pick = async (end: number): Promise<Replica | undefined> => {
    for (;;) {
      const up = available();
      if (up.length) return up[next++ % up.length];
      if (Date.now() >= end) return undefined;
      await new Promise<void>((resolve) => {
        const wake = () => (waiters.delete(wake), clearTimeout(timer), resolve());
        const timer = setTimeout(wake, 250);
        waiters.add(wake);
      });
    }
  };

  type Outcome = { sent: true } | { sent: false; why: string };


  /** Passes the call to one replica. `sent: false`: the replica did not run it, it may go elsewhere. */
  const forward = (replica: Replica, req: IncomingMessage, body: Buffer, res: ServerResponse) =>
    new Promise<Outcome>((resolve) => {
      const headers = { ...req.headers };
      for (const h of HOP_BY_HOP) delete headers[h];
      const client = req.socket.remoteAddress ?? '';
      headers['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${req.headers['x-forwarded-for']}, ${client}` : client;
      headers['x-forwarded-proto'] ??= 'http';
      headers['x-forwarded-host'] ??= req.headers.host ?? '';
      headers['content-length'] = String(body.length);
      let connected = false;
      replica.inflight++;
      const done = (outcome: Outcome) => {
        replica.inflight--;
        settle();
        resolve(outcome);
      };
      // A connection of its own per call: a reused idle one may be closed by the replica just as the call
      // goes out, and then nobody knows whether it ran.
      const upstream = request(replica.url + req.url, { method: req.method, headers, agent: false }, (answer) => {
        if (answer.statusCode === 503) {
          answer.resume();
          replica.healthy = false;
          return done({ sent: false, why: 'stopping' });
        }
        const out = { ...answer.headers };
        for (const h of HOP_BY_HOP) delete out[h];
        res.writeHead(answer.statusCode!, out);
        answer.pipe(res);
        answer.on('end', () => done({ sent: true }));
        answer.on('error', () => (res.destroy(), done({ sent: true })));
      });
      upstream.on('socket', (socket) => socket.on('connect', () => (connected = true)));
      upstream.on('error', (error: NodeJS.ErrnoException) => {
        if (!connected) {
          replica.healthy = false;
          return done({ sent: false, why: error.code ?? error.message });
        }
        // The replica had the call and did not answer (it died): it may have run, so it is not sent again.
        envelope(res, 502, '服务实例无响应，请确认操作结果后再试');
        done({ sent: true });
      });
      upstream.end(body);
    });

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        res.setHeader('connection', 'close');
        return envelope(res, 413, '请求过大');
      }
      chunks.push(chunk);
    }
    const body = Buffer.concat(chunks);
    // A replica that did not run the call is marked down, so the next turn goes to another one.
    const end = Date.now() + (options.waitForReplicaMs ?? 10_000);
    for (;;) {
      const replica = await pick(end);
      if (!replica) return envelope(res, 503, '服务正在重启，请稍后重试');
      if ((await forward(replica, req, body, res)).sent) return;
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const find = (url: string) => {
    const replica = replicas.find((r) => r.url === url);
    if (!replica) throw new Error(`no replica ${url}`);
    return replica;
  };
  return {
    url: `http://${options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1'}:${port}`,
    replicas,
    async drain(url) {
      const replica = find(url);
      replica.draining = true;
      while (replica.inflight > 0) await new Promise((r) => setTimeout(r, 50));
    },
    restore(url) {
      const replica = find(url);
      replica.draining = false;
      replica.healthy = false;
      void check(replica);
    },
    check: (url) => check(find(url)),
    async close() {
      clearInterval(checks);
      settle();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

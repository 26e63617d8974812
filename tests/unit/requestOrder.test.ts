import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { RequestOrderedLock, withinRequest } from '../../server/db/requestOrder';

/** Holds the lock as a query of the embedded database does: synchronous work, then release. */
async function query(lock: RequestOrderedLock, work: () => void): Promise<void> {
  const release = await lock.acquire();
  try {
    work();
  } finally {
    release();
  }
}

const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('the order in which the embedded database serves queries', () => {
  it('serves a request already under way before requests that have not started', async () => {
    const lock = new RequestOrderedLock();
    const served: string[] = [];
    const first = await lock.acquire();
    // A, B and C arrive while the connection is busy; A needs two queries in a row.
    const a = new Promise<void>((done) => withinRequest(async () => {
      await query(lock, () => served.push('A1'));
      await query(lock, () => served.push('A2'));
      done();
    }));
    const others = ['B', 'C'].map((name) => new Promise<void>((done) => withinRequest(() => void query(lock, () => served.push(name)).then(done))));
    first();
    await Promise.all([a, ...others]);
    // In arrival order alone A's second query would wait behind B and C.
    expect(served).toEqual(['A1', 'A2', 'B', 'C']);
  });

  it('drops a waiting request whose client has gone instead of running it', async () => {
    const lock = new RequestOrderedLock();
    const first = await lock.acquire();
    let ran = false;
    let scope!: ReturnType<typeof withinRequest>;
    const waiting = new Promise<unknown>((done) => {
      scope = withinRequest(() => void query(lock, () => (ran = true)).then(done, done));
    });
    scope.abandoned = true;
    first();
    expect(await waiting).toMatchObject({ message: '请求已取消' });
    expect(ran).toBe(false);
  });

  it('lets the event loop accept connections between queries, not only once the queue is empty', async () => {
    const lock = new RequestOrderedLock();
    const server = createServer((socket) => socket.destroy());
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    let done = 0;
    let doneAtAccept = -1;
    server.on('connection', () => (doneAtAccept = done));
    // Fifty queries of 2 ms of synchronous work each queue up, then a client connects.
    const first = await lock.acquire();
    const queue = Array.from({ length: 50 }, () => query(lock, () => (spin(2), done++)));
    first();
    // The kernel completes the handshake at once; the server process must still accept it.
    const client = connect((server.address() as { port: number }).port, '127.0.0.1');
    client.on('error', () => {});
    await Promise.all(queue);
    client.destroy();
    await new Promise((r) => server.close(r));
    // Handed on within microtasks, the whole queue ran before the server could accept (50).
    expect(doneAtAccept).toBeGreaterThanOrEqual(0);
    expect(doneAtAccept).toBeLessThan(10);
  });
});

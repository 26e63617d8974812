import { connect, createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConnectionLock } from '../../server/db/pglite';

/** Holds the lock as a query of the embedded database does: synchronous work, then release. */
async function query(lock: ConnectionLock, work: () => void): Promise<void> {
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

describe('the embedded database’s one connection', () => {
  it('is lent in the order it was asked for', async () => {
    const lock = new ConnectionLock();
    const served: string[] = [];
    const first = await lock.acquire();
    // A, B and C arrive while the connection is busy; A needs two queries in a row.
    const a = (async () => {
      await query(lock, () => served.push('A1'));
      await query(lock, () => served.push('A2'));
    })();
    const others = ['B', 'C'].map((name) => query(lock, () => served.push(name)));
    first();
    await Promise.all([a, ...others]);
    expect(served).toEqual(['A1', 'B', 'C', 'A2']);
  });

  it('hands the connection on at once within a short share of a turn: quick statements do not each wait for the loop', async () => {
    const lock = new ConnectionLock();
    const served: string[] = [];
    const first = await lock.acquire();
    const queue = ['A', 'B', 'C'].map((name) => query(lock, () => served.push(name)));
    // Work of the loop's next turn, queued before the connection is released.
    setImmediate(() => served.push('next turn'));
    first();
    await Promise.all(queue);
    expect(served).toEqual(['A', 'B', 'C']);
    await new Promise((r) => setImmediate(r));
    expect(served).toEqual(['A', 'B', 'C', 'next turn']);
  });

  it('lets the event loop accept connections between queries, not only once the queue is empty', async () => {
    const lock = new ConnectionLock();
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
    await new Promise((r) => setTimeout(r, 50));
    client.destroy();
    await new Promise((r) => server.close(r));
    // Handed on within microtasks, the whole queue ran before the server could accept.
    expect(doneAtAccept).toBeGreaterThanOrEqual(0);
    expect(doneAtAccept).toBeLessThan(10);
  });
});

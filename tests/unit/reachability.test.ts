/**
 * Whether a replica reaches its PostgreSQL server (server/db/reachability.ts): a server that accepts the
 * connection and then says nothing is unreachable within seconds; a process that is itself held up (its
 * event loop busy for seconds, as on a loaded machine) does not take its own pause for the network's
 * silence. The cut from a real PostgreSQL over a network namespace is `npm run chaos` (tests/chaos).
 */
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { watchReachability } from '../../server/db/reachability';
import { until } from '../api/harness';

const hold = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describe('the database reachability probe', () => {
  it('calls a server that accepts and never answers unreachable', { timeout: 30_000 }, async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const lines: string[] = [];
    const watch = watchReachability(`postgres://nobody@127.0.0.1:${port}/none`, (line) => lines.push(line));
    try {
      expect(watch.reachable()).toBe(true);
      await until(async () => !watch.reachable(), 20_000);
      expect(lines.join('\n')).toMatch(/unreachable \(no answer in \d+ ms\)/);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
      await watch.stop();
    }
  });

  it.skipIf(!process.env.DATABASE_URL)('keeps a server reachable through the process\'s own pauses of several seconds', { timeout: 60_000 }, async () => {
    const lines: string[] = [];
    const watch = watchReachability(process.env.DATABASE_URL!, (line) => lines.push(line));
    try {
      // A probe due during a pause is sent as it ends, and the next pause, a moment later, holds it while
      // its answer waits to be read: longer than a probe waits.
      for (let i = 0; i < 6; i++) {
        await new Promise((r) => setTimeout(r, 10));
        hold(3000);
      }
      await new Promise((r) => setTimeout(r, 1500));
      expect(lines).toEqual([]);
      expect(watch.reachable()).toBe(true);
    } finally {
      await watch.stop();
    }
  });
});

/**
 * The short fault run of `npm test` (the whole set is `npm run chaos`, tests/chaos/run.ts): two replicas in
 * network namespaces on PostgreSQL and Mosquitto, the one that ingests partitioned from both for 15 s and
 * healed, with devices, a console user and commands going all along. Every invariant of ./invariants.ts
 * must hold: no acknowledged write lost, every reading stored once and in order, no two replicas ingesting
 * at once, no command left hanging, the other replica answering, the cut one answering 503, convergence.
 */
import { describe, expect, inject, it } from 'vitest';
import { startCluster } from './cluster';
import { fault, runFault } from './faults';
import { unavailable } from './network';

const why = unavailable();
if (why) console.warn(`tests/chaos: skipped — ${why}`);

describe.skipIf(why)(why ? `faults in network namespaces (skipped: ${why})` : 'faults in network namespaces (PostgreSQL, Mosquitto, two replicas)', () => {
  it('keeps every invariant through a 15 s partition of the ingesting replica that heals', { timeout: 170_000 }, async () => {
    const cluster = await startCluster({ template: inject('templates').postgres, env: { COMMAND_TIMEOUT_MS: '5000' } });
    try {
      const result = await runFault(cluster, { ...fault('partition-heals'), ms: 15_000, what: 'the ingesting replica partitioned from PostgreSQL and the broker, healed after 15 s' });
      expect(result.violations).toEqual([]);
      expect(result.messages.sent).toBeGreaterThan(100);
      // The cut-off replica was asked, and refused: a check that asked nothing would hold vacuously.
      expect(result.cutOff.outcomes.unavailable ?? 0).toBeGreaterThan(0);
    } finally {
      await cluster.close();
    }
  });
});

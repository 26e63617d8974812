/**
 * The ingest lock (server/devices/leader.ts) on PostgreSQL: one replica leads at a time; a leader whose
 * lock connection the database ends stops ingesting at once and one of the replicas takes the lock again;
 * a leader that stops hands over to another within a poll.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshPostgres, until } from './harness';
import { startLeadership, type Leadership } from '../../server/devices/leader';

describe.skipIf(!process.env.DATABASE_URL)('the ingest lock on PostgreSQL', () => {
  it('lets one replica lead, stops a leader whose connection breaks, and hands over when the leader stops', { timeout: 60_000 }, async () => {
    const pgdb = await freshPostgres();
    const events: string[] = [];
    const replicas = new Map<string, Leadership>();
    const start = async (name: string) => {
      const leadership = startLeadership(pgdb.url, () => {
        events.push(`${name} leads`);
        return { ready: Promise.resolve(), stop: async ({ drain }) => void events.push(`${name} stops${drain ? ', drained' : ''}`) };
      }, () => undefined);
      replicas.set(name, leadership);
      await leadership.first;
    };
    const leader = () => events.filter((e) => e.endsWith('leads')).at(-1)!.split(' ')[0];
    const admin = new pg.Client({ connectionString: pgdb.url });
    await admin.connect();
    try {
      await start('a');
      await start('b');
      expect(events).toEqual(['a leads']);

      // The database ends the lock's session (as when the connection breaks): a stops at once, not drained.
      // Only this test's database: other tests' replicas hold the same lock in theirs.
      await admin.query(`select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and objid = 4245 and granted and database = (select oid from pg_database where datname = current_database())`);
      await until(async () => events.length >= 3, 10_000);
      expect(events.slice(0, 3)).toEqual(['a leads', 'a stops', expect.stringMatching(/^[ab] leads$/)]);

      // The leader stops (SIGTERM): its batch drained, then the other one leads.
      const first = leader();
      const other = first === 'a' ? 'b' : 'a';
      await replicas.get(first)!.stop();
      replicas.delete(first);
      await until(async () => events.at(-1) === `${other} leads`, 10_000);
      expect(events.slice(3)).toEqual([`${first} stops, drained`, `${other} leads`]);
    } finally {
      for (const r of replicas.values()) await r.stop();
      await admin.end();
      await pgdb.drop();
    }
  });
});

/**
 * The embedded database's disk reserve (server/db/diskSpace.ts): below it, statements that write are
 * refused before they reach PGlite, as PostgreSQL's disk_full, which callers answer as the server's full
 * disk; reads go on; once space is back, writes go through again. The full run on a filling tmpfs is
 * `npm run chaos disk-full` (tests/chaos/disk.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DiskFull, onlyReads, watchDiskSpace, type DiskSpace } from '../../server/db/diskSpace';
import { openPGlite, PGliteDialect } from '../../server/db/pglite';
import { refusalFor } from '../../server/db/errors';

describe('the embedded database keeps a disk reserve', () => {
  it('tells reads from writes by the statement', () => {
    for (const read of ['select 1', ' (select * from t)', 'with a as (select 1) select * from a', 'explain select 1', 'BEGIN', 'commit', 'ROLLBACK', 'savepoint x', 'release savepoint x', "set time zone 'UTC'", 'show all']) {
      expect(onlyReads(read), read).toBe(true);
    }
    for (const write of ['insert into t values (1)', 'update t set a = 1', 'delete from t', 'with d as (delete from t returning *) select * from d', 'create table t (a int)', 'vacuum t', 'analyze t', 'copy t from stdin', 'alter table t add b int']) {
      expect(onlyReads(write), write).toBe(false);
    }
  });

  it('measures the data folder\'s filesystem: a reserve larger than the disk refuses, none lets through', () => {
    const dir = mkdtempSync(join(tmpdir(), 'iot-disk-'));
    try {
      const lines: string[] = [];
      expect(() => watchDiskSpace(dir, Number.MAX_SAFE_INTEGER, (l) => lines.push(l)).checkWrite()).toThrow(DiskFull);
      expect(lines.join()).toMatch(/less than the \d+ MB kept in reserve/);
      expect(() => watchDiskSpace(dir, 0).checkWrite()).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses writes as disk_full below the reserve, reads on, and writes again once space is back', async () => {
    let low = false;
    const space: DiskSpace = {
      checkWrite: () => {
        if (low) throw new DiskFull(1, 2);
      },
      figures: () => ({ freeBytes: low ? 1 : 3, reserveBytes: 2 }),
    };
    const client = await openPGlite();
    const db = new Kysely<any>({ dialect: new PGliteDialect(client, space) });
    try {
      await sql`create table t_kept (id int)`.execute(db);
      await sql`insert into t_kept values (1)`.execute(db);
      low = true;
      const refused = await db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await sql`insert into t_kept values (2)`.execute(trx);
      }).catch((e) => e);
      expect(refused).toBeInstanceOf(DiskFull);
      expect(refusalFor(refused)?.reason?.code).toBe('server.diskFull');
      // The refused transaction left nothing, and reads answer.
      expect((await sql<{ id: number }>`select id from t_kept`.execute(db)).rows).toEqual([{ id: 1 }]);
      low = false;
      await sql`insert into t_kept values (3)`.execute(db);
      expect((await sql<{ id: number }>`select id from t_kept order by id`.execute(db)).rows).toEqual([{ id: 1 }, { id: 3 }]);
    } finally {
      await db.destroy();
    }
  });
});

/**
 * The history's proof: every migration of server/db/migrations/, hand-written and generated, run in
 * order on an empty embedded database, must leave the tables exactly as the committed snapshot says,
 * and the tables of hand-written migrations (users, roles, menus) with every index their schemas declare.
 */
import { join } from 'node:path';
import { CamelCasePlugin, Kysely } from 'kysely';
import { PGliteDialect, openPGlite } from '../server/db/pglite';
import { migrate } from '../server/db/migrate';
import { compare, readLive } from '../server/db/snapshot';
import { indexShape } from '../server/db/snapshot';
import { isMigrated, MIGRATIONS_DIR, readCommittedSnapshot, tableOf } from './history';
import type { Model } from './model';

export async function replayHistory(root: string, model: Model): Promise<string[]> {
  const client = await openPGlite();
  const db = new Kysely<any>({ dialect: new PGliteDialect(client), plugins: [new CamelCasePlugin()] });
  try {
    await migrate({ db, kind: 'pglite', exec: async (text) => void (await client.exec(text)) }, join(root, MIGRATIONS_DIR));
    const live = await readLive(db);
    const out = compare(readCommittedSnapshot(root), live);
    for (const entity of model.entities.filter((e) => !isMigrated(e))) {
      const want = tableOf(entity, model);
      const have = new Set(Object.values(live.get(want.table)?.indexes ?? {}).map(indexShape));
      for (const [name, index] of Object.entries(want.indexes))
        if (!have.has(indexShape(index))) out.push(`${want.table}: no index ${indexShape(index)} (declared in ${entity.schemaFile}; a hand-written migration must create it, e.g. ${name})`);
    }
    return out;
  } catch (e) {
    return [`running them on an empty database fails: ${(e as Error).message}`];
  } finally {
    await db.destroy();
  }
}

/**
 * The history's proof: every migration of server/db/migrations/, hand-written and generated, run in
 * order on an empty embedded database, must leave the tables exactly as the committed snapshot says.
 */
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CamelCasePlugin, Kysely } from 'kysely';
import { PGliteDialect, PGLITE_EXTENSIONS } from '../server/db/pglite';
import { migrate } from '../server/db/migrate';
import { compare, readLive } from '../server/db/snapshot';
import { MIGRATIONS_DIR, readCommittedSnapshot } from './history';

export async function replayHistory(root: string): Promise<string[]> {
  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const db = new Kysely<any>({ dialect: new PGliteDialect(client), plugins: [new CamelCasePlugin()] });
  try {
    await migrate({ db, kind: 'pglite', exec: async (text) => void (await client.exec(text)) }, join(root, MIGRATIONS_DIR));
    return compare(readCommittedSnapshot(root), await readLive(db));
  } catch (e) {
    return [`running them on an empty database fails: ${(e as Error).message}`];
  } finally {
    await db.destroy();
  }
}

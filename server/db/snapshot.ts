/**
 * The schema snapshot: what the tables of schemas/ look like after every migration has run, one file per
 * table in server/generated/snapshot/. `npm run gen` writes a migration for any difference between the
 * committed snapshot and the schemas; the server refuses to start when the live database differs from it.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { DB } from './index';

export interface Column {
  /** As the DDL spells it: integer, double precision, boolean, date, timestamptz, text, varchar(n). */
  type: string;
  nullable: boolean;
  /** The default as SQL (now(), 0, 'abc'), null for none. */
  default: string | null;
}

export interface Index {
  /** Column names in order; a descending one as `f_id DESC`. */
  columns: string[];
  unique: boolean;
  /** A pg_trgm GIN index (keyword search); absent for a btree. */
  method?: 'trigram';
}

/** The statement that creates an index, as the snapshot describes it. */
export function createIndexSql(name: string, table: string, i: Index, ifNotExists = false): string {
  const using = i.method === 'trigram' ? ` USING gin (${i.columns.map((c) => `${c} gin_trgm_ops`).join(', ')})` : ` (${i.columns.join(', ')})`;
  return `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${ifNotExists ? 'IF NOT EXISTS ' : ''}${name} ON ${table}${using};`;
}

/** What an index covers and how, for comparing two descriptions of it. */
export const indexShape = (i: Index) => `${i.unique ? 'unique ' : ''}${i.method ? `${i.method} ` : ''}(${i.columns.join(', ')})`;

export interface TableSnapshot {
  table: string;
  entity: string;
  primaryKey: string;
  columns: Record<string, Column>;
  indexes: Record<string, Index>;
}

export const SNAPSHOT_DIR = join(import.meta.dirname, '..', 'generated', 'snapshot');

export function readSnapshot(dir = SNAPSHOT_DIR): TableSnapshot[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as TableSnapshot);
}

/** information_schema's spelling of a type, in the DDL's. */
function typeOf(dataType: string, length: number | null): string {
  if (dataType === 'character varying') return length ? `varchar(${length})` : 'varchar';
  if (dataType === 'timestamp with time zone') return 'timestamptz';
  return dataType;
}

/** A column default as the catalogue keeps it ('1'::character varying, '-1'::integer), in the DDL's spelling. */
export function normalizeDefault(value: string | null, type: string): string | null {
  if (value === null || value.includes('nextval(')) return null;
  let v = value.trim();
  for (let prior = ''; prior !== v; ) {
    prior = v;
    v = v.replace(/::[a-z ]+(\(\d+\))?$/i, '').replace(/^\((.*)\)$/, '$1');
  }
  const quotedNumber = /^'(-?\d+(\.\d+)?)'$/.exec(v);
  if (quotedNumber && ['integer', 'bigint', 'double precision'].includes(type)) return quotedNumber[1];
  return v === 'CURRENT_TIMESTAMP' ? 'now()' : v;
}

export interface LiveTable {
  columns: Record<string, Column>;
  indexes: Record<string, Index>;
}

/** The tables of the current schema as the catalogue describes them. */
export async function readLive(db: DB): Promise<Map<string, LiveTable>> {
  const columns = await sql<{ tableName: string; columnName: string; dataType: string; characterMaximumLength: number | null; isNullable: string; columnDefault: string | null }>`
    SELECT table_name, column_name, data_type, character_maximum_length, is_nullable, column_default
    FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`.execute(db);
  const indexes = await sql<{ tableName: string; indexName: string; isUnique: boolean; columns: string; trigram: boolean }>`
    SELECT t.relname AS table_name, i.relname AS index_name, ix.indisunique AS is_unique,
      (SELECT string_agg(a.attname || CASE WHEN o.opt::int & 1 = 1 THEN ' DESC' ELSE '' END, ',' ORDER BY k.ord)
        FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord)
        JOIN unnest(ix.indoption) WITH ORDINALITY AS o(opt, ord) ON o.ord = k.ord
        JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS columns,
      EXISTS (SELECT 1 FROM unnest(ix.indclass) AS c(oid) JOIN pg_opclass oc ON oc.oid = c.oid WHERE oc.opcname = 'gin_trgm_ops') AS trigram
    FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class i ON i.oid = ix.indexrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = current_schema() AND NOT ix.indisprimary`.execute(db);
  const tables = new Map<string, LiveTable>();
  const get = (name: string) => tables.get(name) ?? tables.set(name, { columns: {}, indexes: {} }).get(name)!;
  for (const c of columns.rows) {
    const type = typeOf(c.dataType, c.characterMaximumLength);
    get(c.tableName).columns[c.columnName] = { type, nullable: c.isNullable === 'YES', default: normalizeDefault(c.columnDefault, type) };
  }
  for (const i of indexes.rows) get(i.tableName).indexes[i.indexName] = { columns: (i.columns ?? '').split(','), unique: i.isUnique, ...(i.trigram ? { method: 'trigram' as const } : {}) };
  return tables;
}

const describe = (c: Column) => `${c.type}${c.nullable ? '' : ' NOT NULL'}${c.default !== null ? ` DEFAULT ${c.default}` : ''}`;

/** Every way the live tables differ from the snapshot, one readable line each naming table and column. */
export function compare(expected: TableSnapshot[], live: Map<string, LiveTable>): string[] {
  const out: string[] = [];
  for (const t of expected) {
    const actual = live.get(t.table);
    if (!actual) {
      out.push(`table ${t.table} (entity ${t.entity}) does not exist`);
      continue;
    }
    for (const [name, want] of Object.entries(t.columns)) {
      const have = actual.columns[name];
      if (!have) out.push(`${t.table}.${name} does not exist (the schema has ${describe(want)})`);
      else if (have.type !== want.type || have.nullable !== want.nullable || have.default !== want.default)
        out.push(`${t.table}.${name} is ${describe(have)} in the database, the schema has ${describe(want)}`);
    }
    for (const [name, have] of Object.entries(actual.columns)) {
      if (!t.columns[name]) out.push(`${t.table}.${name} (${describe(have)}) exists in the database but not in the schema of ${t.entity}`);
    }
    for (const [name, want] of Object.entries(t.indexes)) {
      const have = actual.indexes[name];
      const shape = indexShape;
      if (!have) out.push(`${t.table}: index ${name} ${shape(want)} does not exist`);
      else if (shape(have) !== shape(want)) out.push(`${t.table}: index ${name} is ${shape(have)} in the database, the schema has ${shape(want)}`);
    }
  }
  return out;
}

export class DriftError extends Error {
  constructor(readonly differences: string[]) {
    super(
      `the database does not match the schemas (server/generated/snapshot/):\n${differences.map((d) => '  ' + d).join('\n')}\n` +
        'The server will not start on a database it does not know. If the schemas changed, run `npm run gen` and restart; ' +
        'if the database was changed by hand, add a migration in server/db/migrations/ that brings it back.',
    );
  }
}

/** Throws DriftError when the live database and the snapshot disagree. */
export async function assertNoDrift(db: DB, expected = readSnapshot()): Promise<void> {
  const differences = compare(expected, await readLive(db));
  if (differences.length) throw new DriftError(differences);
}

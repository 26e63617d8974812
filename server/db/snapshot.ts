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
  /** A partial index's condition, in SQL. */
  where?: string;
}

/** The statement that creates an index, as the snapshot describes it. */
export function createIndexSql(name: string, table: string, i: Index, ifNotExists = false): string {
  const using = i.method === 'trigram' ? ` USING gin (${i.columns.map((c) => `${c} gin_trgm_ops`).join(', ')})` : ` (${i.columns.join(', ')})`;
  return `CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${ifNotExists ? 'IF NOT EXISTS ' : ''}${name} ON ${table}${using}${i.where ? ` WHERE ${i.where}` : ''};`;
}

/** What an index covers and how, for comparing two descriptions of it (a condition as checkShape writes it). */
export const indexShape = (i: Index) => `${i.unique ? 'unique ' : ''}${i.method ? `${i.method} ` : ''}(${i.columns.join(', ')})${i.where ? ` where ${checkShape(i.where)}` : ''}`;

/**
 * Extended planner statistics over several columns (CREATE STATISTICS): how their values go together,
 * which the planner otherwise takes to be independent.
 */
export interface Statistics {
  /** Column names; the database keeps them in table order, so they are compared as a set. */
  columns: string[];
  /** ndistinct, dependencies, mcv — in that order. */
  kinds: StatisticsKind[];
}
export const STATISTICS_KINDS = ['ndistinct', 'dependencies', 'mcv'] as const;
export type StatisticsKind = (typeof STATISTICS_KINDS)[number];

/** The statement that creates a statistics object; IF NOT EXISTS, as one written by hand may be there already. */
export const createStatisticsSql = (name: string, table: string, s: Statistics) => `CREATE STATISTICS IF NOT EXISTS ${name} (${s.kinds.join(', ')}) ON ${s.columns.join(', ')} FROM ${table};`;

/** What a statistics object covers and how, for comparing two descriptions of it. */
export const statisticsShape = (s: Statistics) => `(${s.kinds.join(', ')}) on ${[...s.columns].sort().join(', ')}`;

/** A foreign key of one column to another table's primary key. */
export interface ForeignKey {
  column: string;
  /** `t_product(f_id)` */
  references: string;
  onDelete: 'restrict' | 'cascade' | 'set null';
}

export interface TableSnapshot {
  table: string;
  entity: string;
  primaryKey: string;
  columns: Record<string, Column>;
  indexes: Record<string, Index>;
  /** By constraint name. Absent in snapshots written before constraints were generated: none. */
  foreignKeys?: Record<string, ForeignKey>;
  /** CHECK expressions by constraint name. */
  checks?: Record<string, string>;
  /** Extended statistics by name. Absent in snapshots written before they were declared: none. */
  statistics?: Record<string, Statistics>;
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
  foreignKeys: Record<string, ForeignKey>;
  checks: Record<string, string>;
  statistics: Record<string, Statistics>;
}

/**
 * A CHECK expression in a form the generator and the catalogue agree on: PostgreSQL keeps `f_a IN (1, 2)`
 * as `((f_a = ANY (ARRAY[1, 2])))` with casts added (and `'-90'::integer`), so both are compared without
 * parentheses, casts, quotes around numbers and spaces.
 */
export const checkShape = (expression: string) =>
  expression
    .replace(/^CHECK\s*/i, '')
    // Whether old rows have been validated is not the schema's business (server/db/constraints.ts).
    .replace(/\s+NOT VALID$/i, '')
    .replace(/::[a-z ]+(\[\])?/gi, '')
    .replace(/'(-?\d+(\.\d+)?)'/g, '$1')
    .replace(/[()\s]/g, '');

const ON_DELETE: Record<string, ForeignKey['onDelete']> = { r: 'restrict', a: 'restrict', c: 'cascade', n: 'set null' };

/** The tables of the current schema as the catalogue describes them. */
export async function readLive(db: DB): Promise<Map<string, LiveTable>> {
  const columns = await sql<{ tableName: string; columnName: string; dataType: string; characterMaximumLength: number | null; isNullable: string; columnDefault: string | null }>`
    SELECT table_name, column_name, data_type, character_maximum_length, is_nullable, column_default
    FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`.execute(db);
  const indexes = await sql<{ tableName: string; indexName: string; isUnique: boolean; columns: string; trigram: boolean; predicate: string | null }>`
    SELECT t.relname AS table_name, i.relname AS index_name, ix.indisunique AS is_unique,
      (SELECT string_agg(a.attname || CASE WHEN o.opt::int & 1 = 1 THEN ' DESC' ELSE '' END, ',' ORDER BY k.ord)
        FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord)
        JOIN unnest(ix.indoption) WITH ORDINALITY AS o(opt, ord) ON o.ord = k.ord
        JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS columns,
      EXISTS (SELECT 1 FROM unnest(ix.indclass) AS c(oid) JOIN pg_opclass oc ON oc.oid = c.oid WHERE oc.opcname = 'gin_trgm_ops') AS trigram,
      pg_get_expr(ix.indpred, ix.indrelid) AS predicate
    FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class i ON i.oid = ix.indexrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = current_schema() AND NOT ix.indisprimary`.execute(db);
  const constraints = await sql<{ tableName: string; name: string; kind: string; definition: string; column: string; target: string | null; targetColumn: string | null; onDelete: string }>`
    SELECT t.relname AS table_name, c.conname AS name, c.contype AS kind, pg_get_constraintdef(c.oid) AS definition,
      (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = c.conrelid AND a.attnum = c.conkey[1]) AS column,
      r.relname AS target, (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = c.confrelid AND a.attnum = c.confkey[1]) AS target_column,
      c.confdeltype AS on_delete
    FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
    LEFT JOIN pg_class r ON r.oid = c.confrelid
    WHERE n.nspname = current_schema() AND c.contype IN ('f', 'c')`.execute(db);
  const statistics = await sql<{ tableName: string; name: string; columns: string; kinds: string }>`
    SELECT t.relname AS table_name, s.stxname AS name,
      (SELECT string_agg(a.attname, ',' ORDER BY a.attnum) FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attnum = ANY (s.stxkeys)) AS columns,
      array_to_string(s.stxkind, '') AS kinds
    FROM pg_statistic_ext s JOIN pg_class t ON t.oid = s.stxrelid JOIN pg_namespace n ON n.oid = s.stxnamespace
    WHERE n.nspname = current_schema()`.execute(db);
  const tables = new Map<string, LiveTable>();
  const get = (name: string) => tables.get(name) ?? tables.set(name, { columns: {}, indexes: {}, foreignKeys: {}, checks: {}, statistics: {} }).get(name)!;
  for (const c of columns.rows) {
    const type = typeOf(c.dataType, c.characterMaximumLength);
    get(c.tableName).columns[c.columnName] = { type, nullable: c.isNullable === 'YES', default: normalizeDefault(c.columnDefault, type) };
  }
  for (const i of indexes.rows) {
    get(i.tableName).indexes[i.indexName] = { columns: (i.columns ?? '').split(','), unique: i.isUnique, ...(i.trigram ? { method: 'trigram' as const } : {}), ...(i.predicate ? { where: i.predicate } : {}) };
  }
  for (const c of constraints.rows) {
    if (c.kind === 'f') get(c.tableName).foreignKeys[c.name] = { column: c.column, references: `${c.target}(${c.targetColumn})`, onDelete: ON_DELETE[c.onDelete] ?? 'restrict' };
    else get(c.tableName).checks[c.name] = c.definition;
  }
  const kindOf: Record<string, StatisticsKind> = { d: 'ndistinct', f: 'dependencies', m: 'mcv' };
  for (const s of statistics.rows) {
    const kinds = new Set([...s.kinds].map((k) => kindOf[k]));
    get(s.tableName).statistics[s.name] = { columns: (s.columns ?? '').split(','), kinds: STATISTICS_KINDS.filter((k) => kinds.has(k)) };
  }
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
    const fk = (k: ForeignKey) => `(${k.column}) REFERENCES ${k.references} ON DELETE ${k.onDelete.toUpperCase()}`;
    for (const [name, want] of Object.entries(t.foreignKeys ?? {})) {
      const have = actual.foreignKeys[name];
      if (!have) out.push(`${t.table}: foreign key ${name} ${fk(want)} does not exist`);
      else if (fk(have) !== fk(want)) out.push(`${t.table}: foreign key ${name} is ${fk(have)} in the database, the schema has ${fk(want)}`);
    }
    for (const [name, have] of Object.entries(actual.foreignKeys)) if (!t.foreignKeys?.[name]) out.push(`${t.table}: foreign key ${name} ${fk(have)} exists in the database but not in the schema of ${t.entity}`);
    for (const [name, want] of Object.entries(t.checks ?? {})) {
      const have = actual.checks[name];
      if (!have) out.push(`${t.table}: check ${name} (${want}) does not exist`);
      else if (checkShape(have) !== checkShape(want)) out.push(`${t.table}: check ${name} is ${have} in the database, the schema has CHECK (${want})`);
    }
    for (const [name, have] of Object.entries(actual.checks)) if (!t.checks?.[name]) out.push(`${t.table}: check ${name} ${have} exists in the database but not in the schema of ${t.entity}`);
    for (const [name, want] of Object.entries(t.statistics ?? {})) {
      const have = actual.statistics[name];
      if (!have) out.push(`${t.table}: statistics ${name} ${statisticsShape(want)} do not exist`);
      else if (statisticsShape(have) !== statisticsShape(want)) out.push(`${t.table}: statistics ${name} are ${statisticsShape(have)} in the database, the schema has ${statisticsShape(want)}`);
    }
    for (const [name, have] of Object.entries(actual.statistics)) if (!t.statistics?.[name]) out.push(`${t.table}: statistics ${name} ${statisticsShape(have)} exist in the database but not in the schema of ${t.entity}`);
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

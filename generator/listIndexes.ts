/**
 * Every list must be served by an index, whatever the table grows to: `gen:validate` (and `gen`) refuse a
 * resource whose default sort, allowed sorts or filters no declared index serves, and name the
 * declaration to add to the schema's `x-db.indexes`. Row scopes (a device's fUserId) are code, not
 * declarations: their indexes are declared by hand beside the others. Tables made by hand-written
 * migrations (users, roles, menus) declare theirs too; the history's replay proves the migrations make them.
 */
import type { Entity, IndexDecl, Problem } from './modelTypes';
import { primaryKey } from './modelTypes';

interface Key {
  field: string;
  desc: boolean;
}

const keysOf = (index: string[]): Key[] => index.map((f) => ({ field: f.replace(/ desc$/, ''), desc: f.endsWith(' desc') }));

/**
 * Whether a btree on `index` starts with `wanted`, read forwards or backwards (all directions flipped);
 * the first `equal` keys are compared with `=`, so their direction does not matter.
 */
function serves(index: Key[], wanted: Key[], equal: number): boolean {
  if (index.length < wanted.length || wanted.some((w, i) => index[i].field !== w.field)) return false;
  const order = wanted.slice(equal);
  const same = order.every((w, i) => index[equal + i].desc === w.desc);
  const flipped = order.every((w, i) => index[equal + i].desc !== w.desc);
  return same || flipped;
}

/** The declaration of a btree serving `keys`, written with its first ordered key ascending (flipped when needed). */
function declare(keys: Key[], equal = 0): string[] {
  const flip = keys[equal]?.desc ?? false;
  return keys.map((k, i) => (i >= equal && k.desc !== flip ? `${k.field} desc` : k.field));
}

interface Need {
  for: string;
  need: IndexDecl;
  /** How many leading keys are compared with `=` (a filter), not ordered. */
  equal: number;
  on: Entity;
}

/** The indexes the entity's list needs, each as the declaration that would give it. */
export function listIndexNeeds(entity: Entity, all: Entity[]): Need[] {
  const { schema, resource } = entity;
  const pk = primaryKey(schema);
  const sortDefault: Key[] = (resource.list.sort?.default ?? [{ column: pk, asc: false }]).map((o) => ({ field: o.column, desc: !o.asc }));
  // A sort ending in the primary key after other columns is served by an index on those columns then the key.
  const byPk = sortDefault.length === 1 && sortDefault[0].field === pk;
  const needs: Need[] = [];
  if (!byPk) needs.push({ for: `the default sort (${declare(sortDefault).join(', ')})`, need: declare(sortDefault), equal: 0, on: entity });
  for (const column of resource.list.sort?.allowed ?? []) {
    if (column !== pk) needs.push({ for: `sorting by ${column}`, need: [column], equal: 0, on: entity });
  }
  for (const filter of resource.list.filters ?? []) {
    const fields = [...new Set([filter.field, ...(filter.fields ?? []), ...Object.values(filter.selectBy?.fields ?? {})].filter((f): f is string => !!f))];
    const rel = filter.relation ? schema['x-db'].relations?.[filter.relation] : undefined;
    const target = rel ? all.find((e) => e.name === rel.entity) : entity;
    if (!target) continue;
    if (rel) needs.push({ for: `filter ${filter.key} (through ${filter.relation})`, need: [rel.from], equal: 1, on: entity });
    for (const f of fields) {
      const type = target.schema.properties[f]?.type;
      if (filter.op === 'like') {
        if (type === 'string') needs.push({ for: `keyword filter ${filter.key}`, need: { trigram: f }, equal: 0, on: target });
      } else if (filter.op === 'eq' && !rel && f !== pk) {
        // Equality then the list's order: page 500 of one product's devices is read in index order, not sorted.
        const rest = sortDefault.filter((k) => k.field !== f);
        needs.push({ for: `filter ${filter.key} with the default sort`, need: declare([{ field: f, desc: false }, ...rest], 1), equal: 1, on: entity });
      } else if (f !== pk) needs.push({ for: `filter ${filter.key}`, need: [f], equal: 1, on: target });
    }
  }
  return needs;
}

/** Whether a declared index (or the primary key, or a unique property) already serves the need. */
export function isServed(entity: Entity, need: IndexDecl, equal = 0): boolean {
  const declared = entity.schema['x-db'].indexes ?? [];
  // A partial index serves its own query only: it never counts for a list's needs.
  if (!Array.isArray(need)) return 'trigram' in need && declared.some((d) => !Array.isArray(d) && 'trigram' in d && d.trigram === need.trigram);
  const wanted = keysOf(need);
  // At most one row per value of the primary key or a unique property: any order of it is trivial.
  const unique = Object.entries(entity.schema.properties).filter(([, p]) => p['x-db']?.unique).map(([n]) => n);
  if (wanted[0].field === primaryKey(entity.schema) || unique.includes(wanted[0].field)) return true;
  return declared.some((d) => Array.isArray(d) && serves(keysOf(d), wanted, equal));
}

export function listIndexProblems(entities: Entity[]): Problem[] {
  const problems: Problem[] = [];
  for (const entity of entities) {
    for (const { for: why, need, equal, on } of listIndexNeeds(entity, entities)) {
      // Platform tables made by hand-written migrations carry their indexes there.
      if (isServed(on, need, equal)) continue;
      problems.push({
        file: on.schemaFile,
        pointer: '/x-db/indexes',
        message: `no index serves ${why} of the ${entity.name} list (${entity.resourceFile})`,
        hint: `add ${JSON.stringify(need)} to "x-db": { "indexes": [...] }`,
      });
    }
  }
  return problems;
}

import { readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, workspace, edit, removeWorkspaces } from './workspace';
import { loadModel, InvalidInputs, type Problem } from '../../generator/model';
import { plan, readCommittedSnapshot, nextMigration } from '../../generator/history';
import { stale, write } from '../../generator/generate';

/** Drops every mention of a property from a resource (lists of names, filters naming it). */
function forget(dir: string, entity: string, prop: string) {
  const strip = (v: any): any =>
    Array.isArray(v) ? v.filter((x) => x !== prop && !(x && typeof x === 'object' && x.field === prop)).map(strip) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strip(x)])) : v;
  edit(dir, `resources/${entity}.resource.json`, (r) => Object.assign(r, strip(r)));
}

function rename(dir: string, entity: string, from: string, to: string) {
  edit(dir, `schemas/${entity}.schema.json`, (s) => {
    s.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]: [string, any]) => (k === from ? [to, { ...v, 'x-db': { ...v['x-db'], renamedFrom: from } }] : [k, v])));
    s.required = s.required?.map((f: string) => (f === from ? to : f));
    // Index declarations name the property too (`"fNumber desc"`, `{ "trigram": "fNumber" }`).
    s['x-db'].indexes = s['x-db'].indexes?.map((i: any) => (Array.isArray(i) ? i.map((f: string) => f.replace(new RegExp(`^${from}( desc)?$`), `${to}$1`)) : i.trigram === from ? { trigram: to } : i));
  });
  const file = join(dir, `resources/${entity}.resource.json`);
  writeFileSync(file, readFileSync(file, 'utf8').replaceAll(`"${from}"`, `"${to}"`));
}

function refusal(work: () => unknown): Problem[] {
  try {
    work();
  } catch (e) {
    if (e instanceof InvalidInputs) return e.problems;
    throw e;
  }
  throw new Error('expected a refusal');
}

const planFor = (dir: string) => plan(readCommittedSnapshot(dir), loadModel(dir)).statements;

afterEach(removeWorkspaces);

describe('schema changes become migrations', () => {
  it('the committed snapshot matches the schemas: nothing to migrate', () => {
    expect(planFor(ROOT)).toEqual([]);
  });

  it('a longer length widens in place; a new enum option widens the column\'s CHECK', () => {
    const dir = workspace();
    edit(dir, 'schemas/product.schema.json', (s) => {
      s.properties.fName.maxLength = 200;
      s.properties.fProtocol.enum.push(4);
    });
    edit(dir, 'schemas/enums.json', (e) => (e.protocol['4'] = { 'zh-CN': '其他', 'zh-TW': '其他', 'en-US': 'Other' }));
    expect(planFor(dir)).toEqual([
      'ALTER TABLE t_product DROP CONSTRAINT IF EXISTS t_product_f_protocol_check;',
      'ALTER TABLE t_product ALTER COLUMN f_name TYPE varchar(200);',
      'ALTER TABLE t_product ADD CONSTRAINT t_product_f_protocol_check CHECK (f_protocol = ANY (ARRAY[1, 2, 3, 4])) NOT VALID;',
      "DO $$ BEGIN ALTER TABLE t_product VALIDATE CONSTRAINT t_product_f_protocol_check; EXCEPTION WHEN foreign_key_violation OR check_violation THEN RAISE NOTICE 't_product_f_protocol_check stays NOT VALID: rows written before it break it'; END $$;",
    ]);
  });

  it('refuses a narrowing without a decision, naming file, pointer and the keyword; accepts it with x-db.narrowTo', async () => {
    const dir = workspace();
    edit(dir, 'schemas/product.schema.json', (s) => (s.properties.fPower.maxLength = 10));
    const [p] = refusal(() => planFor(dir));
    expect(p).toMatchObject({ file: 'schemas/product.schema.json', pointer: '/properties/fPower' });
    expect(p.message).toMatch(/t_product\.f_power changes from varchar\(50\) to varchar\(10\), which can lose data/);
    expect(p.hint).toContain('"narrowTo": "varchar(10)"');
    // write() refuses before touching anything.
    const before = readdirSync(join(dir, 'server/db/migrations'));
    await expect(write(dir)).rejects.toThrow(/can lose data/);
    expect(readdirSync(join(dir, 'server/db/migrations'))).toEqual(before);

    edit(dir, 'schemas/product.schema.json', (s) => (s.properties.fPower['x-db'] = { narrowTo: 'varchar(10)' }));
    expect(planFor(dir)).toContain('ALTER TABLE t_product ALTER COLUMN f_power TYPE varchar(10) USING left(f_power, 10);');
    // A decision for another type does not cover this one.
    edit(dir, 'schemas/product.schema.json', (s) => (s.properties.fPower.type = 'integer'));
    edit(dir, 'schemas/product.schema.json', (s) => delete s.properties.fPower.maxLength);
    expect(refusal(() => planFor(dir))[0].hint).toContain('"narrowTo": "integer"');
  });

  it('renames a declared column and its index instead of dropping them; refuses an undeclared removal; drops with dropColumns', () => {
    const dir = workspace();
    rename(dir, 'product', 'fNumber', 'fCode');
    const removed = () => {
      edit(dir, 'schemas/product.schema.json', (s) => delete s.properties.fRemark);
      forget(dir, 'product', 'fRemark');
    };
    removed();
    const [p] = refusal(() => planFor(dir));
    expect(p).toMatchObject({ file: 'schemas/product.schema.json', pointer: '/x-db' });
    expect(p.message).toMatch(/t_product\.f_remark is no longer a property/);
    expect(p.hint).toMatch(/dropColumns/);
    edit(dir, 'schemas/product.schema.json', (s) => (s['x-db'].dropColumns = ['fRemark']));
    expect(planFor(dir)).toEqual([
      'ALTER TABLE t_product RENAME COLUMN f_number TO f_code;',
      'ALTER INDEX t_product_f_number_key RENAME TO t_product_f_code_key;',
      'ALTER INDEX t_product_f_number_trgm RENAME TO t_product_f_code_trgm;',
      'ALTER TABLE t_product DROP COLUMN f_remark;',
    ]);
  });

  it('creates composite, descending and trigram indexes as declared; refuses a list no index serves', () => {
    const dir = workspace();
    edit(dir, 'schemas/product.schema.json', (s) => s['x-db'].indexes.push(['fStatus', 'fIntime desc'], { trigram: 'fRemark' }));
    expect(planFor(dir)).toEqual([
      'CREATE EXTENSION IF NOT EXISTS pg_trgm;',
      'CREATE INDEX t_product_f_status_f_intime_desc_idx ON t_product (f_status, f_intime DESC);',
      'CREATE INDEX t_product_f_remark_trgm ON t_product USING gin (f_remark gin_trgm_ops);',
    ]);
    // The product list's keyword filter on fName needs its trigram index.
    edit(dir, 'schemas/product.schema.json', (s) => (s['x-db'].indexes = s['x-db'].indexes.filter((i: any) => i.trigram !== 'fName')));
    const [p] = refusal(() => planFor(dir));
    expect(p).toMatchObject({ file: 'schemas/product.schema.json', pointer: '/x-db/indexes' });
    expect(p.message).toMatch(/keyword filter name of the product list/);
    expect(p.hint).toContain('{"trigram":"fName"}');
  });

  it('creates a partial index with its condition in column names, and replaces it when the condition changes', async () => {
    const dir = workspace();
    const partial = (where: string) => ({ name: 'enabled', columns: ['fIntime desc'], where });
    edit(dir, 'schemas/product.schema.json', (s) => s['x-db'].indexes.push(partial('fStatus = 1 AND fIntime IS NOT NULL')));
    expect(planFor(dir)).toEqual(['CREATE INDEX t_product_f_intime_desc_enabled ON t_product (f_intime DESC) WHERE f_status = 1 AND f_intime IS NOT NULL;']);
    await write(dir);
    expect(readCommittedSnapshot(dir).find((t) => t.table === 't_product')!.indexes.t_product_f_intime_desc_enabled).toEqual({ columns: ['f_intime DESC'], unique: false, where: 'f_status = 1 AND f_intime IS NOT NULL' });
    expect(planFor(dir)).toEqual([]);
    edit(dir, 'schemas/product.schema.json', (s) => (s['x-db'].indexes = s['x-db'].indexes.map((i: any) => (i.name === 'enabled' ? partial('fStatus = 2') : i))));
    expect(planFor(dir)).toEqual(['DROP INDEX t_product_f_intime_desc_enabled;', 'CREATE INDEX t_product_f_intime_desc_enabled ON t_product (f_intime DESC) WHERE f_status = 2;']);
  });

  it('creates declared planner statistics, renames them with their table, remakes a changed one and drops a removed one', async () => {
    const dir = workspace();
    const stats = (columns: string[], kinds = ['mcv', 'dependencies']) => ({ name: 'kind_and_state', columns, kinds });
    edit(dir, 'schemas/product.schema.json', (s) => (s['x-db'].statistics = [stats(['fStatus', 'fDeviceType'])]));
    // Kinds in PostgreSQL's order whatever the declaration's; IF NOT EXISTS, as a hand-written migration may have made it first.
    expect(planFor(dir)).toEqual(['CREATE STATISTICS IF NOT EXISTS t_product_kind_and_state (dependencies, mcv) ON f_status, f_device_type FROM t_product;']);
    await write(dir);
    expect(readCommittedSnapshot(dir).find((t) => t.table === 't_product')!.statistics).toEqual({ t_product_kind_and_state: { columns: ['f_status', 'f_device_type'], kinds: ['dependencies', 'mcv'] } });
    expect(planFor(dir)).toEqual([]);
    // The same columns in another order are the same statistics.
    edit(dir, 'schemas/product.schema.json', (s) => (s['x-db'].statistics = [stats(['fDeviceType', 'fStatus'], ['dependencies', 'mcv'])]));
    expect(planFor(dir)).toEqual([]);
    edit(dir, 'schemas/product.schema.json', (s) => (s['x-db'].statistics = [stats(['fDeviceType', 'fStatus'], ['ndistinct'])]));
    expect(planFor(dir)).toEqual(['DROP STATISTICS IF EXISTS t_product_kind_and_state;', 'CREATE STATISTICS IF NOT EXISTS t_product_kind_and_state (ndistinct) ON f_device_type, f_status FROM t_product;']);
    edit(dir, 'schemas/product.schema.json', (s) => {
      s['x-db'].statistics = [stats(['fStatus', 'fDeviceType'])];
      s['x-db'].renamedFrom = 't_product';
      s['x-db'].table = 't_product_model';
    });
    expect(planFor(dir)).toContain('ALTER STATISTICS t_product_kind_and_state RENAME TO t_product_model_kind_and_state;');
    expect(planFor(dir).filter((q) => q.includes('STATISTICS'))).toHaveLength(1);
    edit(dir, 'schemas/product.schema.json', (s) => {
      delete s['x-db'].statistics;
      delete s['x-db'].renamedFrom;
      s['x-db'].table = 't_product';
    });
    expect(planFor(dir)).toEqual(['DROP STATISTICS IF EXISTS t_product_kind_and_state;']);
    // Statistics name stored properties, at least two.
    edit(dir, 'schemas/product.schema.json', (s) => (s['x-db'].statistics = [stats(['fStatus', 'fColour'])]));
    expect(refusal(() => loadModel(dir))).toEqual([expect.objectContaining({ file: 'schemas/product.schema.json', pointer: '/x-db/statistics/0/columns', message: 'statistics field "fColour" is not a property' })]);
    edit(dir, 'schemas/product.schema.json', (s) => (s['x-db'].statistics = [stats(['fStatus'])]));
    expect(refusal(() => loadModel(dir))[0]).toMatchObject({ file: 'schemas/product.schema.json' });
  });

  it('renames a table, keeping its rows; refuses to drop a table unless schemas/dropped.json lists it', () => {
    const dir = workspace();
    edit(dir, 'schemas/feedback.schema.json', (s) => (s['x-db'] = { ...s['x-db'], table: 't_user_feedback', renamedFrom: 't_feedback' }));
    const statements = planFor(dir);
    expect(statements[0]).toBe('ALTER TABLE t_feedback RENAME TO t_user_feedback;');
    expect(statements.every((s) => !/DROP|CREATE|ADD/.test(s))).toBe(true);
    expect(statements).toContain('ALTER TABLE t_user_feedback RENAME CONSTRAINT t_feedback_f_status_check TO t_user_feedback_f_status_check;');

    rmSync(join(dir, 'schemas/appVersion.schema.json'));
    rmSync(join(dir, 'resources/appVersion.resource.json'));
    const [p] = refusal(() => nextMigration(dir, readCommittedSnapshot(dir), loadModel(dir)));
    expect(p).toMatchObject({ file: 'schemas/dropped.json', pointer: '/tables' });
    expect(p.message).toMatch(/t_app_version \(entity appVersion\) has no schema any more/);
    writeFileSync(join(dir, 'schemas/dropped.json'), JSON.stringify({ tables: ['t_app_version'] }));
    expect(nextMigration(dir, readCommittedSnapshot(dir), loadModel(dir))?.content).toMatch(/DROP TABLE t_app_version;\n$/);
  });

  it('NOT NULL needs a default that fills empty values first', () => {
    const dir = workspace();
    edit(dir, 'schemas/product.schema.json', (s) => (s.properties.fName['x-db'] = { notNull: true }));
    expect(refusal(() => planFor(dir))[0]).toMatchObject({ pointer: '/properties/fName/x-db/notNull' });
    edit(dir, 'schemas/product.schema.json', (s) => (s.properties.fName.default = ''));
    expect(planFor(dir)).toEqual([
      "ALTER TABLE t_product ALTER COLUMN f_name SET DEFAULT '';",
      "UPDATE t_product SET f_name = '' WHERE f_name IS NULL;",
      'ALTER TABLE t_product ALTER COLUMN f_name SET NOT NULL;',
    ]);
  });

  it('a new schema (as from a merged branch) becomes the next numbered migration, the same on every run', async () => {
    const dir = workspace();
    for (const f of ['schemas', 'resources']) {
      const text = readFileSync(join(dir, f, f === 'schemas' ? 'feedback.schema.json' : 'feedback.resource.json'), 'utf8');
      const copy = JSON.parse(text.replaceAll('"feedback"', '"note"').replaceAll('t_feedback', 't_note').replaceAll('t-feedback', 't-note').replaceAll('/feedback', '/note').replaceAll('feedback:', 'note:'));
      // The copy is a plain list: its source's list variants name pages of their own.
      if (copy.list) delete copy.list.variants;
      writeFileSync(join(dir, f, f === 'schemas' ? 'note.schema.json' : 'note.resource.json'), JSON.stringify(copy, null, 2));
    }
    const first = nextMigration(dir, readCommittedSnapshot(dir), loadModel(dir))!;
    expect(nextMigration(dir, readCommittedSnapshot(dir), loadModel(dir))).toEqual(first);
    expect(first.path).toMatch(/^server\/db\/migrations\/\d{3}_schema_t_note\.sql$/);
    expect(first.content).toContain('CREATE TABLE IF NOT EXISTS t_note (f_id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY);');
    await write(dir);
    expect(await stale(dir, { replay: false })).toEqual([]);
    // A migration deleted from the history is caught by replaying it, and so is an index declared for a
    // table of the hand-written migrations that none of them makes.
    rmSync(join(dir, first.path));
    edit(dir, 'schemas/role.schema.json', (s) => s['x-db'].indexes.push(['alias', 'id']));
    const found = (await stale(dir)).join('\n');
    expect(found).toMatch(/migrations disagree with the snapshot: table t_note \(entity note\) does not exist/);
    expect(found).toContain('t_sys_role: no index (alias, id) (declared in schemas/role.schema.json');
  }, 300_000);
});

describe('validate', () => {
  const problems = (dir: string) => refusal(() => loadModel(dir));

  it('names file, JSON pointer and a hint for each kind of mistake', () => {
    const dir = workspace();
    edit(dir, 'schemas/feedback.schema.json', (s) => {
      s.properties.fPhone.maxLenght = 20;
      delete s['x-label']['zh-TW'];
    });
    edit(dir, 'schemas/device.schema.json', (s) => {
      s['x-db'].relations.tProduct.entity = 'produkt';
    });
    edit(dir, 'schemas/product.schema.json', (s) => s.properties.fDeviceType.enum.push(99));
    edit(dir, 'resources/firmware.resource.json', (r) => {
      r.endpoints.list.path = '/biz/t-product/products';
      r.endpoints.delete.permission = 'firmware:remove';
      r.list.columns.push('fColour');
    });
    const all = [...problems(dir)];
    const find = (file: string, pointer: string) => all.find((p) => p.file === file && p.pointer === pointer);
    expect(find('schemas/feedback.schema.json', '/properties/fPhone')?.hint).toMatch(/"maxLenght" is not a known key/);
    expect(find('schemas/feedback.schema.json', '/x-label')?.hint).toBe('add "zh-TW"');
    // The well-formed files' cross-references.
    edit(dir, 'schemas/feedback.schema.json', (s) => {
      delete s.properties.fPhone.maxLenght;
      s['x-label']['zh-TW'] = '意見回饋';
    });
    const second = problems(dir);
    const at = (file: string, pointer: string) => second.find((p) => p.file === file && p.pointer === pointer);
    expect(at('schemas/device.schema.json', '/x-db/relations/tProduct/entity')).toMatchObject({ message: 'unknown entity "produkt"' });
    expect(at('schemas/device.schema.json', '/x-db/relations/tProduct/entity')?.hint).toMatch(/known: .*product/);
    const option = at('schemas/product.schema.json', `/properties/fDeviceType/enum/6`);
    expect(option?.message).toBe('option 99 is not in the option list "deviceType"');
    expect(option?.hint).toMatch(/add "99" with its three labels to "deviceType" in schemas\/enums.json/);
    const path = at('resources/product.resource.json', '/endpoints/list/path') ?? at('resources/firmware.resource.json', '/endpoints/list/path');
    expect(path?.message).toMatch(/path \/biz\/t-product\/products is already served by resources\/(firmware|product)\.resource\.json\/endpoints\/list/);
    expect(path?.hint).toMatch(/"as"/);
    expect(at('resources/firmware.resource.json', '/endpoints/delete/permission')).toMatchObject({ message: 'permission "firmware:remove" is not declared' });
    const column = second.find((p) => p.file === 'resources/firmware.resource.json' && p.pointer.startsWith('/list/columns/'));
    expect(column?.message).toBe('"fColour" is not a property of firmware');
    expect(column?.hint).toMatch(/^known: fId/);
  });

  it('checks that an end not before its start names a date property and has its message', () => {
    const dir = workspace();
    edit(dir, 'schemas/controlCar.schema.json', (s) => {
      s.properties.fStartEnd['x-notBefore'] = 'fControlUser';
      delete s.properties.fStartEnd['x-messages'].notBefore;
    });
    const found = problems(dir).filter((p) => p.file === 'schemas/controlCar.schema.json');
    expect(found.find((p) => p.pointer === '/properties/fStartEnd/x-notBefore')?.message).toBe('"fStartEnd" and "fControlUser" must both be dates or date-times');
    expect(found.find((p) => p.pointer === '/properties/fStartEnd/x-messages')?.hint).toMatch(/"notBefore"/);
  });

  it('an "as" alias serves a standard action under its own path without a clash', () => {
    const dir = workspace();
    edit(dir, 'resources/firmware.resource.json', (r) => (r.endpoints.pagelist = { path: '/biz/t-firmware/pagelist-legacy', permission: r.endpoints.list.permission, as: 'list' }));
    expect(loadModel(dir).entities.length).toBeGreaterThan(0);
  });

  it('checks that a reference limited to some rows names the referred entity and its properties', () => {
    const dir = workspace();
    edit(dir, 'schemas/product.schema.json', (s) => (s.properties.fSendJsonIds['x-refWhere'] = { fKind: 2 }));
    expect(problems(dir)).toEqual([expect.objectContaining({ pointer: '/properties/fSendJsonIds/x-refWhere/fKind', message: '"fKind" is not a property of productJson' })]);
    edit(dir, 'schemas/product.schema.json', (s) => delete s.properties.fSendJsonIds['x-ref']);
    expect(problems(dir)).toEqual([expect.objectContaining({ pointer: '/properties/fSendJsonIds/x-refWhere', message: '"fSendJsonIds" names rows of no entity ("x-ref" is missing)' })]);
  });

  it('checks the migration keywords', () => {
    const dir = workspace();
    edit(dir, 'schemas/product.schema.json', (s) => {
      s.properties.fName['x-db'] = { renamedFrom: 'fPower' };
      s['x-db'].dropColumns = ['fRemark'];
      s.properties.fPower['x-db'] = { narrowTo: 'varchar' };
    });
    const all = problems(dir);
    expect(all.find((p) => p.pointer === '/properties/fPower/x-db/narrowTo')?.hint).toMatch(/must match/);
    edit(dir, 'schemas/product.schema.json', (s) => delete s.properties.fPower['x-db']);
    const second = problems(dir);
    expect(second.find((p) => p.pointer === '/properties/fName/x-db/renamedFrom')?.message).toMatch(/"fPower" is still a property/);
    expect(second.find((p) => p.pointer === '/x-db/dropColumns/0')?.message).toMatch(/"fRemark" is a property/);
  });
});

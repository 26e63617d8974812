import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, workspace, edit, removeWorkspaces } from './workspace';
import { loadModel, InvalidInputs } from '../../generator/model';
import { stale, write } from '../../generator/generate';
import { scaffold } from '../../generator/scaffold';
import { menuWarnings } from '../../generator/menuTree';

function problemsOf(dir: string) {
  try {
    loadModel(dir);
    return [];
  } catch (e) {
    if (e instanceof InvalidInputs) return e.problems;
    throw e;
  }
}

afterEach(removeWorkspaces);

describe('generator', () => {
  it('reports every broken input with file, JSON pointer and hint', () => {
    const dir = workspace();
    edit(dir, 'schemas/device.schema.json', (s) => {
      s.properties.fNumber.type = 'text';
      delete s.properties.fProductId['x-messages'];
    });
    edit(dir, 'resources/product.resource.json', (r) => {
      r.list.columns.push('fNope');
      r.endpoints.save.permission = { create: 'product:make', update: 'product:edit' };
      r.list.pageSizee = 3;
      r.endpoints.all.fields = ['fId', 'fGone', 'deviceCount'];
      r.endpoints.list.fields = ['fId'];
    });
    edit(dir, 'schemas/dictionaries.json', (d) => delete d.Room_Type['2']['en-US']);
    const problems = problemsOf(dir);
    const find = (file: string, pointer: string) => problems.find((p) => p.file === file && p.pointer === pointer);
    expect(find('schemas/device.schema.json', '/properties/fNumber/type')?.hint).toMatch(/one of/);
    expect(find('resources/product.resource.json', '/list')?.hint).toMatch(/pageSizee/);
    // Semantic problems show once the file is well-formed.
    edit(dir, 'resources/product.resource.json', (r) => delete r.list.pageSizee);
    edit(dir, 'schemas/device.schema.json', (s) => (s.properties.fNumber.type = 'string'));
    const second = problemsOf(dir);
    expect(second.find((p) => p.pointer === '/list/columns/5')?.message).toMatch(/fNope/);
    expect(second.find((p) => p.pointer === '/endpoints/save/permission')?.message).toMatch(/product:make/);
    expect(second.find((p) => p.pointer === '/properties/fProductId/x-messages')?.hint).toMatch(/required/);
    // The fields an `all` call answers are stored properties, and only `all` names them.
    expect(second.find((p) => p.pointer === '/endpoints/all/fields/1')?.message).toMatch(/"fGone" is not a stored property/);
    expect(second.find((p) => p.pointer === '/endpoints/all/fields/2')?.message).toMatch(/"deviceCount" is not a stored property/);
    expect(second.find((p) => p.pointer === '/endpoints/list/fields')?.message).toMatch(/only the standard "all"/);
    expect(second.find((p) => p.file === 'schemas/dictionaries.json' && p.pointer === '/Room_Type/2')?.message).toMatch(/words in zh-CN, zh-TW, en-US/);
  });

  it('checks list variants and relation filters against what they name', () => {
    const dir = workspace();
    edit(dir, 'resources/alarm.resource.json', (r) => {
      const v = r.list.variants;
      v.alarmGather.menu.key = 'alarm-lock';
      v.alarmGather.permission = 'alarm-nope:list';
      v.alarmGather.filters = ['house_name', 'nope'];
      v.alarmGather.condition = { alarm_typ: [14] };
      v.alarmGather.columns = ['fHouseName', 'fGone'];
      v.alarmGather.links = { fUserAlarmName: { target: 'profile', permission: 'hologram:sch', idField: 'fMissing' } };
      v.device = v.alarmRoom;
      v.alarmTime.endpoint = 'signing';
      v.alarmRoom.endpoint = 'nowhere';
      r.list.filters.push({ key: 'bad', op: 'like', relation: 'tNothing', field: 'fName' }, { key: 'bad2', op: 'like', relation: 'tDevice', field: 'fNoSuch' });
    });
    const problems = problemsOf(dir).filter((p) => p.file === 'resources/alarm.resource.json');
    const at = (pointer: string) => problems.find((p) => p.pointer === pointer)?.message;
    expect(at('/list/variants/alarmGather/menu/key')).toMatch(/alarm-lock/);
    expect(at('/list/variants/alarmGather/permission')).toMatch(/alarm-nope:list/);
    expect(at('/list/variants/alarmGather/filters/1')).toMatch(/"nope" is not a filter key/);
    expect(at('/list/variants/alarmGather/condition/alarm_typ')).toMatch(/not a filter key/);
    expect(at('/list/variants/alarmGather/columns/1')).toMatch(/fGone/);
    expect(at('/list/variants/alarmGather/links/fUserAlarmName')).toMatch(/not a column/);
    expect(at('/list/variants/alarmGather/links/fUserAlarmName/idField')).toMatch(/fMissing/);
    expect(at('/list/variants/device')).toMatch(/name of an entity/);
    expect(at('/list/variants/alarmTime/endpoint')).toMatch(/does not serve a list/);
    expect(at('/list/variants/alarmRoom/endpoint')).toMatch(/"nowhere" is not an endpoint/);
    expect(problems.find((p) => p.pointer.endsWith('/relation'))?.message).toMatch(/tNothing/);
    expect(problems.some((p) => /"fNoSuch" is not a property of device/.test(p.message))).toBe(true);

    // A list's own links are checked the same way; the profile's code may be another resource's.
    edit(dir, 'resources/controlPerson.resource.json', (r) => {
      r.list.links = {
        fGone: { target: 'profile', permission: 'hologram:sch', idField: 'fUserIdcard', by: 'idcard' },
        fUserName: { target: 'profile', permission: 'nobody:has', idField: 'fUserIdcard', by: 'idcard' },
      };
    });
    const person = problemsOf(dir).filter((p) => p.file === 'resources/controlPerson.resource.json');
    expect(person.find((p) => p.pointer === '/list/links/fGone')?.message).toMatch(/not a column/);
    expect(person.find((p) => p.pointer === '/list/links/fUserName/permission')?.message).toMatch(/nobody:has/);
    expect(person.some((p) => p.pointer === '/list/links/fGone/permission')).toBe(false);
  });

  it('requires rich text to be sanitised and variant codes to name a fixed value', () => {
    const dir = workspace();
    edit(dir, 'schemas/document.schema.json', (s) => delete s.properties.fContent['x-format']);
    edit(dir, 'resources/document.resource.json', (r) => {
      r.list.variants.programHelpManual.permissions.publish = 'programHelpManual:edit';
      r.list.variants.programHelpManual.permissions.delete = 'programHelpManual:drop';
      r.list.variants.userAgreement.permissions = { save: 'helpManual:edit' };
      r.list.variants.userAgreement.condition = { title: '协议' };
    });
    const problems = problemsOf(dir);
    const at = (pointer: string) => problems.find((p) => p.pointer === pointer)?.message;
    expect(at('/properties/fContent/x-format')).toMatch(/not sanitised/);
    expect(at('/list/variants/programHelpManual/permissions/publish')).toMatch(/not an endpoint/);
    expect(at('/list/variants/programHelpManual/permissions/delete')).toMatch(/programHelpManual:drop/);
    expect(at('/list/variants/userAgreement/condition')).toMatch(/fix one value of an eq filter/);
  });

  it('gives each route the codes of its variants by the row value', () => {
    const routes = readFileSync(join(ROOT, 'server/generated/routes.ts'), 'utf8');
    expect(routes).toMatch(/addOrUpdateHelpManual'.*byValue: \{"key":"type","field":"fType","codes":\{"4":"programHelpManual:edit"\}\}/);
    expect(routes).toMatch(/t-help-manual\/pageList'.*"4":"programHelpManual:list","5":"helpManual:list"/);
    const entities = readFileSync(join(ROOT, 'server/generated/entities.ts'), 'utf8');
    expect(entities).toMatch(/"fContent": \{(?:[^{}]|\{[^{}]*\})*"format": "html"/);
  });

  it('emits a page, a menu row and a console config per list variant', () => {
    const menus = readFileSync(join(ROOT, 'server/generated/menus.ts'), 'utf8');
    expect(menus).toMatch(/"key": "alarm-lock",\s+"parent": "alarm-manage",\s+"path": "\/alarmLock",\s+"component": "alarmLock"/);
    const consoleConfig = readFileSync(join(ROOT, 'app/generated/resources.tsx'), 'utf8');
    expect(consoleConfig).toMatch(/"name": "alarmLock",[^]*?"entity": "alarm"/);
    expect(consoleConfig).toMatch(/"condition": \{\s+"alarm_type": \[\s+4,\s+3\s+\]/);
    // A variant on another list call of its entity: the feedback answers read the administration list.
    // The variant's list is served by another endpoint of its entity, named by its action (the call feedback.adminList).
    expect(consoleConfig).toMatch(/"name": "feedbackAnswer",[^]*?"endpoint": "adminList"/);
  });

  it('reports invalid JSON and a resource without a schema', () => {
    const dir = workspace();
    writeFileSync(join(dir, 'schemas/product.schema.json'), '{ "broken": ');
    const problems = problemsOf(dir);
    expect(problems.some((p) => p.file === 'schemas/product.schema.json' && /not valid JSON/.test(p.message))).toBe(true);
    expect(problems.some((p) => p.file === 'resources/product.resource.json' && p.pointer === '/entity')).toBe(true);
  });

  it('check names the stale files after an input changes, and generate makes them current', async () => {
    const dir = workspace();
    expect(await stale(dir, { replay: false })).toEqual([]);
    edit(dir, 'schemas/product.schema.json', (s) => {
      s.properties.fColour = { type: 'string', maxLength: 20, 'x-label': { 'zh-CN': '颜色', 'zh-TW': '顏色', 'en-US': 'Colour' } };
    });
    const files = await stale(dir, { replay: false });
    expect(files).toContain('server/generated/snapshot/t_product.json');
    const migration = files.map((f) => /^(server\/db\/migrations\/\d{3}_schema_t_product\.sql) \(a migration for the schema changes is missing\)$/.exec(f)?.[1]).find(Boolean);
    expect(migration).toBeDefined();
    expect(files).toContain('adapters/generated/types.ts');
    // A field's label is not a first-screen text: it lands in the rest of each language's catalogue.
    expect(files).toContain('app/generated/catalogues/zh-CN.rest.ts');
    expect(files).toContain('app/generated/catalogues/zh-TW.rest.ts');
    await write(dir);
    expect(await stale(dir, { replay: false })).toEqual([]);
    expect(readFileSync(join(dir, migration!), 'utf8')).toContain('ALTER TABLE t_product ADD COLUMN f_colour varchar(20);');
  }, 120_000);

  it('check flags a hand edit of a generated file and an extra file', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'server/generated/routes.ts'), readFileSync(join(dir, 'server/generated/routes.ts'), 'utf8') + '\n// edited\n');
    writeFileSync(join(dir, 'app/generated/extra.ts'), 'export {};\n');
    expect(await stale(dir, { replay: false })).toEqual(['app/generated/extra.ts', 'server/generated/routes.ts']);
  });

  it('the CLI finds the committed generated code and migration history up to date (exit 0), and exits 1 naming stale files', () => {
    const run = (root: string) => execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'generator/cli.ts'), '--root', root, 'generate', '--check'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    // The project itself: every generated file current, and the history replayed on an empty database.
    expect(run(ROOT)).toMatch(/up to date/);
    const dir = workspace();
    writeFileSync(join(dir, 'adapters/generated/endpoints.ts'), '// stale\n');
    let failure: any;
    try {
      run(dir);
    } catch (e) {
      failure = e;
    }
    expect(failure?.status).toBe(1);
    expect(String(failure?.stderr)).toContain('adapters/generated/endpoints.ts');
  }, 300_000);

  it('new scaffolds two files that validate and generate', async () => {
    const dir = workspace();
    const files = scaffold(dir, 'firmwareNote');
    expect(files.every((f) => existsSync(f))).toBe(true);
    const model = loadModel(dir);
    expect(model.entities.map((e) => e.name)).toContain('firmwareNote');
    await write(dir);
    expect(readFileSync(join(dir, 'server/generated/routes.ts'), 'utf8')).toContain("'/biz/t-firmware-note/pagelist'");
    expect(() => scaffold(dir, 'firmwareNote')).toThrow(/already exists/);
  });

  it('new --parent places the menu after the last entry of that section', () => {
    const dir = workspace();
    const model = loadModel(dir);
    const under = (parent: string) => [
      ...model.entities.flatMap((e) => [e.resource.menu, ...Object.values(e.resource.list.variants ?? {}).map((v) => v.menu)]),
      ...model.menus.pages,
    ].filter((m) => m?.parent === parent).map((m) => m!.sort ?? 0);
    const last = Math.max(...under('system-manage'));
    scaffold(dir, 'firmwareNote', { parent: 'system-manage' });
    const resource = JSON.parse(readFileSync(join(dir, 'resources/firmwareNote.resource.json'), 'utf8'));
    expect(resource.menu).toMatchObject({ parent: 'system-manage', sort: last + 1 });
    // The next one goes after it.
    scaffold(dir, 'firmwareMemo', { parent: 'system-manage' });
    expect(JSON.parse(readFileSync(join(dir, 'resources/firmwareMemo.resource.json'), 'utf8')).menu.sort).toBe(last + 2);
    expect(() => scaffold(dir, 'firmwareTip', { parent: 'nowhere' })).toThrow(/unknown menu section "nowhere".*system-manage/);
    expect(existsSync(join(dir, 'schemas/firmwareTip.schema.json'))).toBe(false);
  });

  it('validate warns of menus titled with the bare entity name or placed first at the top level', () => {
    const dir = workspace();
    expect(menuWarnings(loadModel(dir))).toEqual([]);
    scaffold(dir, 'firmwareNote', { parent: 'system-manage' });
    edit(dir, 'resources/firmware.resource.json', (r) => {
      delete r.menu.parent;
      delete r.menu.sort;
    });
    const warnings = menuWarnings(loadModel(dir));
    expect(warnings.map((w) => `${w.file} ${w.pointer}`).sort()).toEqual(['resources/firmware.resource.json /menu/sort', 'resources/firmwareNote.resource.json /menu/title']);
    expect(warnings.find((w) => w.pointer === '/menu/title')?.message).toMatch(/"firmwareNote" in zh-CN, zh-TW and en-US/);
    // Named in one language is enough to tell it apart; the validate command prints warnings and still passes.
    edit(dir, 'resources/firmwareNote.resource.json', (r) => (r.menu.title['zh-CN'] = '固件备注'));
    const out = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'generator/cli.ts'), '--root', dir, 'validate'], { cwd: ROOT, encoding: 'utf8' });
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(/^ok: 49 entities/m);
    expect(out.stderr).toMatch(/warning: resources\/firmware.resource.json at \/menu\/sort: a top-level menu with sort 0/);
    expect(out.stderr).not.toMatch(/firmwareNote/);
  });
});

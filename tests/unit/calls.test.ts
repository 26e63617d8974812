/**
 * Calls by name (generator/calls.ts): the declarations of resources/calls/ are checked against each
 * other and the resource files, and a server module registers a call by its declared name only.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspace, edit, removeWorkspaces } from './workspace';
import { loadModel, InvalidInputs, type Problem } from '../../generator/model';
import { emitCalls, loadCalls, typeOf } from '../../generator/calls';
import { calls, declaredCalls } from '../../contract/generated/calls';
import { resolveCall, describeCall, unregisteredCalls } from '../../server/http/calls';
import type { ApiCatalog } from '../../server/http/catalog';

function problemsOf(dir: string): Problem[] {
  try {
    loadCalls(dir, loadModel(dir));
    return [];
  } catch (e) {
    if (e instanceof InvalidInputs) return e.problems;
    throw e;
  }
}

afterEach(removeWorkspaces);

describe('call declarations', () => {
  it('name every call once, each path and method once, with declared codes', () => {
    const dir = workspace();
    edit(dir, 'resources/calls/gateway.json', (d) => {
      // The path and method of an entity endpoint, under another name.
      d.calls.devices = { path: '/biz/t-device/devices', permission: 'gateway:list' };
      d.calls.odd = { path: '/biz/odd', permission: 'gateway:nope' };
      d.calls.open = { path: '/biz/open', public: true, permission: 'gateway:list' };
    });
    edit(dir, 'resources/calls/home.json', (d) => (d.calls.cards = { path: '/api/home/cards', permission: null }));
    // A domain named like an entity may not reuse the entity's actions.
    writeFileSync(join(dir, 'resources/calls/device.json'), JSON.stringify({ calls: { total: { path: '/biz/t-device/total2', permission: 'device:list' } } }));
    writeFileSync(join(dir, 'resources/calls/Bad-Name.json'), JSON.stringify({ calls: {} }));
    const problems = problemsOf(dir);
    const at = (file: string, pointer: string) => problems.find((p) => p.file === file && p.pointer === pointer)?.message;
    expect(at('resources/calls/gateway.json', '/calls/devices/path')).toMatch(/POST \/biz\/t-device\/devices is already the call "device.list"/);
    expect(at('resources/calls/gateway.json', '/calls/odd/permission')).toMatch(/"gateway:nope" is declared by no resource or menu/);
    expect(at('resources/calls/gateway.json', '/calls/open/permission')).toMatch(/public call asks for no code/);
    expect(at('resources/calls/device.json', '/calls/total')).toMatch(/names an action of the entity "device"/);
    expect(at('resources/calls/Bad-Name.json', '')).toMatch(/not a calls file/);
    expect(problems.some((p) => p.file === 'resources/calls/home.json')).toBe(false);
  });

  it('checks the files against the meta-schema', () => {
    const dir = workspace();
    edit(dir, 'resources/calls/live.json', (d) => {
      d.calls['Not-a-name'] = { path: '/api/x', permission: null };
      d.calls.stream2 = { path: 'api/y', kind: 'stream', public: true };
    });
    const problems = problemsOf(dir).filter((p) => p.file === 'resources/calls/live.json');
    expect(problems.length).toBeGreaterThanOrEqual(2);
  });

  it('types a declared body and answer for the console', () => {
    const entities = new Set(['device']);
    expect(typeOf({ type: 'object', properties: { fId: { type: 'integer' }, rows: { type: 'array', items: { $ref: '#/components/schemas/device' } } }, required: ['fId'], additionalProperties: false }, entities)).toBe(
      '{ fId: number; rows?: Array<T.Device> }',
    );
    expect(typeOf({ type: ['string', 'null'] }, entities)).toBe('string | null');
    expect(typeOf({}, entities)).toBe('unknown');
    // An answer's object is closed: the console reads what the declaration names.
    expect(typeOf({ type: 'object', properties: { total: { type: 'integer' } } }, entities, false)).toBe('{ total?: number }');
    expect(typeOf({ $ref: '#/components/schemas/device/properties/fName' }, entities)).toBe('T.Device["fName"]');
    // Alternatives that only say which property is required are the object itself.
    expect(typeOf({ type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ required: ['a'] }] }, entities, false)).toBe('{ a?: string }');
  });

  it('types an endpoint handler by its declared body and answer, with the file\'s $defs written in', () => {
    const dir = workspace();
    edit(dir, 'resources/alarm.resource.json', (d) => {
      d.$defs = { ...d.$defs, note: { type: ['string', 'null'], maxLength: 20 } };
      d.endpoints.signing.body = { type: 'object', properties: { fId: { type: 'integer' }, fHandleContent: { $ref: '#/$defs/note' } }, required: ['fId'] };
      d.endpoints.signing.answer = { type: 'null' };
      d.endpoints.alarmTypeCount.body = { $ref: '#/$defs/missing' };
    });
    const problems = problemsOf(dir);
    expect(problems.find((p) => p.file === 'resources/alarm.resource.json')?.message).toMatch(/"#\/\$defs\/missing" is not defined/);
    edit(dir, 'resources/alarm.resource.json', (d) => delete d.endpoints.alarmTypeCount.body);
    const model = loadModel(dir);
    expect(model.entities.find((e) => e.name === 'alarm')!.resource.endpoints.signing.body).toEqual({ type: 'object', properties: { fId: { type: 'integer' }, fHandleContent: { type: ['string', 'null'], maxLength: 20 } }, required: ['fId'] });
    const types = emitCalls(dir, model)['adapters/generated/callTypes.ts'];
    expect(types).toContain('"alarm.signing": { body: { fId: number; fHandleContent?: string | null; [key: string]: unknown }; answer: null };');
    // A file's answer is the file, not unknown.
    expect(types).toMatch(/"upload\.pictureFile": \{ body: \{ name: string \| number \}; answer: Download \};/);
  });

  it('refuses a body or answer on a standard action', () => {
    const dir = workspace();
    edit(dir, 'resources/alarm.resource.json', (d) => (d.endpoints.get.answer = { type: 'null' }));
    expect(() => loadModel(dir)).toThrow(InvalidInputs);
  });
});

describe('registering by name', () => {
  const handler = async () => null;

  it('takes the path, the methods and the code from the declaration, and refuses a second source', () => {
    const catalog: ApiCatalog = [];
    const def = resolveCall(catalog, { call: 'message.lists', handler });
    expect(def).toMatchObject({ path: calls['message.lists'].path, methods: ['GET', 'POST'], permission: null });
    expect(() => resolveCall([], { call: 'gateway.cards', permission: 'gateway:list', handler })).toThrow(/declared in resources\/calls/);
    // The body and the answer are the declaration's too: the module may not give a second copy.
    expect(() => resolveCall([], { call: 'gateway.cards', body: { type: 'object' }, handler })).toThrow(/"body" is declared in resources\/calls/);
    expect(() => resolveCall([], { call: 'gateway.cards', data: { type: 'null' }, handler })).toThrow(/"data" is declared in resources\/calls/);
    expect(() => resolveCall(catalog, { call: 'message.lists', handler })).toThrow(/registered twice/);
    // A code the body decides is the module's, when the declaration gives none.
    expect(() => resolveCall([], { call: 'command.batch', handler })).toThrow(/no permission/);
    expect(resolveCall([], { call: 'command.batch', permission: () => 'device:batch-reboot', codes: ['device:batch-reboot'], handler }).path).toBe('/biz/t-device/send');
  });

  it('gives an address its route path and knows which declared calls are not served', () => {
    const catalog: ApiCatalog = [];
    expect(describeCall(catalog, 'upload.pictureFile', { tag: 'upload', produces: 'image/*' })).toBe('/api/upload/:name');
    expect(catalog[0]).toMatchObject({ path: '/api/upload/{name}', methods: ['GET'], public: true, codes: null });
    const missing = unregisteredCalls(catalog);
    expect(missing).not.toContain('upload.pictureFile');
    expect(missing).toHaveLength(declaredCalls.length - 1);
  });
});

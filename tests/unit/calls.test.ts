/**
 * Calls by name (generator/calls.ts): the declarations of resources/calls/ are checked against each
 * other and the resource files, and a server module registers a call by its declared name only.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspace, edit, removeWorkspaces } from './workspace';
import { loadModel, InvalidInputs, type Problem } from '../../generator/model';
import { loadCalls, typeOf } from '../../generator/calls';
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
  });
});

describe('registering by name', () => {
  const handler = async () => null;

  it('takes the path, the methods and the code from the declaration, and refuses a second source', () => {
    const catalog: ApiCatalog = [];
    const def = resolveCall(catalog, { call: 'message.lists', handler });
    expect(def).toMatchObject({ path: calls['message.lists'].path, methods: ['GET', 'POST'], permission: null });
    expect(() => resolveCall([], { call: 'gateway.cards', permission: 'gateway:list', handler })).toThrow(/declared in resources\/calls/);
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

/**
 * The maps' tile address is a setting of the server (MAP_TILE_URL), handed to the console at run time:
 * an installation without internet points it at its own tile server without building the console again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { backends, startServer, type TestServer } from './harness';
import { DEFAULT_MAP_TILE_URL, loadConfig } from '../../server/config';

const SETTINGS = '/api/public/console-settings';

describe('the tile address setting', () => {
  it('defaults to OpenStreetMap, takes an address of its own or none, and refuses one a map cannot use', () => {
    expect(loadConfig({}).mapTileUrl).toBe(DEFAULT_MAP_TILE_URL);
    expect(loadConfig({ MAP_TILE_URL: 'http://tiles.lan:8080/{z}/{x}/{y}.png' }).mapTileUrl).toBe('http://tiles.lan:8080/{z}/{x}/{y}.png');
    expect(loadConfig({ MAP_TILE_URL: '/tiles/{z}/{x}/{y}.png' }).mapTileUrl).toBe('/tiles/{z}/{x}/{y}.png');
    expect(loadConfig({ MAP_TILE_URL: '' }).mapTileUrl).toBe('');
    expect(() => loadConfig({ MAP_TILE_URL: 'tiles.lan/{z}/{x}/{y}.png' })).toThrow(/MAP_TILE_URL/);
    expect(() => loadConfig({ MAP_TILE_URL: 'http://tiles.lan/tile.png' })).toThrow(/\{z\}, \{x\} and \{y\}/);
  });
});

describe.each(backends)('the console settings on %s', (backend) => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('answers the tile address the server was started with, to anyone (the console asks before a map opens)', async () => {
    const own = 'http://tiles.internal/osm/{z}/{x}/{y}.png';
    const s = await startServer(backend, { env: { MAP_TILE_URL: own } });
    servers.push(s);
    const answer = await (await fetch(s.url + SETTINGS)).json();
    expect(answer).toMatchObject({ code: 200, data: { mapTileUrl: own } });
    const none = await startServer(backend, { env: { MAP_TILE_URL: '' } });
    servers.push(none);
    expect((await (await fetch(none.url + SETTINGS)).json()).data).toEqual({ mapTileUrl: '' });
  });
});

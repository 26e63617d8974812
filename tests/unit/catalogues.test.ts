import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, workspace, removeWorkspaces } from './workspace';
import { stale, write } from '../../generator/generate';
import { deepMerge, splitTree } from '../../generator/emit/catalogues';

afterEach(removeWorkspaces);

function part(dir: string, file: string): Record<string, any> {
  const text = readFileSync(join(dir, `app/generated/catalogues/${file}.ts`), 'utf8');
  return JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1));
}

/** A language's whole catalogue: the first screen's part and the rest. */
async function catalogue(dir: string, lang: string): Promise<Record<string, any>> {
  return deepMerge(part(dir, lang), part(dir, `${lang}.rest`));
}

describe('message catalogues', () => {
  it('hold react-admin, declared and hand-written texts per language, zh-TW converted where nobody wrote one', async () => {
    const zhCN = await catalogue(ROOT, 'zh-CN');
    const zhTW = await catalogue(ROOT, 'zh-TW');
    const enUS = await catalogue(ROOT, 'en-US');
    // react-admin's pack, and the keys it lacks from app/i18n/messages.json (no explicit zh-TW: converted)
    expect(zhCN.ra.action.select_all_button).toBe('全选');
    expect(zhTW.ra.action.select_all_button).toBe('全選');
    expect(enUS.ra.action.select_all_button).toBe('Select all');
    // an explicit zh-TW text wins over the conversion
    expect(zhTW.app.title).toBe('智能設備與出租屋安全管理平台');
    // declared in a schema
    expect(zhTW.resources.device.name).toBeTruthy();
    expect(zhTW.resources.device.name).not.toBe(zhCN.resources.device.name);
  });

  it('are cut into the first screen\'s texts and the rest, each key in one part', () => {
    const [first, rest] = splitTree(
      { ra: { a: '1' }, resources: { device: { name: 'D', fields: { x: 'X' } }, alarm: { name: 'A' } }, device: { broker: { hint: 'h' }, tab: 't' }, other: 'o' },
      [['ra'], ['resources', '*', 'name'], ['device', 'broker']],
    );
    expect(first).toEqual({ ra: { a: '1' }, resources: { device: { name: 'D' }, alarm: { name: 'A' } }, device: { broker: { hint: 'h' } } });
    expect(rest).toEqual({ resources: { device: { fields: { x: 'X' } } }, device: { tab: 't' }, other: 'o' });
    // the project's own: the login page's and the device list's texts in the right parts
    for (const lang of ['zh-CN', 'zh-TW', 'en-US']) {
      expect(part(ROOT, lang).login.submit).toBeTruthy();
      expect(part(ROOT, lang).resources.device.name).toBeTruthy();
      expect(part(ROOT, lang).resources.device.fields).toBeUndefined();
      expect(part(ROOT, `${lang}.rest`).resources.device.fields).toBeTruthy();
      expect(part(ROOT, `${lang}.rest`).login).toBeUndefined();
    }
  });

  it('go stale when a hand-written text changes, and are regenerated from it', async () => {
    const dir = workspace();
    const file = join(dir, 'app/i18n/messages.json');
    const texts = JSON.parse(readFileSync(file, 'utf8'));
    texts.app.motto = ['设备安全，数据可靠', null];
    writeFileSync(file, JSON.stringify(texts, null, 2));
    expect(await stale(dir, { replay: false })).toEqual(['app/generated/catalogues/zh-CN.ts', 'app/generated/catalogues/zh-TW.ts']);
    await write(dir);
    expect(await stale(dir, { replay: false })).toEqual([]);
    expect((await catalogue(dir, 'zh-CN')).app.motto).toBe('设备安全，数据可靠');
    // no zh-TW written for it: converted at generation time
    expect((await catalogue(dir, 'zh-TW')).app.motto).toBe('設備安全，數據可靠');
    expect((await catalogue(dir, 'en-US')).app.motto).toBeUndefined();
  }, 120_000);
});

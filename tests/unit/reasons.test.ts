/** The catalogue of refusals and notices (schemas/reasons/): what the generator accepts, refuses and emits. */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspace, removeWorkspaces } from './workspace';
import { InvalidInputs, loadModel, type Problem } from '../../generator/model';
import { checkedReasons, emitReasons, reasonMessages } from '../../generator/reasons';
import { languageOf, fillText, paramsIn } from '../../contract/reasons';

afterEach(removeWorkspaces);

function catalogue(dir: string, entries: Record<string, unknown>, file = 'extra.json') {
  writeFileSync(join(dir, 'schemas', 'reasons', file), JSON.stringify(entries));
}

function problems(dir: string): Problem[] {
  try {
    checkedReasons(dir, loadModel(dir));
  } catch (e) {
    if (e instanceof InvalidInputs) return e.problems;
    throw e;
  }
  return [];
}

const entry = (cn: string, tw: string, en: string, extra: Record<string, unknown> = {}) => ({ 'zh-CN': cn, 'zh-TW': tw, 'en-US': en, ...extra });

describe('the catalogue of reasons', () => {
  it('accepts the repository’s catalogue and adds the fields’ messages and the endpoints’ notices as codes', () => {
    const dir = workspace();
    const reasons = checkedReasons(dir, loadModel(dir));
    expect(reasons['access.forbidden']).toMatchObject({ status: 401, params: [] });
    expect(reasons['request.tooManyItems'].params).toEqual(['max']);
    // schemas/device.schema.json declares fNumber's messages; its unique one answers 409.
    expect(reasons['device.fNumber.unique']).toMatchObject({ status: 409, text: { 'zh-CN': '设备编号已存在' } });
  });

  it('refuses a missing language, placeholders that differ, a bad code, a code extending another and an unknown key', () => {
    const dir = workspace();
    catalogue(dir, {
      'extra.noEnglish': { 'zh-CN': '缺英文', 'zh-TW': '缺英文' },
      'extra.holes': entry('设备{sn}不存在', '設備{sn}不存在', 'Device {number} does not exist'),
      'Extra.Bad': entry('甲', '甲', 'A'),
      'extra.base': entry('乙', '乙', 'B'),
      'extra.base.more': entry('丙', '丙', 'C'),
      'extra.key': entry('丁', '丁', 'D', { colour: 'red' }),
    });
    const found = problems(dir).map((p) => `${p.pointer} ${p.message}`);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/extra.noEnglish no text in en-US/),
        expect.stringMatching(/^\/extra.holes en-US has the placeholders \{number\}/),
        expect.stringMatching(/^\/Extra.Bad "Extra.Bad" is not a code/),
        expect.stringMatching(/^\/extra.base.more "extra.base.more" extends the code "extra.base"/),
        expect.stringMatching(/^\/extra.key unknown key\(s\) colour/),
      ]),
    );
  });

  it('refuses a code declared twice and a code no source answers', () => {
    const dir = workspace();
    catalogue(dir, { 'access.forbidden': entry('重复', '重複', 'Again') }, 'again.json');
    expect(problems(dir).map((p) => p.message)).toContain('"access.forbidden" is declared twice');

    const other = workspace();
    // A server of one module that answers one code, and no other code at all.
    for (const d of ['server', 'app', 'adapters', 'contract']) rmSync(join(other, d), { recursive: true, force: true });
    mkdirSync(join(other, 'server'), { recursive: true });
    writeFileSync(join(other, 'server', 'one.ts'), "export const why = refuse('access.forbidden');\n");
    const unused = problems(other).map((p) => p.message);
    expect(unused).toContain('"request.malformed" is declared but no code answers it');
    expect(unused).not.toContain('"access.forbidden" is declared but no code answers it');
  });

  it('emits the typed codes and the console’s translations with polyglot’s placeholders', () => {
    const dir = workspace();
    const reasons = checkedReasons(dir, loadModel(dir));
    const module = emitReasons(reasons)['contract/generated/reasons.ts'];
    expect(module).toContain('"request.tooManyItems": { max: string | number };');
    expect(module).toContain('"access.forbidden": Record<string, never>;');
    const english = reasonMessages(reasons, 'en-US') as any;
    expect(english.request.tooManyItems).toBe('The request is malformed: at most %{max} items at once');
    expect((reasonMessages(reasons, 'zh-TW') as any).access.forbidden).toBe('沒有操作權限');
  });
});

describe('a reason in the caller’s language', () => {
  it('reads Accept-Language as the three languages there are', () => {
    expect(languageOf(undefined)).toBe('zh-CN');
    expect(languageOf('en-US,en;q=0.9')).toBe('en-US');
    expect(languageOf('en')).toBe('en-US');
    expect(languageOf('zh-TW')).toBe('zh-TW');
    expect(languageOf('zh-Hant-HK;q=0.8')).toBe('zh-TW');
    expect(languageOf('zh-HK,zh;q=0.9')).toBe('zh-TW');
    expect(languageOf('zh-CN,zh;q=0.9,en;q=0.8')).toBe('zh-CN');
    expect(languageOf('fr-FR')).toBe('zh-CN');
  });

  it('fills a text with its parameters, a worded one in the language asked', () => {
    const label = { 'zh-CN': '设备编号', 'zh-TW': '設備編號', 'en-US': 'Device number' };
    expect(fillText('{label} is required', paramsIn({ label }, 'en-US'))).toBe('Device number is required');
    expect(fillText('{label}不能为空', paramsIn({ label }, 'zh-CN'))).toBe('设备编号不能为空');
    expect(fillText('最多{max}项', paramsIn({ max: 5000 }, 'zh-TW'))).toBe('最多5000项');
  });
});

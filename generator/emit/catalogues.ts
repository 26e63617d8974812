/**
 * app/generated/catalogues/<locale>.ts: the console's whole message catalogue of one language, which the
 * browser loads alone (adapters/i18nProvider.ts). Each is react-admin's own pack, then the texts the
 * schemas and resources declare, then every hand-written `app/**\/messages.ts`, deep-merged in that order.
 *
 * zh-TW is made here from the finished zh-CN catalogue with OpenCC (Simplified → Taiwan Traditional) and
 * then overlaid with every explicit zh-TW text, which wins. Converting at generation time keeps the
 * converter's dictionaries (about 470 KB gzip) out of the browser.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import englishPack from 'ra-language-english';
import chinesePack from '@haxqer/ra-language-chinese';
import { Converter } from 'opencc-js/cn2t';
import type { Lang } from '../model';
import { LANGS } from '../model';
import { tsHeader, literal } from './common';

type Tree = { [key: string]: unknown };

function isTree(value: unknown): value is Tree {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepMerge(...sources: (Tree | undefined)[]): Tree {
  const target: Tree = {};
  for (const source of sources) {
    if (!source) continue;
    for (const [key, value] of Object.entries(source)) {
      target[key] = isTree(value) && isTree(target[key]) ? deepMerge(target[key] as Tree, value) : isTree(value) ? deepMerge(value) : value;
    }
  }
  return target;
}

function mapStrings(tree: Tree, convert: (text: string) => string): Tree {
  const out: Tree = {};
  for (const [key, value] of Object.entries(tree)) {
    out[key] = typeof value === 'string' ? convert(value) : isTree(value) ? mapStrings(value, convert) : value;
  }
  return out;
}

// CommonJS packs imported from ES modules may arrive wrapped in { default }.
const unwrap = (pack: unknown): Tree => ((pack as { default?: Tree }).default ?? pack) as Tree;

/** The hand-written message modules of the console, in merge order (by path). */
export function handWrittenMessageFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir)).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) return path === join('app', 'generated') ? [] : walk(path);
      return name === 'messages.ts' ? [path] : [];
    });
  try {
    return walk('app').sort((a, b) => a.localeCompare(b));
  } catch {
    return []; // a root without a console (a generator workspace of schemas only)
  }
}

async function handWrittenTexts(root: string): Promise<Partial<Record<Lang, Tree>>[]> {
  const modules = [];
  for (const file of handWrittenMessageFiles(root)) {
    // Keyed by content: a file edited since this process last read it is read again, not served from the module cache.
    const version = createHash('sha1').update(readFileSync(join(root, file))).digest('hex').slice(0, 12);
    const module = (await import(`${pathToFileURL(join(root, file)).href}?v=${version}`)) as { default?: Partial<Record<Lang, Tree>> };
    if (!isTree(module.default)) throw new Error(`${relative(root, join(root, file))}: no default export of texts by language`);
    modules.push(module.default);
  }
  return modules;
}

/**
 * The catalogues of every language from the declared texts (`declared`, one tree per language, made
 * from schemas and resources) and the console's hand-written texts.
 */
export async function emitCatalogues(root: string, declared: Record<Lang, Tree>): Promise<Record<string, string>> {
  const written = await handWrittenTexts(root);
  const project = (lang: Lang) => [declared[lang], ...written.map((m) => m[lang])].filter(isTree);
  const english = unwrap(englishPack);
  // English underneath the Chinese pack: a react-admin key it does not cover reads in English, not as a raw key.
  const simplified = deepMerge(english, unwrap(chinesePack), ...project('zh-CN'));
  const toTraditional = Converter({ from: 'cn', to: 'tw' });
  const catalogues: Record<Lang, Tree> = {
    'zh-CN': simplified,
    'zh-TW': deepMerge(mapStrings(simplified, toTraditional), ...project('zh-TW')),
    'en-US': deepMerge(english, ...project('en-US')),
  };
  return Object.fromEntries(
    LANGS.map((lang) => [`app/generated/catalogues/${lang}.ts`, `${tsHeader}\nexport default ${literal(catalogues[lang])};\n`]),
  );
}

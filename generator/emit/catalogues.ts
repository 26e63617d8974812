/**
 * app/generated/catalogues/<locale>.ts and <locale>.rest.ts: the console's message catalogue of one
 * language, which the browser loads alone (adapters/i18nProvider.ts). Each is react-admin's own pack, then
 * the texts the schemas and resources declare, then every hand-written `app/**\/messages.json`, deep-merged
 * in that order. It is cut in two along the key paths `app/i18n/firstScreen.ts` names: `<locale>.ts` holds
 * the texts of the login page, the shell and the home page, `<locale>.rest.ts` everything else, fetched
 * before the first other page renders. Without that file the first part holds everything.
 *
 * zh-TW is made here from the finished zh-CN catalogue with OpenCC (Simplified → Taiwan Traditional) and
 * then overlaid with every explicit zh-TW text, which wins. Converting at generation time keeps the
 * converter's dictionaries (about 470 KB gzip) out of the browser.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
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

/** The hand-written texts of the console, in merge order (by path). */
export function handWrittenMessageFiles(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir)).flatMap((name) => {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) return path === join('app', 'generated') ? [] : walk(path);
      return name === 'messages.json' ? [path] : [];
    });
  try {
    return walk('app').sort((a, b) => a.localeCompare(b));
  } catch {
    return []; // a root without a console (a generator workspace of schemas only)
  }
}

/** A text's languages in a messages.json leaf: zh-CN, en-US, then zh-TW where converting zh-CN is not the wording. */
const LEAF_LANGS: Lang[] = ['zh-CN', 'en-US', 'zh-TW'];

/**
 * One messages.json as a tree per language. Its leaves give a text in every language at once
 * (`["设备", "Device"]`, or with a third, Traditional, text); `null` leaves a language to what lies
 * underneath (react-admin's packs, another file); `$comment` keys explain and are dropped.
 */
export function textsByLanguage(file: string, json: unknown): Partial<Record<Lang, Tree>> {
  const out: Partial<Record<Lang, Tree>> = {};
  const walk = (node: unknown, path: string[]) => {
    if (!isTree(node)) throw new Error(`${file}: ${path.join('.') || 'the file'} is neither a group of texts nor a text`);
    for (const [key, value] of Object.entries(node)) {
      if (key === '$comment') continue;
      const at = [...path, key];
      if (isTree(value)) {
        walk(value, at);
        continue;
      }
      const fits = Array.isArray(value) && (value.length === 2 || value.length === 3) && value.every((t, i) => typeof t === 'string' || (t === null && i < 2));
      if (!fits) throw new Error(`${file}: ${at.join('.')} must be ["zh-CN", "en-US"] or ["zh-CN", "en-US", "zh-TW"] (null for a language left to what lies underneath)`);
      (value as (string | null)[]).forEach((text, i) => {
        if (text === null) return;
        let tree = (out[LEAF_LANGS[i]] ??= {});
        for (const step of at.slice(0, -1)) tree = (tree[step] ??= {}) as Tree;
        tree[at[at.length - 1]] = text;
      });
    }
  };
  walk(json, []);
  return out;
}

function handWrittenTexts(root: string): Partial<Record<Lang, Tree>>[] {
  return handWrittenMessageFiles(root).map((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}`);
    }
    return textsByLanguage(file, json);
  });
}

/** The console's list of the first screen's texts, an input of the catalogues like the messages. */
export const FIRST_SCREEN_FILE = join('app', 'i18n', 'firstScreen.ts');

/** The key paths of the first screen's texts (`a.b`, `*` for any key at that level); undefined: all. */
async function firstScreenPaths(root: string): Promise<string[][] | undefined> {
  const file = join(root, FIRST_SCREEN_FILE);
  if (!existsSync(file)) return undefined;
  const version = createHash('sha1').update(readFileSync(file)).digest('hex').slice(0, 12);
  const module = (await import(`${pathToFileURL(file).href}?v=${version}`)) as { default?: unknown };
  if (!Array.isArray(module.default) || !module.default.every((p) => typeof p === 'string' && p)) {
    throw new Error('app/i18n/firstScreen.ts: the default export must be a list of key paths');
  }
  return (module.default as string[]).map((p) => p.split('.'));
}

/** Cuts a tree in two: what the paths name (whole subtrees), and the rest; both without empty branches. */
export function splitTree(tree: Tree, paths: string[][]): [Tree, Tree] {
  const picked: Tree = {};
  const rest: Tree = {};
  for (const [key, value] of Object.entries(tree)) {
    const matching = paths.filter((p) => p[0] === '*' || p[0] === key);
    if (matching.some((p) => p.length === 1) || (matching.length && !isTree(value))) picked[key] = value;
    else if (!matching.length || !isTree(value)) rest[key] = value;
    else {
      const [inner, outer] = splitTree(value, matching.map((p) => p.slice(1)));
      if (Object.keys(inner).length) picked[key] = inner;
      if (Object.keys(outer).length) rest[key] = outer;
    }
  }
  return [picked, rest];
}

/**
 * The catalogues of every language from the declared texts (`declared`, one tree per language, made
 * from schemas and resources) and the console's hand-written texts.
 */
export async function emitCatalogues(root: string, declared: Record<Lang, Tree>): Promise<Record<string, string>> {
  const written = handWrittenTexts(root);
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
  const paths = await firstScreenPaths(root);
  const module = (tree: Tree) => `${tsHeader}\nexport default ${literal(tree)};\n`;
  return Object.fromEntries(
    LANGS.flatMap((lang) => {
      const [first, rest] = paths ? splitTree(catalogues[lang], paths) : [catalogues[lang], {}];
      return [
        [`app/generated/catalogues/${lang}.ts`, module(first)],
        [`app/generated/catalogues/${lang}.rest.ts`, module(rest)],
      ];
    }),
  );
}

/// <reference types="vite/client" />
/**
 * Polyglot i18n provider: zh-CN (default), zh-TW and en-US. The catalogue of a locale is react-admin's
 * own pack plus every `app/**\/messages.ts` module (generated resource texts, page texts, shell texts),
 * deep-merged. zh-TW is derived from the zh-CN catalogue with OpenCC and then overlaid with the hand-written
 * zh-TW texts, so a key nobody translated by hand still reads as Traditional Chinese.
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'ra-core';
import englishMessages from 'ra-language-english';
import chineseModule from '@haxqer/ra-language-chinese';

export const LOCALE_KEY = 'locale';
export const DEFAULT_LOCALE = 'zh-CN';
export const LOCALES = [
  { locale: 'zh-CN', name: '简体中文' },
  { locale: 'zh-TW', name: '繁體中文' },
  { locale: 'en-US', name: 'English' },
] as const;
export type LocaleCode = (typeof LOCALES)[number]['locale'];

type Tree = { [key: string]: unknown };
type LocaleModule = { default?: Partial<Record<LocaleCode, Tree>> };

// Under Vite with "type": "module" the CommonJS pack arrives wrapped in { default }.
const chinese = ((chineseModule as unknown as { default?: Tree }).default ?? chineseModule) as Tree;

/** Keys react-admin 5 added after the Chinese pack was last published. */
const chineseForNewerKeys: Tree = {
  ra: {
    action: { reset: '重置', search_columns: '搜索列', select_all_button: '全选' },
    page: { access_denied: '拒绝访问', authentication_error: '认证错误' },
    message: {
      access_denied: '您没有访问此页面的权限',
      authentication_error: '认证服务器返回错误，无法校验您的身份。',
      select_all_limit_reached: '数据过多，只选中了前 %{max} 条。',
      placeholder_data_warning: '网络异常：数据刷新失败。',
    },
    navigation: { clear_filters: '清除筛选', no_filtered_results: '当前筛选条件下没有%{name}' },
    auth: { email: '邮箱' },
    notification: { offline: '网络未连接，无法获取数据。' },
    validation: { unique: '不能重复' },
    guesser: { empty: { title: '暂无数据', message: '请检查数据提供者' } },
  },
};

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

const modules = import.meta.glob<LocaleModule>('../app/**/messages.ts', { eager: true });
// Generated texts first, so a hand-written page can override a generated label.
const ordered = Object.keys(modules)
  .sort((a, b) => Number(!a.includes('/generated/')) - Number(!b.includes('/generated/')) || a.localeCompare(b))
  .map((path) => modules[path].default ?? {});

const projectTexts = (locale: LocaleCode): Tree[] => ordered.map((m) => m[locale]).filter(isTree);

const english = (englishMessages as unknown as { default?: Tree }).default ?? (englishMessages as unknown as Tree);

const catalogues: Partial<Record<LocaleCode, Tree>> = {};

function simplified(): Tree {
  // English underneath: a react-admin key that no Chinese pack covers reads in English, not as a raw key.
  return (catalogues['zh-CN'] ??= deepMerge(english, chinese, chineseForNewerKeys, ...projectTexts('zh-CN')));
}

function englishCatalogue(): Tree {
  return (catalogues['en-US'] ??= deepMerge(english, ...projectTexts('en-US')));
}

let traditionalLoading: Promise<Tree> | undefined;
function loadTraditional(): Promise<Tree> {
  // The converter's dictionaries weigh about 1 MB: fetched only when someone reads zh-TW.
  traditionalLoading ??= import('opencc-js/cn2t').then(({ Converter }) => {
    const convert = Converter({ from: 'cn', to: 'tw' });
    return (catalogues['zh-TW'] = deepMerge(mapStrings(simplified(), convert), ...projectTexts('zh-TW')));
  });
  return traditionalLoading;
}

function normalise(locale: string | null | undefined): LocaleCode {
  return LOCALES.some((l) => l.locale === locale) ? (locale as LocaleCode) : DEFAULT_LOCALE;
}

export function getStoredLocale(): LocaleCode {
  try {
    return normalise(localStorage.getItem(LOCALE_KEY));
  } catch {
    return DEFAULT_LOCALE;
  }
}

function getMessages(locale: string): TranslationMessages | Promise<TranslationMessages> {
  const code = normalise(locale);
  if (code === 'zh-TW')
    return (catalogues['zh-TW'] as TranslationMessages | undefined) ?? (loadTraditional() as Promise<TranslationMessages>);
  return (code === 'en-US' ? englishCatalogue() : simplified()) as TranslationMessages;
}

function applyDocumentLocale(locale: string): void {
  try {
    localStorage.setItem(LOCALE_KEY, locale);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

/**
 * Builds the provider in the locale the user chose last time. Polyglot needs the first catalogue
 * synchronously, so a stored zh-TW is converted before the provider exists.
 */
export async function createI18nProvider(): Promise<I18nProvider> {
  const initial = getStoredLocale();
  if (initial === 'zh-TW') await loadTraditional().catch(() => undefined);
  const start = initial === 'zh-TW' && !catalogues['zh-TW'] ? DEFAULT_LOCALE : initial;
  const provider = polyglotI18nProvider(getMessages, start, [...LOCALES], { allowMissing: true });
  applyDocumentLocale(start);
  return {
    ...provider,
    changeLocale: async (locale: string, options?: unknown) => {
      const code = normalise(locale);
      await provider.changeLocale(code, options);
      applyDocumentLocale(code);
    },
  };
}

/** A zh-CN provider for tests and tools that cannot wait. */
export const i18nProvider: I18nProvider = polyglotI18nProvider(getMessages, DEFAULT_LOCALE, [...LOCALES], { allowMissing: true });

export default createI18nProvider;

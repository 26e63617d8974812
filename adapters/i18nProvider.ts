/**
 * Polyglot i18n provider: zh-CN (default), zh-TW and en-US. Each language's catalogue is generated
 * (react-admin's pack, the declared resource texts and every hand-written `app/**\/messages.json`, with
 * zh-TW converted from zh-CN at generation time: generator/emit/catalogues.ts) and downloaded only when
 * that language is shown, in two parts: the first screen's texts (app/i18n/firstScreen.ts) at start, the
 * rest when a page outside the first screen is first opened (`loadAllTexts`, awaited by its loader).
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'ra-core';
import { paramsIn, type AnsweredReason } from '../contract/reasons';

export const LOCALE_KEY = 'locale';
export const DEFAULT_LOCALE = 'zh-CN';
export const LOCALES = [
  { locale: 'zh-CN', name: '简体中文' },
  { locale: 'zh-TW', name: '繁體中文' },
  { locale: 'en-US', name: 'English' },
] as const;
export type LocaleCode = (typeof LOCALES)[number]['locale'];

type Catalogue = { default: unknown };

// Chunks per language: a user of one language never downloads the other two.
const firstLoaders: Record<LocaleCode, () => Promise<Catalogue>> = {
  'zh-CN': () => import('../app/generated/catalogues/zh-CN'),
  'zh-TW': () => import('../app/generated/catalogues/zh-TW'),
  'en-US': () => import('../app/generated/catalogues/en-US'),
};
const restLoaders: Record<LocaleCode, () => Promise<Catalogue>> = {
  'zh-CN': () => import('../app/generated/catalogues/zh-CN.rest'),
  'zh-TW': () => import('../app/generated/catalogues/zh-TW.rest'),
  'en-US': () => import('../app/generated/catalogues/en-US.rest'),
};

type Tree = { [key: string]: unknown };
const isTree = (value: unknown): value is Tree => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The two parts share branches (`resources` has its names in the first): merged key by key. */
function merge(a: Tree, b: Tree): Tree {
  const out: Tree = { ...a };
  for (const [key, value] of Object.entries(b)) out[key] = isTree(value) && isTree(out[key]) ? merge(out[key] as Tree, value) : value;
  return out;
}

/** Since a page outside the first screen was opened: every language is loaded whole. */
let whole = false;
const catalogues: Partial<Record<LocaleCode, TranslationMessages>> = {};
const complete = new Set<LocaleCode>();
const loading = new Map<string, Promise<TranslationMessages>>();

function loadCatalogue(locale: LocaleCode): Promise<TranslationMessages> {
  const wanted = whole;
  const key = `${locale}:${wanted}`;
  if (!loading.has(key)) {
    const parts = [firstLoaders[locale](), ...(wanted ? [restLoaders[locale]()] : [])];
    loading.set(
      key,
      Promise.all(parts).then(
        (modules) => {
          const messages = modules.map((m) => m.default as Tree).reduce(merge) as TranslationMessages;
          // A first part arriving late must not replace the whole catalogue.
          if (wanted || !complete.has(locale)) catalogues[locale] = messages;
          if (wanted) complete.add(locale);
          return catalogues[locale]!;
        },
        (error: unknown) => {
          loading.delete(key); // a failed download is tried again on the next switch or page
          throw error;
        },
      ),
    );
  }
  return loading.get(key)!;
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

/** A catalogue already loaded is answered synchronously, so switching back and forth does not flicker. */
function getMessages(locale: string): TranslationMessages | Promise<TranslationMessages> {
  const code = normalise(locale);
  const ready = whole ? complete.has(code) : catalogues[code] !== undefined;
  return ready ? catalogues[code]! : loadCatalogue(code);
}

let provider: I18nProvider | undefined;

/** The language shown (before the provider starts: the one chosen last time). */
export function currentLocale(): LocaleCode {
  return provider ? normalise(provider.getLocale()) : getStoredLocale();
}

/**
 * The one place the console words what the server refused or noticed: by the reason's code, from the
 * catalogue's texts in the language shown (`reasons.<code>`, generated from schemas/reasons/), its
 * parameters in that language too; the server's own text of it when the console does not know the code.
 */
export function reasonText(reason: AnsweredReason): string {
  if (!provider) return reason.text;
  return provider.translate(`reasons.${reason.code}`, { ...paramsIn(reason.params, currentLocale()), _: reason.text });
}

/**
 * Loads the texts outside the first screen in the language shown, once; a page that needs them awaits
 * this before its first render, so it never shows a raw key. Later language switches load both parts.
 */
export async function loadAllTexts(): Promise<void> {
  whole = true;
  if (!provider) return; // not started yet: the provider will load the whole catalogue
  const locale = normalise(provider.getLocale());
  if (complete.has(locale)) return;
  // Re-entering the same locale swaps polyglot's phrases for the whole catalogue.
  await provider.changeLocale(locale);
}

function applyDocumentLocale(locale: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

/** Only a choice is stored: a page starting up must not overwrite what another tab chose meanwhile. */
function storeLocale(locale: string): void {
  try {
    localStorage.setItem(LOCALE_KEY, locale);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

/**
 * Builds the provider in the locale the user chose last time. Polyglot needs the first catalogue
 * synchronously, so it is downloaded before the provider exists; if it cannot be, zh-CN is tried.
 */
export async function createI18nProvider(): Promise<I18nProvider> {
  let start = getStoredLocale();
  await loadCatalogue(start).catch(async () => {
    start = DEFAULT_LOCALE;
    await loadCatalogue(start);
  });
  // A page that asked for every text meanwhile: polyglot must start with the whole catalogue.
  while (whole && !complete.has(start)) await loadCatalogue(start);
  const polyglot = polyglotI18nProvider(getMessages, start, [...LOCALES], { allowMissing: true });
  provider = polyglot;
  applyDocumentLocale(start);
  return {
    ...polyglot,
    changeLocale: async (locale: string, options?: unknown) => {
      const code = normalise(locale);
      await polyglot.changeLocale(code, options);
      storeLocale(code);
      applyDocumentLocale(code);
    },
  };
}

export default createI18nProvider;

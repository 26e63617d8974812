/**
 * Polyglot i18n provider: zh-CN (default), zh-TW and en-US. Each language's catalogue is generated whole
 * (react-admin's pack, the declared resource texts and every hand-written `app/**\/messages.ts`, with
 * zh-TW converted from zh-CN at generation time: generator/emit/catalogues.ts) and downloaded only when
 * that language is shown.
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import type { I18nProvider, TranslationMessages } from 'ra-core';

export const LOCALE_KEY = 'locale';
export const DEFAULT_LOCALE = 'zh-CN';
export const LOCALES = [
  { locale: 'zh-CN', name: '简体中文' },
  { locale: 'zh-TW', name: '繁體中文' },
  { locale: 'en-US', name: 'English' },
] as const;
export type LocaleCode = (typeof LOCALES)[number]['locale'];

type Catalogue = { default: unknown };

// One chunk per language: a user of one language never downloads the other two.
const loaders: Record<LocaleCode, () => Promise<Catalogue>> = {
  'zh-CN': () => import('../app/generated/catalogues/zh-CN'),
  'zh-TW': () => import('../app/generated/catalogues/zh-TW'),
  'en-US': () => import('../app/generated/catalogues/en-US'),
};

const catalogues: Partial<Record<LocaleCode, TranslationMessages>> = {};
const loading: Partial<Record<LocaleCode, Promise<TranslationMessages>>> = {};

function loadCatalogue(locale: LocaleCode): Promise<TranslationMessages> {
  loading[locale] ??= loaders[locale]().then(
    (module) => (catalogues[locale] = module.default as TranslationMessages),
    (error: unknown) => {
      delete loading[locale]; // a failed download is tried again on the next switch
      throw error;
    },
  );
  return loading[locale];
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
  return catalogues[code] ?? loadCatalogue(code);
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
  const provider = polyglotI18nProvider(getMessages, start, [...LOCALES], { allowMissing: true });
  applyDocumentLocale(start);
  return {
    ...provider,
    changeLocale: async (locale: string, options?: unknown) => {
      const code = normalise(locale);
      await provider.changeLocale(code, options);
      storeLocale(code);
      applyDocumentLocale(code);
    },
  };
}

export default createI18nProvider;

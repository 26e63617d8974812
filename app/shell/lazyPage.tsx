/**
 * Loaders of the pages outside the first screen. A page's code and the texts outside the first screen's
 * catalogue (adapters/i18nProvider.ts) load together, and the page renders once both are there: it never
 * shows a raw key, and the login and home pages carry neither.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadAllTexts } from '../../adapters/i18nProvider';
import { lazyChunk, withinChunkTimeout } from './chunks';
import { listCode, resourceIndex } from '../generated/resourceIndex';
import { HOME_PATH } from './tabs';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): LazyExoticComponent<T> {
  return lazyChunk(() => Promise.all([load(), loadAllTexts()]).then(([module]) => module));
}

type ResourcePageModule = typeof import('../resources/ResourcePage');
const resourceLoads = new Map<string, Promise<ResourcePageModule>>();

/**
 * ResourcePage, the resource's list code and the texts, all requested at once (not the list code only
 * when ResourcePage renders); one download per resource however often it is asked for.
 */
function loadResource(name: string): Promise<ResourcePageModule> {
  let load = resourceLoads.get(name);
  if (!load) {
    load = withinChunkTimeout(Promise.all([import('../resources/ResourcePage'), listCode[name]?.(), loadAllTexts()])).then(([module]) => module);
    load.catch(() => resourceLoads.delete(name)); // a failed download is tried again on the next visit
    resourceLoads.set(name, load);
  }
  return load;
}

const resourcePages = new Map<string, LazyExoticComponent<ComponentType<{ name: string }>>>();

/** A declared resource's list page, loaded when first shown. */
export function ResourcePage({ name }: { name: string }) {
  let Page = resourcePages.get(name);
  if (!Page) {
    Page = lazy(() => loadResource(name).then((module) => ({ default: module.ResourcePage })));
    resourcePages.set(name, Page);
  }
  return <Page name={name} />;
}

/** The legacy addresses of two resources' menus (app/shell/pages.tsx). */
const LEGACY_PATHS: Record<string, string> = { 'sys-user': 'user', 'sys-role': 'role' };
const FIRST_SCREEN = new Set(['', 'login', HOME_PATH.slice(1), '401', '404', '500']);
/** The addresses that show the home page to a logged-in user. */
const HOME = new Set(['', HOME_PATH.slice(1)]);

/**
 * Called before the first render when a page is opened by its address with a session: the page's code
 * and texts start downloading alongside the console's start instead of after its first render. The
 * home page needs no texts beyond the first screen's; its dashboard's code is fetched meanwhile too.
 */
export function preloadPage(pathname: string): void {
  const first = pathname.split('/')[1] ?? '';
  if (HOME.has(first)) void import('../dashboard/Dashboard').catch(() => undefined);
  if (FIRST_SCREEN.has(first)) return;
  void loadAllTexts().catch(() => undefined);
  const name = LEGACY_PATHS[first] ?? resourceIndex.find((e) => e.name === first || e.menu?.path === `/${first}`)?.name;
  if (name) void loadResource(name).catch(() => undefined);
}

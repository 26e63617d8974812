/**
 * The server's menu tree decides what the console offers. A node whose component is `Main` is a section;
 * any other component names a generated resource (by entity name or menu key) or a hand-written page.
 */
import { useLocaleState, useTranslate } from 'react-admin';
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { MenuNode } from '../../adapters/authProvider';
import { getStoredMenus, MENUS_KEY } from '../../adapters/authProvider';
import { resourceIndex } from '../generated/resourceIndex';
import type { ResourceEntry } from '../resources/types';
import { customPages, type CustomPage } from './pages';
import { HOME_PATH } from '../../contract/consoleBase';

export const SECTION_COMPONENT = 'Main';
/** The legacy router's nested-layout marker: a section too. */
const PARENT_VIEW = 'parentView';

export function isSection(node: MenuNode): boolean {
  return node.component === SECTION_COMPONENT || node.component === PARENT_VIEW || (node.children?.length ?? 0) > 0;
}

const same = (a?: string | null, b?: string | null) => !!a && !!b && a.toLowerCase() === b.toLowerCase();
const withSlash = (uri?: string | null) => (uri ? (uri.startsWith('/') ? uri : '/' + uri) : '');

export function resourceOf(node: MenuNode): ResourceEntry | undefined {
  if (isSection(node)) return undefined;
  return resourceIndex.find(
    (entry) =>
      same(entry.name, node.component) ||
      same(entry.menu?.key, node.component) ||
      (!!node.menuUri && same(entry.menu?.path, withSlash(node.menuUri))),
  );
}

/** Where a menu leads: a known page at its path, a resource at /<entity>, anything else at its menuUri. */
export function pathOf(node: MenuNode): string {
  // A known page first: a declared resource may keep a legacy address (the user list at /sys-user).
  const page = node.component ? customPages[node.component] : undefined;
  if (page) return page.path;
  const resource = resourceOf(node);
  if (resource) return '/' + resource.name;
  return withSlash(node.menuUri) || '/' + (node.component ?? node.id);
}

export function sortMenus(nodes: MenuNode[]): MenuNode[] {
  return [...nodes]
    .filter((n) => !n.hidden)
    .sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0))
    .map((n) => (n.children?.length ? { ...n, children: sortMenus(n.children) } : n));
}

export function leaves(nodes: MenuNode[]): MenuNode[] {
  return nodes.flatMap((n) => (n.children?.length ? leaves(n.children) : isSection(n) ? [] : [n]));
}

/** The entity names the user's menus open, in menu order. */
export function allowedResources(nodes: MenuNode[]): ResourceEntry[] {
  const seen = new Set<string>();
  const out: ResourceEntry[] = [];
  for (const leaf of leaves(nodes)) {
    const resource = resourceOf(leaf);
    if (resource && !seen.has(resource.name)) {
      seen.add(resource.name);
      out.push(resource);
    }
  }
  return out;
}

/** The hand-written pages routed for the user: those its menus name, and everyone's. */
export function allowedPages(nodes: MenuNode[]): CustomPage[] {
  const named = new Set(leaves(nodes).map((leaf) => leaf.component));
  return Object.entries(customPages)
    .filter(([name, page]) => page.everyone || named.has(name))
    .map(([, page]) => page);
}

export interface Trail {
  section?: MenuNode;
  page: MenuNode;
}

/** The menu a path belongs to, with its section: `/device/ABC` belongs to the `/device` menu. */
export function findTrail(nodes: MenuNode[], pathname: string): Trail | undefined {
  let best: (Trail & { length: number }) | undefined;
  const visit = (list: MenuNode[], section?: MenuNode) => {
    for (const node of list) {
      if (node.children?.length) {
        visit(node.children, node);
        continue;
      }
      if (isSection(node)) continue;
      const path = pathOf(node);
      if ((pathname === path || pathname.startsWith(path + '/')) && (!best || path.length > best.length)) {
        best = { section, page: node, length: path.length };
      }
    }
  };
  visit(nodes);
  return best && { section: best.section, page: best.page };
}

/**
 * Whether a path is a page of this user: home, a page of its menus (or under one: `/device/ABC`), or a
 * hand-written page routed for it. Only such a page becomes a tab or names the document; any other
 * address (a page of someone else's menus among them) shows the 404 page.
 */
export function isUsersPage(nodes: MenuNode[], pathname: string): boolean {
  return pathname === HOME_PATH || !!findTrail(nodes, pathname) || allowedPages(nodes).some((p) => p.path === pathname);
}

// Menus change only at login, logout and session refresh; other tabs of the browser change them too.
const listeners = new Set<() => void>();
let snapshot: MenuNode[] = sortMenus(getStoredMenus());
let snapshotText = localStorage.getItem(MENUS_KEY);

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === MENUS_KEY) menusChanged();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function getSnapshot(): MenuNode[] {
  const text = localStorage.getItem(MENUS_KEY);
  if (text !== snapshotText) {
    snapshotText = text;
    snapshot = sortMenus(getStoredMenus());
  }
  return snapshot;
}

/** Tells the shell that the stored menus were replaced. */
export function menusChanged(): void {
  for (const listener of listeners) listener();
}

export function useMenus(): MenuNode[] {
  return useSyncExternalStore(subscribe, getSnapshot);
}

/** Menu titles: the catalogue key `menus.<component>` (or `menus.<section key>`), else the server's own title. */
export function useMenuTitle(): (node: MenuNode) => string {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return useCallback(
    (node: MenuNode) => {
      const fallback = node.title?.[locale] || node.menuName || String(node.component ?? '');
      const resource = resourceOf(node);
      const keys = isSection(node) ? [withSlash(node.menuUri).slice(1)] : [node.component ?? '', resource?.menu?.key ?? ''];
      for (const key of keys) {
        if (!key) continue;
        const text = translate(`menus.${key}`, { _: '' });
        if (text) return text;
      }
      return fallback;
    },
    [translate, locale],
  );
}

/** The title of any console path: fixed pages first, then the menu the path belongs to. */
export function usePageTitle(): (pathname: string) => string {
  const menus = useMenus();
  const menuTitle = useMenuTitle();
  const translate = useTranslate();
  return useMemo(
    () => (pathname: string) => {
      const fixed: Record<string, string> = {
        '/home': 'shell.home',
        '/401': 'pages.e401.title',
        '/404': 'pages.e404.title',
        '/500': 'pages.e500.title',
      };
      if (fixed[pathname]) return translate(fixed[pathname]);
      const trail = findTrail(menus, pathname);
      if (trail) {
        const base = menuTitle(trail.page);
        const rest = decodeURIComponent(pathname.slice(pathOf(trail.page).length + 1));
        return rest ? `${base} · ${rest}` : base;
      }
      const page = allowedPages(menus).find((p) => p.path === pathname);
      if (page) return translate(page.title);
      return translate('pages.e404.title');
    },
    [menus, menuTitle, translate],
  );
}

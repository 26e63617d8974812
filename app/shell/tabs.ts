/**
 * The tab bar's list: home first and never closed, then the pages in the order they were opened. Kept
 * in localStorage so a reload keeps the tabs; logout removes the key with the rest of the session.
 */
import { useSyncExternalStore } from 'react';
import { TABS_KEY } from '../../adapters/authProvider';
import { HOME_PATH } from '../../contract/consoleBase';

export { HOME_PATH };

export interface Tab {
  /** The pathname: one tab per page. */
  path: string;
  /** The address last seen on that page, query included, so returning restores its filters. */
  fullPath: string;
}

const HOME: Tab = { path: HOME_PATH, fullPath: HOME_PATH };
/** Pages that are not tabs: the login screen, the error pages and the redirecting root. */
const NOT_TABS = new Set(['/', '/login', '/401', '/404', '/500']);

function read(): Tab[] {
  try {
    const list = JSON.parse(localStorage.getItem(TABS_KEY) ?? '[]') as Tab[];
    const valid = Array.isArray(list) ? list.filter((t) => t && typeof t.path === 'string' && t.path !== HOME_PATH) : [];
    return [HOME, ...valid];
  } catch {
    return [HOME];
  }
}

let tabs: Tab[] = read();
let stored = localStorage.getItem(TABS_KEY);
const listeners = new Set<() => void>();

function write(next: Tab[]): void {
  tabs = [HOME, ...next.filter((t) => t.path !== HOME_PATH)];
  stored = JSON.stringify(tabs);
  localStorage.setItem(TABS_KEY, stored);
  for (const listener of listeners) listener();
}

function snapshot(): Tab[] {
  // Logout clears the key behind the store's back.
  const now = localStorage.getItem(TABS_KEY);
  if (now !== stored) {
    stored = now;
    tabs = read();
  }
  return tabs;
}

export function useTabs(): Tab[] {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, snapshot);
}

export function isTabPath(path: string): boolean {
  return !NOT_TABS.has(path);
}

/** Opens (or refreshes) the tab of a page. */
export function openTab(path: string, fullPath: string): void {
  if (!isTabPath(path)) return;
  const current = snapshot();
  const index = current.findIndex((t) => t.path === path);
  if (index >= 0) {
    if (current[index].fullPath === fullPath) return;
    write(current.map((t, i) => (i === index ? { path, fullPath } : t)));
  } else {
    write([...current, { path, fullPath }]);
  }
}

/** Closes a tab; answers where to go when it was the active one (its right neighbour, else its left). */
export function closeTab(path: string, activePath: string): string | undefined {
  if (path === HOME_PATH) return undefined;
  const current = snapshot();
  const index = current.findIndex((t) => t.path === path);
  if (index < 0) return undefined;
  const next = current.filter((t) => t.path !== path);
  write(next);
  if (path !== activePath) return undefined;
  return (next[index] ?? next[index - 1] ?? HOME).fullPath;
}

export function closeAllTabs(): void {
  write([]);
}

export function closeOtherTabs(keepPath: string): void {
  write(snapshot().filter((t) => t.path === keepPath));
}

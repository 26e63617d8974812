import { useEffect, useMemo, useState } from 'react';
import { useGetIdentity, useTranslate } from 'react-admin';
import { endpoints } from '../../adapters/generated/endpoints';
import { readPage, type CallName, type CallRow, type LegacyDataProvider } from '../../adapters/dataProvider';
import { AGENT_QUERY } from './api';
import { useApi } from './calls';

export interface Option {
  value: string | number;
  label: string;
}

/** An entry of a dictionary, as the dictionary call answers it. */
export type DictionaryEntry = CallRow<'system.dictionary'>;

/** A product for the product selects, as the call of every product answers it. */
export type ProductOption = CallRow<'product.all'>;

/** An agent for the owner selector, a row of the user list. */
type AgentRow = CallRow<'user.list'>;

/*
 * Lookups are shared by every select on a page and change rarely, so one request serves all of them;
 * `invalidateLookups` drops the copies after a write that changes them (a product saved or deleted).
 */
const cache = new Map<string, Promise<unknown>>();

export function invalidateLookups(prefix = ''): void {
  for (const key of [...cache.keys()]) if (key.startsWith(prefix)) cache.delete(key);
}

function cached<T>(key: string, load: () => Promise<T>): Promise<T> {
  let promise = cache.get(key) as Promise<T> | undefined;
  if (!promise) {
    promise = load().catch((error: unknown) => {
      cache.delete(key);
      throw error;
    });
    cache.set(key, promise);
  }
  return promise;
}

/** A lookup through the data provider (react-admin's, which logs out on an expired login), cached by key for the page. */
function useLookup<T>(key: string | null, load: (api: LegacyDataProvider) => Promise<T>, empty: T): { data: T; loading: boolean } {
  const api = useApi();
  const [state, setState] = useState<{ key: string | null; data: T; loading: boolean }>({ key: null, data: empty, loading: false });
  useEffect(() => {
    if (!key) return;
    let alive = true;
    setState((s) => ({ ...s, loading: true }));
    cached(key, () => load(api))
      .then((data) => alive && setState({ key, data, loading: false }))
      .catch(() => alive && setState({ key, data: empty, loading: false }));
    return () => {
      alive = false;
    };
    // `load` is derived from `key`; re-running on its identity would refetch on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return { data: state.key === key ? state.data : empty, loading: state.loading };
}

const NO_ENTRIES: DictionaryEntry[] = [];
const NO_PRODUCTS: ProductOption[] = [];
const NO_AGENTS: AgentRow[] = [];

/**
 * Options of a dictionary (the call `system.dictionary {key}`): value fId, label fContent; `byValue` for a
 * text field that stores the entry's fValue (a library field's value type: 'switch', 'reading', …).
 */
export function useDictionary(dictionaryKey: string | undefined, byValue = false): { options: Option[]; entries: DictionaryEntry[]; loading: boolean } {
  const { data, loading } = useLookup(
    dictionaryKey ? 'dic:' + dictionaryKey : null,
    async (api) => {
      const envelope = await api.call('system.dictionary', { key: dictionaryKey });
      return Array.isArray(envelope.data) ? envelope.data : [];
    },
    NO_ENTRIES,
  );
  const translate = useTranslate();
  return { entries: data, options: data.map((d) => ({ value: byValue ? (d.fValue ?? d.fId) : d.fId, label: dictionaryWords(translate, dictionaryKey!, d) })), loading };
}

/**
 * An entry's words in the console's language while they are still the words the migrations seeded
 * (schemas/dictionaries.json); an entry an administrator added or reworded reads as stored.
 */
export function dictionaryWords(translate: (key: string, options?: object) => string, dictionaryKey: string, entry: DictionaryEntry): string {
  const at = `dictionaries.${dictionaryKey}.${entry.fValue}`;
  return entry.fValue !== undefined && translate(`${at}.seeded`, { _: '' }) === entry.fContent ? translate(`${at}.label`) : entry.fContent;
}

/** Every product (no paging), for product selects; rows carry fDeviceType. */
export function useAllProducts(enabled = true): { products: ProductOption[]; options: Option[]; loading: boolean } {
  const { data, loading } = useLookup(
    enabled ? 'products' : null,
    async (api) => {
      const envelope = await api.call('product.all', {});
      return Array.isArray(envelope.data) ? envelope.data : [];
    },
    NO_PRODUCTS,
  );
  return { products: data, options: data.map((p) => ({ value: p.fId, label: p.fName })), loading };
}

const NO_ROWS: Record<string, unknown>[] = [];
const REF_LIST_SIZE = 999;

/**
 * The rows of an entity for the selects of fields referring to it (x-ref), from its `all` endpoint or
 * else its list; label fName. A list that saves or deletes such rows drops the copy (`invalidateLookups('ref:<entity>')`).
 */
export function useEntityOptions(entity: string | undefined, where?: Record<string, unknown>): { rows: Record<string, unknown>[]; options: Option[]; loading: boolean } {
  const actions = entity ? (endpoints as Record<string, Record<string, string>>)[entity] : undefined;
  // Without an `all` endpoint, the list's first REF_LIST_SIZE rows (spec 000 §9: the function list loads 999).
  const action = actions?.all ? 'all' : actions?.list ? 'list' : null;
  const { data, loading } = useLookup(
    action ? `ref:${entity}` : null,
    async (api) => {
      const body = action === 'all' ? {} : { current: 1, size: REF_LIST_SIZE, condition: {} };
      // The entity is named at run time (the field's configuration): its answer, a list or a page, is read for its rows.
      const envelope = await api.call(`${entity}.${action}` as CallName, body);
      return readPage(envelope.data).records;
    },
    NO_ROWS,
  );
  // The rows are fetched once per entity; a field offering only some of them (x-refWhere) picks those.
  const rows = useMemo(() => (where ? data.filter((r) => Object.entries(where).every(([k, v]) => (r[k] ?? null) === v)) : data), [data, where]);
  return { rows, options: rows.map((r) => ({ value: r.fId as number, label: String(r.fName ?? r.fId) })), loading };
}

/** Agents (users of type 2) for the owner selector; only administrators may list them. */
export function useAgents(enabled: boolean): { options: Option[]; loading: boolean } {
  const { data, loading } = useLookup(
    enabled ? 'agents' : null,
    async (api) => {
      const envelope = await api.call('user.list', AGENT_QUERY);
      return envelope.data?.records ?? [];
    },
    NO_AGENTS,
  );
  return { options: data.map((u) => ({ value: u.fId, label: u.fChineseName || u.fPhone || String(u.fId) })), loading };
}

/** The logged-in user as the login answer stored it. */
export function storedUser(): Record<string, unknown> | null {
  for (const key of ['user', 'userInfo']) {
    try {
      const raw = localStorage.getItem(key);
      if (raw) {
        const parsed = JSON.parse(raw) as unknown;
        if (parsed && typeof parsed === 'object') return parsed as Record<string, unknown>;
      }
    } catch {
      /* not JSON: look further */
    }
  }
  return null;
}

/** Administrators are users with fAdmin 1 (agents have 2, ordinary users 0). */
export function useIsAdmin(): boolean {
  const { identity } = useGetIdentity();
  const fromIdentity = identity as Record<string, unknown> | undefined;
  const admin = fromIdentity?.fAdmin ?? (fromIdentity?.user as Record<string, unknown> | undefined)?.fAdmin ?? storedUser()?.fAdmin;
  return Number(admin) === 1;
}

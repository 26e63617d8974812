import { useGetList } from 'react-admin';
import type { ResourceConfig } from '../resources/types';
import { defaultSort } from './api';

/** The rows before the first answer: the same empty list each time, so what depends on the rows does not run again. */
const NO_ROWS: never[] = [];

/** A page of a list as the card grid and the tables take it: its rows and total, which page (from 1) and its size. */
export interface ListPage<R> {
  rows: R[];
  total: number;
  page: number;
  perPage: number;
  onPageChange: (page: number) => void;
  /** The page is being asked for; the one shown stays meanwhile. */
  loading: boolean;
  /** Asks for the page again (the same function on every render). */
  refetch: () => unknown;
}

/**
 * One page of a resource's list, asked through react-admin (useGetList) in the resource's sort; `meta`
 * names another list call of the entity (a list variant). The page shown stays while the next one loads.
 */
export function useResourcePage<R>(config: ResourceConfig, { filter, page, perPage, onPageChange, meta }: { filter: Record<string, unknown>; page: number; perPage: number; onPageChange: (page: number) => void; meta?: object }): ListPage<R> {
  const { data, total, isFetching, refetch } = useGetList<R & { id: number }>(
    config.entity ?? config.name,
    { pagination: { page, perPage }, sort: defaultSort(config), filter, ...(meta ? { meta } : {}) },
    { placeholderData: (previous) => previous },
  );
  return { rows: data ?? NO_ROWS, total: total ?? 0, page, perPage, onPageChange, loading: isFetching, refetch };
}

import { useState } from 'react';

/**
 * A list's search: the filters as typed, the ones applied (what the list is asked for) and the page,
 * back to the first one on every query and reset. `first`: the first page's number (0 for the lists
 * paged from 0); `initial`: filters applied on arrival (a device number in the address), which a reset
 * clears like any other.
 */
export function useSearch<F>(empty: F, { first = 1, initial = empty }: { first?: number; initial?: F } = {}) {
  const [draft, setDraft] = useState<F>(initial);
  const [applied, setApplied] = useState<F>(initial);
  const [page, setPage] = useState(first);
  const [asked, setAsked] = useState(0);
  const apply = (next: F) => {
    setDraft(next);
    setApplied(next);
    setPage(first);
  };
  return {
    draft,
    setDraft,
    /** Changes some of the typed filters. */
    patch: (change: Partial<F>) => setDraft((d) => ({ ...d, ...change })),
    applied,
    page,
    setPage,
    /** Queries so far: a list that asks again on every Query, even for the same filters, depends on it. */
    asked,
    /** Applies the typed filters, or `next` (shown as typed too). */
    query: (next: F = draft) => {
      apply(next);
      setAsked((n) => n + 1);
    },
    reset: () => apply(empty),
  };
}

import { useCallback, useEffect, useState } from 'react';
import type { CallAnswer, CallBody, CallName, CallRow } from '../../adapters/dataProvider';
import { useRequest } from './calls';
import type { Counted } from './Pager';

/** A page of a paged call's answer (a huge list's also says whether its total is an estimate). */
export interface RecordsPage<R> extends Counted {
  records: R[];
}

const NONE = { records: [], total: 0 };

/** The calls answering a page of rows keyed by their fId (the lists a page asks page by page). */
export type PagedCallName = { [N in CallName]: CallAnswer<N> extends { records?: readonly { fId: number }[] } ? N : never }[CallName];

/**
 * One page of a paged list call (a place's rooms, the devices a picker offers), asked again whenever
 * `body` changes and on `reload()`; a null `body`: nothing to ask (no permission, nothing open). An
 * answer that comes after a newer question is dropped. A refused or failed ask shows no rows, or keeps
 * the rows shown with `keep` (the shell announces what it must). `table`: the rows for the DataTable,
 * keyed by their fId, with the progress bar while asking.
 */
export function usePagedCall<N extends PagedCallName>(name: N, body: CallBody<N> | null, { keep = false }: { keep?: boolean } = {}) {
  /** A row of the call's page, as its declaration says. */
  type R = CallRow<N> & { fId: number };
  const request = useRequest();
  const [data, setData] = useState<RecordsPage<R>>(NONE);
  const [loading, setLoading] = useState(false);
  const [asked, setAsked] = useState(0);
  const question = body === null ? null : JSON.stringify(body);
  useEffect(() => {
    if (question === null) return;
    let live = true;
    setLoading(true);
    void request(name, JSON.parse(question) as CallBody<N>).then((res) => {
      if (!live) return;
      setLoading(false);
      if (res.ok && res.data) setData(res.data as RecordsPage<R>);
      else if (!keep) setData(NONE);
    });
    return () => {
      live = false;
    };
  }, [request, name, question, asked, keep]);
  const reload = useCallback(() => setAsked((n) => n + 1), []);
  return { data, loading, reload, table: { rows: data.records, rowKey: (r: R) => r.fId, loading, progressBar: true } };
}

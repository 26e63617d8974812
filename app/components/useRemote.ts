import { useCallback, useEffect, useState } from 'react';
import { call } from '../../adapters/http';

/**
 * A non-CRUD call whose answer a page shows (counters, details); `reload` asks again after an action
 * changed what it reports. The last answer stays visible while a new one is on its way.
 */
export function useRemote<T>(path: string | null, body: unknown, deps: unknown[]): { data: T | undefined; loading: boolean; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  // Loading from the start when there is something to ask: the first call does not cost a render.
  const [loading, setLoading] = useState(path !== null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!path) return;
    let alive = true;
    setLoading(true);
    call<T>(path, body)
      .then((envelope) => alive && setData(envelope.data))
      .catch(() => undefined)
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
    // The caller names what the call depends on; the body object is rebuilt on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path, tick, ...deps]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, loading, reload };
}

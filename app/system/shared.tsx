import { useCallback, useEffect, useState } from 'react';
import { request } from '../devices/tabs/timers/api';
import { readBack } from '../components/serverText';
import texts from './messages';

/** The server's refusals of user, role and menu changes in the console's language. */
export const systemRefusal = readBack(texts['zh-CN'].sys.refusals, 'sys.refusals');

/** A call's data, reloaded when the body (by value) or the version changes. */
export function useLoad<T>(path: string, body: unknown, enabled: boolean, fallback: T) {
  const [data, setData] = useState<T>(fallback);
  const [loading, setLoading] = useState(false);
  const [version, setVersion] = useState(0);
  const key = JSON.stringify(body);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    setLoading(true);
    void request<T>(path, JSON.parse(key)).then((res) => {
      if (!live) return;
      setLoading(false);
      if (res.ok && res.data !== undefined && res.data !== null) setData(res.data);
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path, key, enabled, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data, loading, reload };
}

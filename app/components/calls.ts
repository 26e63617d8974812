/**
 * The console's calls outside the CRUD lists, all through react-admin's data provider
 * (adapters/dataProvider.ts: every call by its declared name) and react-query, as the lists' useGetList:
 *
 * - `useCallQuery(name, body)`: a read a page shows (counters, details, trees), cached by name and
 *   body, its last answer kept while a new one loads, asked again by `reload()` and by react-admin's
 *   `refresh()` after a change;
 * - `useRequest()`: an action or a read on demand that never throws — a refusal comes back with the
 *   server's message (`Outcome`), an expired login, a missing permission or a server fault is announced
 *   by the shell (`announced`);
 * - `useApi()`: the data provider itself, for uploads, downloads and calls that handle their own errors.
 */
import { useCallback, useMemo } from 'react';
import { useDataProvider } from 'react-admin';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError, envelopeText, type CallOptions, type Envelope } from '../../adapters/http';
import type { CallAnswer, CallBody, CallName, LegacyDataProvider } from '../../adapters/dataProvider';

/** The name of an entity endpoint's call for a resource's config (a list variant calls its entity's). */
export const entityCall = (config: { name: string; entity?: string }, action: string): CallName => `${config.entity ?? config.name}.${action}` as CallName;

export interface Outcome<T> {
  ok: boolean;
  data?: T;
  message: string;
  /** The shell already told the user (expired login, no permission, server fault). */
  announced?: boolean;
  /** What the call rejected with (an ApiError carrying the envelope), when it failed. */
  error?: unknown;
}

/**
 * The data provider with its named calls, through react-admin (which logs out on an expired login).
 * react-admin answers `{ data: {} }` instead of a call's envelope when its failure logged the user out;
 * such a call rejects here as the expired login it was (HTTP 700, which the shell has announced).
 */
export function useApi(): LegacyDataProvider {
  const provider = useDataProvider<LegacyDataProvider>();
  return useMemo(() => {
    const enveloped = <A extends unknown[]>(method: (...args: A) => Promise<Envelope<unknown>>) => async (...args: A) => {
      const answer = await method(...args);
      if (typeof answer?.code !== 'number') throw new ApiError('expired', 700);
      return answer;
    };
    // A download answers nothing: an answer means the failure logged the user out.
    const saved = (method: LegacyDataProvider['download']) => async (...args: Parameters<LegacyDataProvider['download']>) => {
      if ((await method(...args)) !== undefined) throw new ApiError('expired', 700);
    };
    return new Proxy(provider, {
      get: (target, name) =>
        name === 'call' || name === 'upload' ? enveloped(target[name] as never) : name === 'download' ? saved(target.download) : target[name as keyof LegacyDataProvider],
    });
  }, [provider]);
}

/**
 * A call's outcome, never thrown. react-admin answers `{ data: {} }` instead of the envelope for a call
 * whose failure logged the user out (an expired login): a failure the shell has announced.
 */
export async function settle<T>(pending: Promise<Envelope<T>>): Promise<Outcome<T>> {
  try {
    const envelope = await pending;
    if (typeof envelope?.code !== 'number') return { ok: false, message: '', announced: true };
    // The server's notice in the console's language (its reason by code).
    return { ok: true, data: envelope.data, message: envelopeText(envelope) };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e), announced: e instanceof ApiError && e.status !== 200, error: e };
  }
}

/** A named call whose outcome carries the answer its declaration gives (adapters/generated/callTypes.ts). */
export type RequestCall = <N extends CallName>(name: N, body?: CallBody<N>, options?: CallOptions) => Promise<Outcome<CallAnswer<N>>>;

/** A named call on demand that never throws (an action, a lookup a click asks for). */
export function useRequest(): RequestCall {
  const api = useApi();
  return useCallback<RequestCall>((name, body, options) => settle(api.call(name, body, options)), [api]);
}

export interface CallQueryOptions {
  /** false: not asked (yet). */
  enabled?: boolean;
  /** Asked again every so many milliseconds (live figures). */
  refetchInterval?: number | false;
  /** The shell does not announce a failure (a lookup whose absence the page shows itself). */
  quiet?: boolean;
  /** GET instead of the call's first method. */
  method?: CallOptions['method'];
}

export interface CallQuery<T> {
  data: T | undefined;
  /** Asking (the first time, or again): the last answer stays in `data` meanwhile. */
  loading: boolean;
  /** Asks again (after an action changed what it reports). */
  reload: () => void;
  error: unknown;
}

/** A named read whose answer a page shows; `name` null: nothing to ask yet. */
export function useCallQuery<N extends CallName>(name: N | null, body?: CallBody<N>, options: CallQueryOptions = {}): CallQuery<CallAnswer<N>> {
  const api = useApi();
  const { enabled = true, refetchInterval = false, quiet, method } = options;
  const query = useQuery({
    queryKey: ['call', name, body ?? null],
    queryFn: async () => {
      const envelope = await api.call(name!, body, { quiet, method });
      return (envelope?.data ?? null) as CallAnswer<N>;
    },
    enabled: name !== null && enabled,
    placeholderData: keepPreviousData,
    // A refusal is an answer: asked once, as the page asked before.
    retry: false,
    refetchOnWindowFocus: false,
    refetchInterval,
  });
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  return { data: query.data ?? undefined, loading: query.isFetching, reload, error: query.error };
}

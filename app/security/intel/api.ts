/**
 * The calls of the profile and the relation graph, and their shapes. Answers stay in component state
 * only: personal data is never written to the browser's storage. Every phone and ID number arrives
 * masked; a phone is named back to the server by its `node` handle (a phone node's id), a person by user id.
 */
import { useCallback } from 'react';
import { ApiError } from '../../../adapters/http';
import type { CallAnswer, CallBody, CallName, CallRow } from '../../../adapters/dataProvider';
import { useRequest } from '../../components/calls';
import type { ReasonCode } from '../../../contract/reasons';

/** The lookups of the profile and the graph, by name (resources/calls/intel.json and the user resource). */
export const INTEL_CALLS = {
  search: 'intel.search',
  info: 'user.get',
  detail: 'user.devices',
  leases: 'intel.leases',
  locks: 'intel.locks',
  locations: 'intel.locations',
  apps: 'intel.apps',
  related: 'intel.related',
  graph: 'intel.graph',
  expand: 'intel.expand',
} satisfies Record<string, CallName>;
export const HOLOGRAM_CODE = 'hologram:sch';
/** Lock list page (spec 001 §9). */
export const LOCK_PAGE_SIZE = 50;

/** A person's profile: the phone and ID number masked. */
export type Profile = CallAnswer<typeof INTEL_CALLS.search>;
/** A lease of the person (short-term or not), with its rental house. */
export type Lease = CallAnswer<typeof INTEL_CALLS.leases>['tenant'][number];
/** An unlock of the person's, with its rental house. */
export type LockRow = CallRow<typeof INTEL_CALLS.locks>;
export type LocationRow = CallRow<typeof INTEL_CALLS.locations>;
export type AppRow = CallRow<typeof INTEL_CALLS.apps>;
/** A person related to a phone: `number` masked, `node` the number's handle for the lookups that name it. */
export type Related = CallAnswer<typeof INTEL_CALLS.related>['list'][number];
export type EdgeType = Related['tag'];
export type GraphAnswer = CallAnswer<typeof INTEL_CALLS.graph>;
export type House = GraphAnswer['houses'][number];
/** A node of the graph: `id` a phone's handle, or `u<userId>` for a person; its number masked. */
export type GraphNode = GraphAnswer['nodeList'][number];
export type GraphEdge = GraphAnswer['relationshipList'][number];
/** The person detail of the relation drawer: the profile and its phone book (numbers masked, each with its handle). */
export type PersonDetail = Extract<CallAnswer<typeof INTEL_CALLS.detail>, { phonebook: unknown }>;
/** A phone-book row of the person detail. */
export type BookEntry = PersonDetail['phonebook'][number];

/** A refusal: its words in the console's language, and its code for a page that acts on one. */
export type Result<T> = { ok: true; data: T } | { ok: false; message: string; code?: ReasonCode };

/** A lookup by name, answering what its declaration says. */
export type Ask = <N extends IntelCall>(name: N, body: CallBody<N>) => Promise<Result<CallAnswer<N>>>;
type IntelCall = (typeof INTEL_CALLS)[keyof typeof INTEL_CALLS];

/** One call through the data provider; a refusal comes back in the console's language, with its code. */
export function useAsk(): Ask {
  const request = useRequest();
  return useCallback<Ask>(async (name, body) => {
    const res = await request(name, body);
    if (res.ok) return { ok: true, data: res.data! };
    return { ok: false, message: res.message, code: res.error instanceof ApiError ? res.error.code : undefined };
  }, [request]);
}

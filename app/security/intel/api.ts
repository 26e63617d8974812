/**
 * The calls of the profile and the relation graph, and their shapes. Answers stay in component state
 * only: personal data is never written to the browser's storage. Every phone and ID number arrives
 * masked; a phone is named back to the server by its `node` handle (a phone node's id), a person by user id.
 */
import { useCallback } from 'react';
import { ApiError } from '../../../adapters/http';
import type { CallName } from '../../../adapters/dataProvider';
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

export interface Profile {
  userId: number;
  chineseName: string;
  /** Masked. */
  idcard: string | null;
  /** Masked. */
  phone: string | null;
  pic: string | null;
  workUnit: string | null;
  workAddress: string | null;
  lastloginDate: string | null;
}
export interface Lease {
  fId: number;
  fStartTime: string | null;
  fEndTime: string | null;
  fStatus: number;
  tRentalHouse: { fStreetName: string | null; fHouseName: string | null } | null;
}
export interface LockRow {
  fId: number;
  fLockTime: string;
  fLockType: number;
  tRentalHouse: { fHouseName: string | null; fAddress: string | null } | null;
}
export interface LocationRow {
  fId: number;
  fAddress: string | null;
  fCtime: string;
}
export interface AppRow {
  fId: number;
  fAppName: string | null;
  fPackage: string | null;
}
export type EdgeType = 'address' | 'tother' | 'totherHouse';
export interface Related {
  name: string;
  /** Masked. */
  number: string;
  /** The number's handle, for the lookups that name it. */
  node: string;
  userId: number | null;
  tag: EdgeType;
}
export interface House {
  houseId: number;
  areaName: string | null;
  streetName: string | null;
  houseName: string | null;
  roomNum: string | null;
}
export interface GraphNode {
  /** A phone's handle, or `u<userId>` for a person. */
  id: string;
  nodetype: 'person' | 'phone';
  /** number masked; owner: the person node of the phone's owner. */
  properties: { name: string; number: string; userId?: number; owner?: string };
}
/** A phone-book row of the person detail. */
export interface BookEntry {
  name: string;
  /** Masked. */
  number: string;
  node: string;
}
export interface GraphEdge {
  startNodeId: string;
  endNodeId: string;
  properties: { type: EdgeType };
}
export interface GraphAnswer {
  nodeList: GraphNode[];
  relationshipList: GraphEdge[];
  houses: House[];
  /** The start phone's node id. */
  center: string | null;
  truncated?: boolean;
}

/** A refusal: its words in the console's language, and its code for a page that acts on one. */
export type Result<T> = { ok: true; data: T } | { ok: false; message: string; code?: ReasonCode };

export type Ask = <T>(name: CallName, body: object) => Promise<Result<T>>;

/** One call through the data provider; a refusal comes back in the console's language, with its code. */
export function useAsk(): Ask {
  const request = useRequest();
  return useCallback<Ask>(async <T,>(name: CallName, body: object) => {
    const res = await request<T>(name, body as Record<string, unknown>);
    if (res.ok) return { ok: true, data: res.data as T };
    return { ok: false, message: res.message, code: res.error instanceof ApiError ? res.error.code : undefined };
  }, [request]);
}

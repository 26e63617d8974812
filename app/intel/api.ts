/**
 * The calls of the profile and the relation graph, and their shapes. Answers stay in component state
 * only: personal data is never written to the browser's storage. Every phone and ID number arrives
 * masked; a phone is named back to the server by its `node` handle (a phone node's id), a person by user id.
 */
import { call } from '../../adapters/http';
import { SEARCH_MESSAGES, type SearchMessage } from '../../adapters/personal';

export const INTEL_PATHS = {
  search: '/biz/hologram/search',
  info: '/system/t-sys-user/getUserInfo',
  detail: '/system/t-sys-user/getUserData',
  leases: '/biz/t-tenant-house/userLeaseRecord',
  locks: '/biz/t-lock-record/pageList',
  locations: '/biz/t-location-record/userLocationRecord',
  apps: '/biz/t-user-app/userAppList',
  related: '/biz/t-address-book/addressBookRelation',
  graph: '/biz/relation/graph',
  expand: '/biz/relation/expand',
};
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

export type Result<T> = { ok: true; data: T } | { ok: false; message: string; key?: SearchMessage };

const KEY_OF = Object.fromEntries(Object.entries(SEARCH_MESSAGES).map(([k, v]) => [v, k as SearchMessage]));

/** One call; a refusal comes back with the server's message and, for the search's messages, its i18n key. */
export async function ask<T>(path: string, body: object): Promise<Result<T>> {
  try {
    const res = await call<T>(path, body, { raw: true });
    if (res.code === 200 && res.success) return { ok: true, data: res.data };
    return { ok: false, message: res.message, key: KEY_OF[res.message] };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Person intelligence (spec 001 §2.12, §2.13): the holographic profile of one person — basic data,
 * installed apps, location trail, leases, unlock records, related people — and the call-relation graph
 * of phone books, co-residents (same room, overlapping leases) and housemates (same house, another
 * room, overlapping leases). Every call needs hologram:sch, and every lookup leaves an operation-log
 * entry naming who looked up whom, with the phone and ID number masked.
 *
 * No answer carries a full phone or ID number: numbers leave masked, and a phone the console must name
 * again (to expand a node, open a drawer) leaves as a sealed handle only this server opens.
 */
import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { refuse, wordsOf } from '../http/envelope';
import { registerCall } from '../http/route';
import type { DeclaredCallName } from '../../contract/generated/calls';
import type { RouteContext } from '../http/context';
import { S } from '../http/catalog';
import { formatRow } from '../crud/format';
import { declareLogName, record, type LogName } from '../oplog';
import { isAdmin, type Query, type Services, type User } from '../crud/types';
import { scopeQuery } from '../crud/scope';
import { entity, pageAnswer, pageOf } from '../crud/engine';
import { pageAt } from '../crud/query';
import type { DB } from '../db';
import { IDCARD, MOBILE, maskIdcard, maskNumbersIn, maskPhone, readSearch, type SearchMessage } from '../../contract/personal';

/** Why the search input was refused (contract/personal.ts readSearch), by code. */
const SEARCH_REFUSALS = { empty: 'intel.searchEmpty', phone: 'intel.phoneInvalid', length: 'intel.termInvalid', idcard: 'intel.idcardInvalid' } as const satisfies Record<SearchMessage, string>;

/** Relation types (enums.json relationType) and the edge type each one draws. */
export const RELATION_TYPES = { 1: 'address', 2: 'tother', 3: 'totherHouse' } as const;
type EdgeType = (typeof RELATION_TYPES)[keyof typeof RELATION_TYPES];

/** A graph answer stops growing here, so a deep query cannot exhaust the server or the browser. */
export const MAX_NODES = 12000;
const MAX_DEPTH = 100;

type Body = Record<string, unknown>;
interface Call {
  user: User | null;
  body: Body;
  request: FastifyRequest;
}

// ---------------------------------------------------------------------------------------------------
// Phone handles: how the console names a phone it is never sent

/** What a handle starts with, so a handle and a typed phone are never confused. */
const HANDLE_PREFIX = 'p.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface PhoneHandles {
  seal(phone: string): string;
  /** The phone a handle seals, or null for anything this server did not seal. */
  open(handle: string): string | null;
}

/**
 * Phones sealed with AES-256-GCM under keys derived from the token secret (Tokens.deriveKey: HKDF, so the
 * signing key is used for nothing else; replicas sharing TOKEN_SECRET open each other's handles).
 *
 * The IV is not random but the HMAC of the phone under a key of its own (SIV-style): the same phone
 * always seals to the same handle, so the edges of a graph, an expansion merged into it later and a
 * drawer's lookups all name one node by one id. A GCM IV must never repeat for two different plaintexts
 * (the keystream and the authentication key would leak); a synthetic IV repeats only for the same phone,
 * which gives the same handle and reveals only that it is the same phone, which is the handle's purpose.
 * Opening checks the GCM tag (a forged or altered handle fails) and that the IV is the phone's own.
 */
export function phoneHandles(encryptionKey: Buffer, ivKey: Buffer): PhoneHandles {
  const ivOf = (phone: string) => createHmac('sha256', ivKey).update(phone, 'utf8').digest().subarray(0, IV_BYTES);
  return {
    seal(phone) {
      const iv = ivOf(phone);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const sealed = Buffer.concat([iv, cipher.update(phone, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return HANDLE_PREFIX + sealed.toString('base64url');
    },
    open(handle) {
      if (!handle.startsWith(HANDLE_PREFIX)) return null;
      const raw = Buffer.from(handle.slice(HANDLE_PREFIX.length), 'base64url');
      if (raw.length <= IV_BYTES + TAG_BYTES) return null;
      const iv = raw.subarray(0, IV_BYTES);
      try {
        const decipher = createDecipheriv('aes-256-gcm', encryptionKey, iv);
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        const phone = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
        return timingSafeEqual(iv, ivOf(phone)) ? phone : null;
      } catch {
        return null;
      }
    },
  };
}

/**
 * Each server's handles, for the profile lookups the user resource's calls hand over (server/administration/users.ts),
 * which reach this module with their request rather than the route context.
 */
const handlesOfServer = new WeakMap<object, PhoneHandles>();

function handlesOf(call: Call): PhoneHandles {
  const handles = handlesOfServer.get(call.request.server);
  if (!handles) throw new Error('phone handles used before registerIntelRoutes');
  return handles;
}

// ---------------------------------------------------------------------------------------------------
// Who is looked up, and the log line it leaves

interface Subject {
  userId?: number;
  phone?: string;
  idcard?: string;
}

/** The log's record of a lookup: the subject masked, never the plain phone or ID number (a handle's phone included). */
function maskedSubject(s: Subject, extra: Body = {}): Body {
  return {
    ...(s.userId ? { userId: s.userId } : {}),
    ...(s.phone ? { phone: maskPhone(s.phone) } : {}),
    ...(s.idcard ? { idcard: maskIdcard(s.idcard) } : {}),
    ...extra,
  };
}

/** The operation log's names of the lookups, in three languages (who looked up whom is always logged). */
const LOG_NAMES: Record<string, LogName> = {
  'intel.profile': { key: 'intel.profile', ...wordsOf('intel.lookup.profile') },
  'intel.person': { key: 'intel.person', ...wordsOf('intel.lookup.person') },
  'intel.search': { key: 'intel.search', ...wordsOf('intel.lookup.search') },
  'intel.leases': { key: 'intel.leases', ...wordsOf('intel.lookup.leases') },
  'intel.locks': { key: 'intel.locks', ...wordsOf('intel.lookup.locks') },
  'intel.locations': { key: 'intel.locations', ...wordsOf('intel.lookup.locations') },
  'intel.apps': { key: 'intel.apps', ...wordsOf('intel.lookup.apps') },
  'intel.related': { key: 'intel.related', ...wordsOf('intel.lookup.related') },
  'intel.graph': { key: 'intel.graph', ...wordsOf('intel.lookup.graph') },
  'intel.expand': { key: 'intel.expand', ...wordsOf('intel.lookup.expand') },
};
for (const name of Object.values(LOG_NAMES)) declareLogName(name.key, name);

/** Runs a lookup and writes its log entry (success or refusal) with a readable log type. */
async function logged<T>(ctx: Services, call: Call, key: string, subject: () => Subject, run: () => Promise<T>, extra: Body = {}): Promise<T> {
  const logname = LOG_NAMES[key].key;
  try {
    const out = await run();
    await record(ctx.db, { request: call.request, user: call.user, logname, body: maskedSubject(subject(), extra), succeed: true });
    return out;
  } catch (error) {
    await record(ctx.db, { request: call.request, user: call.user, logname, body: maskedSubject(subject(), extra), succeed: false, error }).catch(() => undefined);
    throw error;
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

function userIdOf(body: Body, ...keys: string[]): number | undefined {
  for (const k of keys) {
    const v = body[k];
    if (v === undefined || v === null || v === '') continue;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw refuse('intel.badRequest');
    return n;
  }
  return undefined;
}

function requireUserId(body: Body, ...keys: string[]): number {
  const id = userIdOf(body, ...keys);
  if (!id) throw refuse('intel.personRequired');
  return id;
}

/**
 * The phone a request's `node` handle seals, or undefined without one. A handle that does not open is
 * refused as a wrong phone; a request naming a phone both ways is refused, so what is checked is what is
 * looked up.
 */
function openedNode(body: Body, handles: PhoneHandles): string | undefined {
  const node = str(body.node);
  if (!node) return undefined;
  if (str(body.phone)) throw refuse('intel.badRequest');
  const phone = handles.open(node);
  if (phone === null) throw refuse('intel.phoneInvalid');
  return phone;
}

/** A user id, a phone (typed, or a node's handle) and/or ID number of a request, checked with the search's rules and messages. */
function subjectOf(body: Body, handles: PhoneHandles): Subject {
  const out: Subject = { userId: userIdOf(body, 'userId', 'fUserId') };
  const node = openedNode(body, handles);
  const phone = str(body.phone);
  const idcard = str(body.idcard);
  if (node !== undefined) out.phone = node;
  else if (phone) {
    if (!MOBILE.test(phone)) throw refuse('intel.phoneInvalid');
    out.phone = phone;
  }
  if (idcard) {
    const read = readSearch(idcard);
    if ('error' in read) throw refuse(SEARCH_REFUSALS[read.error]);
    if (!('idcard' in read) || !IDCARD.test(read.idcard)) throw refuse('intel.idcardInvalid');
    out.idcard = read.idcard;
  }
  return out;
}

/** The search input: one `keyword`, or phone / idcard as the console sends them. */
function searchTerm(body: Body): Subject {
  const value = str(body.keyword) || str(body.phone) || str(body.idcard);
  const read = readSearch(value);
  if ('error' in read) throw refuse(SEARCH_REFUSALS[read.error]);
  return 'phone' in read ? { phone: read.phone } : { idcard: read.idcard };
}

/** Where a graph starts: a node's handle, a person (the profile's link), or the search input. */
function graphTerm(body: Body, handles: PhoneHandles): Subject {
  const node = openedNode(body, handles);
  if (node !== undefined) return { phone: node };
  const userId = userIdOf(body, 'userId');
  if (userId && !str(body.keyword) && !str(body.phone) && !str(body.idcard)) return { userId };
  return searchTerm(body);
}

// ---------------------------------------------------------------------------------------------------
// The profile

const PROFILE_COLUMNS = ['fId', 'fChineseName', 'fIdcard', 'fPhone', 'fPic', 'fGender', 'fWorkUnit', 'fWorkAddress', 'fLastloginDate'] as const;

/**
 * The person a lookup names, among those the caller may look up: the user entity's declared scope
 * (resources/user.resource.json: people renting in the caller's jurisdiction; administrators anyone).
 */
async function findPerson(db: DB, s: Subject, caller: User | null) {
  if (!s.userId && !s.phone && !s.idcard) throw refuse('intel.searchEmpty');
  const all = db.selectFrom('t_sys_user').select([...PROFILE_COLUMNS]);
  let q = (caller ? scopeQuery(all as unknown as Query, entity('user'), caller, {}) : all.where(sql<boolean>`false`)) as unknown as typeof all;
  if (s.userId) q = q.where('fId', '=', s.userId);
  if (s.phone) q = q.where('fPhone', '=', s.phone);
  if (s.idcard) q = q.where(sql`upper(f_idcard)`, '=', s.idcard.toUpperCase());
  return q.orderBy('fId').limit(1).executeTakeFirst();
}

/** The legacy profile shape (spec 001 §3): chineseName, idcard, phone, pic, workUnit, workAddress, lastloginDate. */
const text = S.string();
/** What the profile answers of a person (profileOf); the person detail adds the phone book. */
export const PROFILE = S.object({
  fId: { type: 'integer' }, userId: { type: 'integer' }, chineseName: text, idcard: text, phone: text, pic: text,
  gender: text, workUnit: text, workAddress: text, lastloginDate: text,
});

/**
 * The profile's phone and ID number leave the server masked (spec 001 §2.12); the console names the
 * person by user id from here on.
 */
function profileOf(row: Record<string, unknown>, timeZone: string) {
  const r = formatRow(row, timeZone);
  return {
    fId: r.fId, userId: r.fId, chineseName: r.fChineseName, idcard: r.fIdcard ? maskIdcard(r.fIdcard) : null, phone: r.fPhone ? maskPhone(r.fPhone) : null, pic: r.fPic ?? null,
    gender: r.fGender ?? null, workUnit: r.fWorkUnit ?? null, workAddress: r.fWorkAddress ?? null, lastloginDate: r.fLastloginDate ?? null,
  };
}

async function profile(ctx: Services, s: Subject, caller: User | null) {
  const row = await findPerson(ctx.db, s, caller);
  if (!row) throw refuse('intel.noInformation');
  return profileOf(row, ctx.timeZone);
}

/** getUserInfo for the profile: the person by user id and/or phone (or its handle) or ID number. */
export function profileInfo(ctx: Services, call: Call) {
  let s: Subject = {};
  return logged(ctx, call, 'intel.profile', () => s, async () => {
    s = subjectOf(call.body, handlesOf(call));
    const p = await profile(ctx, s, call.user);
    s = { ...s, userId: Number(p.fId) };
    return p;
  });
}

/** getUserData for the relation drawer: the person detail and their phone book, each number masked and sealed. */
export function personDetail(ctx: Services, call: Call) {
  let s: Subject = {};
  return logged(ctx, call, 'intel.person', () => s, async () => {
    const handles = handlesOf(call);
    s = subjectOf(call.body, handles);
    const p = await profile(ctx, s, call.user);
    s = { ...s, userId: Number(p.fId) };
    const book = await ctx.db.selectFrom('t_address_book').select(['fName as name', 'fNumber as number']).where('fUserId', '=', p.fId).orderBy('fId').execute();
    const phonebook = book.map((b) => ({ name: maskNumbersIn(b.name), number: maskPhone(b.number), node: handles.seal(b.number) }));
    return { ...p, phonebook };
  });
}

// ---------------------------------------------------------------------------------------------------
// The relation graph

interface GraphNode {
  id: string;
  nodetype: 'person' | 'phone';
  properties: { name: string; number: string; userId?: number; owner?: string };
}
interface GraphEdge {
  startNodeId: string;
  endNodeId: string;
  properties: { type: EdgeType };
}
interface GraphHouse {
  houseId: number;
  areaName: string | null;
  streetName: string | null;
  houseName: string | null;
  roomNum: string | null;
}
export interface RelationGraph {
  nodeList: GraphNode[];
  relationshipList: GraphEdge[];
  houses: GraphHouse[];
  /** The phone the query started from (its node id). */
  center: string | null;
  truncated: boolean;
}

/**
 * A graph as it leaves the server: phone nodes named by their handles, every number masked (names that
 * are numbers too). buildGraph keeps plain phones, which its joins and relatedPeople read.
 */
export function sealGraph(g: RelationGraph, handles: PhoneHandles): RelationGraph {
  const ids = new Map<string, string>();
  const nodeList = g.nodeList.map((n) => {
    const id = n.nodetype === 'phone' ? handles.seal(n.id) : n.id;
    ids.set(n.id, id);
    return { ...n, id, properties: { ...n.properties, name: maskNumbersIn(n.properties.name), number: maskPhone(n.properties.number) } };
  });
  const idOf = (raw: string) => ids.get(raw) ?? handles.seal(raw);
  return {
    ...g,
    nodeList,
    relationshipList: g.relationshipList.map((e) => ({ ...e, startNodeId: idOf(e.startNodeId), endNodeId: idOf(e.endNodeId) })),
    center: g.center === null ? null : idOf(g.center),
  };
}

interface HouseLease {
  fUserId: number;
  fHouseId: number;
  fRoomId: number | null;
  fStartTime: unknown;
  fEndTime: unknown;
  fPhone: string;
  fChineseName: string;
}

const personId = (userId: number) => `u${userId}`;

/**
 * `column = any(array)`: the whole list as one array parameter, so a hop of thousands of phones is one
 * statement that keeps the column's index, instead of thousands of parameters in chunks.
 */
const anyOf = (column: string, values: readonly (string | number)[], type: 'int' | 'text') => sql<boolean>`${sql.ref(column)} = any(${values}::${sql.raw(type)}[])`;

function relationTypes(value: unknown): Set<EdgeType> {
  const list = Array.isArray(value) ? value : typeof value === 'string' && value ? value.split(',') : [];
  const types = new Set<EdgeType>();
  for (const v of list) {
    const t = RELATION_TYPES[Number(v) as keyof typeof RELATION_TYPES];
    if (t) types.add(t);
  }
  if (!types.size) throw refuse('intel.relationsRequired');
  return types;
}

const overlaps = (a: { fStartTime: unknown; fEndTime: unknown }, b: { fStartTime: unknown; fEndTime: unknown }) => {
  const t = (v: unknown, open: number) => (v ? new Date(v as string).getTime() : open);
  return t(a.fStartTime, -Infinity) <= t(b.fEndTime, Infinity) && t(b.fStartTime, -Infinity) <= t(a.fEndTime, Infinity);
};

/**
 * Grows the graph breadth-first from the start phones: each hop adds the phone books that hold or are
 * held by the frontier's phones, and the frontier owners' co-residents and housemates.
 */
export async function buildGraph(db: DB, start: string[], types: Set<EdgeType>, depth = 1): Promise<RelationGraph> {
  const nodes = new Map<string, GraphNode>();
  const edges = new Map<string, GraphEdge>();
  const houses = new Map<string, GraphHouse>();
  const owners = new Map<string, { fId: number; fChineseName: string }>();
  let truncated = false;

  const phoneNode = (phone: string, name: string) => {
    const n = nodes.get(phone);
    if (n) return n;
    const created: GraphNode = { id: phone, nodetype: 'phone', properties: { name, number: phone } };
    nodes.set(phone, created);
    return created;
  };
  const edge = (a: string, b: string, type: EdgeType) => {
    // One edge per pair and type, whichever side's book holds the other.
    const key = type === 'address' ? `${type}:${a}>${b}` : `${type}:${[a, b].sort().join('|')}`;
    if (!edges.has(key) && a !== b) edges.set(key, { startNodeId: a, endNodeId: b, properties: { type } });
  };
  /** Loads the owners of phones (platform users) and adds their person nodes. */
  const loadOwners = async (phones: string[]) => {
    const missing = phones.filter((p) => !owners.has(p));
    if (missing.length) {
      const rows = await db.selectFrom('t_sys_user').select(['fId', 'fPhone', 'fChineseName']).where(anyOf('fPhone', missing, 'text')).execute();
      for (const r of rows) {
        owners.set(r.fPhone, r);
        const phone = phoneNode(r.fPhone, r.fChineseName);
        phone.properties.name = r.fChineseName;
        phone.properties.userId = r.fId;
        phone.properties.owner = personId(r.fId);
        nodes.set(personId(r.fId), { id: personId(r.fId), nodetype: 'person', properties: { name: r.fChineseName, number: r.fPhone, userId: r.fId } });
      }
    }
  };

  let frontier = [...new Set(start)];
  const visited = new Set<string>();
  const leasesByHouse = new Map<number, HouseLease[]>();
  /** Owners whose phone books are in the graph already. */
  const keptBooks = new Set<number>();
  for (let hop = 0; hop < depth && frontier.length; hop++) {
    frontier.forEach((p) => visited.add(p));
    for (const p of frontier) phoneNode(p, p);
    await loadOwners(frontier);
    const found = new Set<string>();

    if (types.has('address')) {
      // The books the frontier's owners keep, and the books that hold a frontier phone: two indexed
      // lookups (an OR across the join would scan every book once per hop). A book whose keeper was
      // reached already came with the keeper's hop: fetching it again doubles the rows of a deep query.
      const books = () => db.selectFrom('t_address_book as b').innerJoin('t_sys_user as u', 'u.fId', 'b.fUserId').select(['b.fName', 'b.fNumber', 'u.fPhone', 'u.fChineseName', 'u.fId']);
      const keepers = frontier.map((p) => owners.get(p)?.fId).filter((id): id is number => id !== undefined);
      keepers.forEach((id) => keptBooks.add(id));
      const kept = keepers.length ? await books().where(anyOf('b.fUserId', keepers, 'int')).execute() : [];
      const holding = await books().where(anyOf('b.fNumber', frontier, 'text')).where(sql<boolean>`${sql.ref('b.fUserId')} <> all(${[...keptBooks]}::int[])`).execute();
      for (const rows of [kept, holding]) {
        for (const r of rows) {
          phoneNode(r.fPhone, r.fChineseName);
          phoneNode(r.fNumber, r.fName || r.fNumber);
          edge(r.fPhone, r.fNumber, 'address');
          found.add(r.fPhone).add(r.fNumber);
        }
      }
    }

    const lessees = frontier.map((p) => owners.get(p)).filter((o): o is { fId: number; fChineseName: string } => !!o);
    if ((types.has('tother') || types.has('totherHouse')) && lessees.length) {
      const own = await db.selectFrom('t_tenant_house').select(['fUserId', 'fHouseId', 'fRoomId', 'fStartTime', 'fEndTime']).where(anyOf('fUserId', lessees.map((o) => o.fId), 'int')).execute();
      // Each house's leases are fetched once per graph, however many hops reach the house.
      const newHouses = [...new Set(own.map((l) => l.fHouseId))].filter((h) => !leasesByHouse.has(h));
      if (newHouses.length) {
        const others = await db
          .selectFrom('t_tenant_house as t')
          .innerJoin('t_sys_user as u', 'u.fId', 't.fUserId')
          .select(['t.fUserId', 't.fHouseId', 't.fRoomId', 't.fStartTime', 't.fEndTime', 'u.fPhone', 'u.fChineseName'])
          .where(anyOf('t.fHouseId', newHouses, 'int'))
          .execute();
        for (const h of newHouses) leasesByHouse.set(h, []);
        for (const o of others) leasesByHouse.get(o.fHouseId)!.push(o);
      }
      for (const mine of own) {
        for (const o of leasesByHouse.get(mine.fHouseId) ?? []) {
          if (o.fUserId === mine.fUserId || !overlaps(mine, o)) continue;
          const type: EdgeType = o.fRoomId === mine.fRoomId ? 'tother' : 'totherHouse';
          if (!types.has(type)) continue;
          if (!owners.has(o.fPhone)) {
            owners.set(o.fPhone, { fId: o.fUserId, fChineseName: o.fChineseName });
            const phone = phoneNode(o.fPhone, o.fChineseName);
            Object.assign(phone.properties, { name: o.fChineseName, userId: o.fUserId, owner: personId(o.fUserId) });
            nodes.set(personId(o.fUserId), { id: personId(o.fUserId), nodetype: 'person', properties: { name: o.fChineseName, number: o.fPhone, userId: o.fUserId } });
          }
          edge(personId(mine.fUserId), personId(o.fUserId), type);
          found.add(o.fPhone);
        }
      }
    }
    if (nodes.size >= MAX_NODES) {
      truncated = hop + 1 < depth;
      break;
    }
    frontier = [...found].filter((p) => !visited.has(p));
  }
  await loadOwners([...nodes.values()].filter((n) => n.nodetype === 'phone').map((n) => n.id));

  // The houses the start phones' owners rent or rented.
  const startOwners = start.map((p) => owners.get(p)).filter((o): o is { fId: number; fChineseName: string } => !!o);
  if (startOwners.length) {
    const rows = await db
      .selectFrom('t_tenant_house as t')
      .innerJoin('t_house_info as h', 'h.fHouseId', 't.fHouseId')
      .leftJoin('t_rental_room as r', 'r.fId', 't.fRoomId')
      .leftJoin('t_area_info as a', 'a.fAreaId', 'h.fAreaId')
      .select(['h.fHouseId', 'a.fAreaName', 'h.fStreetName', 'h.fHouseName', 'r.fRoom'])
      .where('t.fUserId', 'in', startOwners.map((o) => o.fId))
      .orderBy('t.fStartTime', 'desc')
      .execute();
    for (const r of rows) {
      const key = `${r.fHouseId}:${r.fRoom ?? ''}`;
      if (!houses.has(key)) houses.set(key, { houseId: r.fHouseId, areaName: r.fAreaName ?? null, streetName: r.fStreetName ?? null, houseName: r.fHouseName ?? null, roomNum: r.fRoom ?? null });
    }
  }
  return { nodeList: [...nodes.values()], relationshipList: [...edges.values()], houses: [...houses.values()], center: start[0] ?? null, truncated };
}

/** The phone a graph starts from: the one given, or the phone of the person with that ID number or user id. */
async function startPhone(db: DB, s: Subject, caller: User | null): Promise<string> {
  if (s.phone) return s.phone;
  const row = await findPerson(db, s, caller);
  if (!row) throw refuse('intel.noInformation');
  return row.fPhone;
}

type Direction = 'out' | 'in' | 'both';

/**
 * The people related to one phone, tagged as the profile's related-people panel and the drawer list them:
 * each person once per tag. A phone book entry has a direction (my book holds them, theirs holds me);
 * two people in each other's books are one related person, `both`, not two rows.
 */
async function relatedPeople(db: DB, phone: string, handles: PhoneHandles) {
  const g = await buildGraph(db, [phone], new Set<EdgeType>(['address', 'tother', 'totherHouse']), 1);
  const byId = new Map(g.nodeList.map((n) => [n.id, n]));
  const self = byId.get(phone)?.properties.owner;
  // Keyed by the plain graph's ids; the numbers are masked and sealed on the way out.
  const found = new Map<string, { name: string; number: string; userId: number | null; tag: EdgeType; direction?: Direction }>();
  for (const e of g.relationshipList) {
    const mine = e.properties.type === 'address' ? phone : self;
    if (!mine || (e.startNodeId !== mine && e.endNodeId !== mine)) continue;
    const otherId = e.startNodeId === mine ? e.endNodeId : e.startNodeId;
    const other = byId.get(otherId);
    if (!other) continue;
    const key = `${e.properties.type}:${otherId}`;
    const direction: Direction | undefined = e.properties.type === 'address' ? (e.startNodeId === mine ? 'out' : 'in') : undefined;
    const seen = found.get(key);
    if (seen) {
      if (seen.direction && direction && seen.direction !== direction) seen.direction = 'both';
      continue;
    }
    found.set(key, { name: other.properties.name, number: other.properties.number, userId: other.properties.userId ?? null, tag: e.properties.type, ...(direction ? { direction } : {}) });
  }
  // A person's number and a phone node's id are both the plain phone.
  const list = [...found.values()].map((r) => ({ ...r, name: maskNumbersIn(r.name), number: maskPhone(r.number), node: handles.seal(r.number) }));
  return { list, houses: g.houses };
}

export function registerIntelRoutes(app: FastifyInstance, ctx: RouteContext) {
  const tz = ctx.timeZone;
  const handles = phoneHandles(ctx.tokens.deriveKey('intel/phone-handle/aes-256-gcm'), ctx.tokens.deriveKey('intel/phone-handle/iv'));
  handlesOfServer.set(app, handles);
  const lookup = (name: DeclaredCallName, logname: string, subject: (body: Body) => Subject, run: (body: Body, s: Subject, caller: User | null) => Promise<unknown>) =>
    registerCall(app, ctx, {
      call: name,
      handler: async (call) => {
        let s: Subject = {};
        return logged(ctx, call, logname, () => s, async () => {
          s = subject(call.body);
          // Whoever a lookup names must be someone the caller may look up (an administrator anyone,
          // whether or not the phone is a user's).
          if (!call.user || !isAdmin(call.user)) {
            if (!(await findPerson(ctx.db, s, call.user))) throw refuse('intel.noInformation');
          }
          return run(call.body, s, call.user);
        });
      },
    });

  // The holographic search: one phone or ID number; answers the profile to open.
  lookup('intel.search', 'intel.search', searchTerm, async (_body, s, caller) => profile(ctx, s, caller));

  lookup('intel.leases', 'intel.leases', (b) => ({ userId: requireUserId(b, 'fUserId', 'userId', 'id') }), async (_b, s) => {
    const rows = await ctx.db
      .selectFrom('t_tenant_house as t')
      .leftJoin('t_house_info as h', 'h.fHouseId', 't.fHouseId')
      .leftJoin('t_rental_room as r', 'r.fId', 't.fRoomId')
      .select(['t.fId', 't.fHouseId', 't.fRoomId', 't.fShortTerm', 't.fStartTime', 't.fEndTime', 't.fStatus', 'h.fHouseName', 'h.fStreetName', 'h.fAddress', 'r.fRoom'])
      .where('t.fUserId', '=', s.userId!)
      .orderBy('t.fStartTime', 'desc')
      .execute();
    const shaped = rows.map((row) => {
      const r = formatRow(row, tz);
      return {
        fId: r.fId, fHouseId: r.fHouseId, fRoomId: r.fRoomId, fShortTerm: r.fShortTerm, fStartTime: r.fStartTime, fEndTime: r.fEndTime, fStatus: r.fStatus,
        tRentalHouse: { fHouseName: r.fHouseName, fStreetName: r.fStreetName, fAddress: r.fAddress },
        tRentalRoom: r.fRoom ? { fRoom: r.fRoom } : null,
      };
    });
    return { shortTenant: shaped.filter((l) => l.fShortTerm === 1), tenant: shaped.filter((l) => l.fShortTerm !== 1) };
  });

  lookup('intel.locks', 'intel.locks', (b) => ({ userId: requireUserId((b.condition ?? b) as Body, 'fUserId', 'userId') }), async (body, s) => {
    const c = (body.condition ?? {}) as Body;
    let q = ctx.db.selectFrom('t_lock_record as l').where('l.fUserId', '=', s.userId!);
    const since = str(c.startTime);
    if (since) {
      if (!/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/.test(since)) throw refuse('intel.startTimeInvalid');
      q = q.where('l.fLockTime', '>=', sql<Date>`(${since}::timestamp at time zone ${tz}::text)`);
    }
    const query = q
      .leftJoin('t_house_info as h', 'h.fHouseId', 'l.fHouseId')
      .select(['l.fId', 'l.fUserId', 'l.fHouseId', 'l.fLockTime', 'l.fLockType', 'h.fHouseName', 'h.fStreetName', 'h.fAddress']);
    const p = await pageOf(ctx, query as Query, pageAt(body, 50, 500), [{ column: 'l.fLockTime', asc: false }]);
    const records = p.rows.map((row) => {
      const r = formatRow(row, tz);
      return { fId: r.fId, fUserId: r.fUserId, fHouseId: r.fHouseId, fLockTime: r.fLockTime, fLockType: r.fLockType, tRentalHouse: r.fHouseId ? { fHouseName: r.fHouseName, fStreetName: r.fStreetName, fAddress: r.fAddress } : null };
    });
    return pageAnswer(p, records);
  });

  lookup('intel.locations', 'intel.locations', (b) => ({ userId: requireUserId(b, 'fUserId', 'userId', 'id') }), async (_b, s) => {
    const rows = await ctx.db
      .selectFrom('t_location_record')
      .select(['fId', 'fAddress', 'fLongitude', 'fLatitude', 'fCtime'])
      .where('fUserId', '=', s.userId!)
      .orderBy('fCtime', 'desc')
      .limit(100)
      .execute();
    return rows.map((r) => formatRow(r, tz));
  });

  lookup('intel.apps', 'intel.apps', (b) => ({ userId: requireUserId(b, 'id', 'fUserId', 'userId') }), async (_b, s) =>
    ctx.db.selectFrom('t_user_app').select(['fId', 'fAppName', 'fPackage']).where('fUserId', '=', s.userId!).orderBy('fId').execute(),
  );

  // The people related to a phone (typed or a node's handle) or to a person (the profile, by user id).
  lookup('intel.related', 'intel.related', (b) => {
    const s = subjectOf(b, handles);
    if (!s.phone && !s.userId) throw refuse('intel.searchEmpty');
    return s;
  }, async (_b, s, caller) => relatedPeople(ctx.db, await startPhone(ctx.db, s, caller), handles));

  // The call-relation graph: {phone | idcard | node | userId, relations: [1,2,3], depth?}.
  lookup('intel.graph', 'intel.graph', (b) => graphTerm(b, handles), async (body, s, caller) => {
    const types = relationTypes(body.relations);
    const depth = Math.min(Math.max(Math.trunc(Number(body.depth)) || 1, 1), MAX_DEPTH);
    return sealGraph(await buildGraph(ctx.db, [await startPhone(ctx.db, s, caller)], types, depth), handles);
  });

  // One phone node's neighbours, for the console to merge into the graph it shows: by the node's handle
  // (any number a phone book holds), or a typed phone.
  lookup('intel.expand', 'intel.expand', (b) => {
    const node = openedNode(b, handles);
    if (node !== undefined) return { phone: node };
    const phone = str(b.phone);
    if (!phone) throw refuse('intel.searchEmpty');
    if (!MOBILE.test(phone) && !/^\d{3,20}$/.test(phone)) throw refuse('intel.phoneInvalid');
    return { phone };
  }, async (body, s) => sealGraph(await buildGraph(ctx.db, [s.phone!], relationTypes(body.relations ?? [1, 2, 3]), 1), handles));
}

/**
 * react-admin data provider for the legacy contract (docs/api.md), the one way the console reaches the
 * server: the CRUD methods by resource (the entity name; its paths come from the generated endpoint
 * map; rows keep their legacy field names and get an `id` copied from `fId`, which react-admin needs),
 * and every other call by its declared name (`call`, `upload`, `download`, `submitForm`; names, paths
 * and types generated from resources/: contract/generated/calls.ts, generated/callTypes.ts). Pages reach
 * it through react-admin's `useDataProvider` and react-query (app/components/calls.ts).
 */
import { HttpError } from 'ra-core';
import type { DataProvider, Identifier, RaRecord } from 'ra-core';
import { ApiError, call } from './http';
import type { CallOptions, Envelope } from './http';
import { endpoints as generatedEndpoints } from './generated/endpoints';
import { calls, type CallName } from '../contract/generated/calls';
import type { CallTypes } from './generated/callTypes';
import { download, postForm, upload, type UploadOptions } from './transfer';

export type { CallName, UploadOptions };
export type CallBody<N extends CallName> = CallTypes[N]['body'];
/** What a call answers (the envelope's `data`), as its declaration says: the one type its callers read. */
export type CallAnswer<N extends CallName> = CallTypes[N]['answer'];
/** The rows in an answer: an item of a list, or of a page's `records`. */
export type RowOf<A> = A extends readonly (infer R)[] ? R : A extends { records?: readonly (infer R)[] | null } ? R : never;
/** A row of a call answering rows (a list, or a page of `records`). */
export type CallRow<N extends CallName> = RowOf<CallAnswer<N>>;
/**
 * A node of a tree: the node a declaration describes, with the nodes under it of the same kind all the
 * way down (a declaration describes the first level of `children`).
 */
export type TreeNodeOf<R> = Omit<R, 'children'> & { children?: TreeNodeOf<R>[] };
/** A node of the tree a call answers (a list of its top nodes). */
export type CallTreeNode<N extends CallName> = TreeNodeOf<CallRow<N>>;

/**
 * The address of a call, its `{name}` segments filled and the query appended: for what the browser
 * opens itself (a picture, a package, the event stream, a link to a public template).
 */
export function callUrl(name: CallName, params: Record<string, string | number> = {}, query: Record<string, string | number | undefined> = {}): string {
  const path = calls[name].path.replace(/\{([^}]+)\}/g, (_m, key: string) => encodeURIComponent(String(params[key] ?? '')));
  const search = Object.entries(query).filter(([, v]) => v !== undefined && v !== '');
  return search.length ? `${path}?${search.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&')}` : path;
}

/**
 * The failures of named calls the shell has announced already (an expired login, a missing permission, a
 * server fault told to its listeners, adapters/http.ts): the shell also takes an expired login to the
 * login page, so react-admin's own check of errors leaves them alone (authProvider.checkError) and the
 * page that made the call hears of the failure at once.
 */
const announced = new WeakSet<object>();
export const wasAnnounced = (error: unknown): boolean => typeof error === 'object' && error !== null && announced.has(error);

async function announcing<T>(pending: Promise<T>, quiet?: boolean): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (!quiet && error instanceof ApiError && error.status !== 200) announced.add(error);
    throw error;
  }
}

/** A GET call sends its body as the query. */
function getQuery(body: unknown): Record<string, string | number | undefined> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  return Object.fromEntries(Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, v === undefined || v === null ? undefined : typeof v === 'number' ? v : String(v)]));
}

const endpoints = generatedEndpoints as Record<string, Record<string, string>>;

/** Page size used when a lookup has to scan a list because the resource offers no `get` or `all`. */
const SCAN_SIZE = 1000;

export interface Page<T = Record<string, unknown>> {
  records: T[];
  total: number;
}

export interface LegacyDataProvider extends DataProvider {
  /**
   * A call by its declared name (an entity's `<entity>.<action>` or a call of resources/calls/): answers
   * the envelope, rejects with the ApiError of adapters/http.ts (the shell announces an expired login, a
   * missing permission and a server fault unless `quiet`). A GET sends the body as the query.
   */
  call<N extends CallName>(name: N, body?: CallBody<N>, options?: CallOptions): Promise<Envelope<CallAnswer<N>>>;
  /** A file to an upload call by name (multipart, with its progress; `query` beside the form); answers the envelope. */
  upload<N extends CallName>(name: N, file: File, options?: UploadOptions & { query?: Record<string, string | number> }): Promise<Envelope<CallAnswer<N>>>;
  /** Saves the file a call answers (under the server's name, else `fileName`); a refusal rejects with ApiError. */
  download(name: CallName, body: unknown, fileName: string): Promise<void>;
  /** A browser form post of a call (the legacy export), its answer saved as a download. */
  submitForm(name: CallName, fields: Record<string, string>): Promise<void>;
}

function endpoint(resource: string, action: string): string | undefined {
  return endpoints[resource]?.[action];
}

function requireEndpoint(resource: string, action: string): string {
  const path = endpoint(resource, action);
  if (!path) throw new HttpError(`No "${action}" endpoint for resource "${resource}"`, 400);
  return path;
}

/**
 * The global texts of the legacy request wrapper, as i18n keys: react-admin translates what it notifies,
 * and it notifies every failed CRUD call itself.
 */
export const STATUS_MESSAGES: Record<number, string> = {
  700: 'errors.expired',
  401: 'errors.noPermission',
  500: 'errors.server',
};

function toHttpError(error: unknown, keyed: boolean): unknown {
  if (!(error instanceof ApiError)) return error;
  const message = (keyed && STATUS_MESSAGES[error.status]) || error.message;
  return new HttpError(message, error.status, error.body);
}

/**
 * CRUD calls are quiet towards the shell's global listener because react-admin already shows their
 * failure; a second, identical message would queue behind the first. `action()` calls stay loud: their
 * callers may not notify at all.
 */
async function send<T>(path: string, body?: unknown, options: CallOptions = { quiet: true }): Promise<Envelope<T>> {
  try {
    return await call<T>(path, body, options);
  } catch (error) {
    throw toHttpError(error, Boolean(options.quiet));
  }
}

export function withId<T extends Record<string, unknown>>(row: T): T & RaRecord {
  const id = (row.fId ?? row.id) as Identifier;
  return { ...row, id };
}

/** Accepts `data.records` and the deeper `data.data.records` some legacy screens read, or a bare array. */
export function readPage(data: unknown): Page {
  if (Array.isArray(data)) return { records: data, total: data.length };
  const outer = (data ?? {}) as Record<string, unknown>;
  const inner =
    outer.records === undefined && outer.data && typeof outer.data === 'object' ? (outer.data as Record<string, unknown>) : outer;
  if (Array.isArray(inner)) return { records: inner, total: inner.length };
  const records = Array.isArray(inner.records) ? (inner.records as Record<string, unknown>[]) : [];
  const total = Number(inner.total ?? records.length) || 0;
  return { records, total };
}

/** Empty filter values mean "no condition"; the server would otherwise match them literally. */
function cleanCondition(filter: Record<string, unknown> = {}): Record<string, unknown> {
  const condition: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    condition[key] = value;
  }
  return condition;
}

/** react-admin's `id` is not a legacy column; rows are saved by `fId`. */
function toLegacy(data: Record<string, unknown>): Record<string, unknown> {
  const { id, ...rest } = data;
  if (rest.fId === undefined && id !== undefined && id !== null && id !== '') rest.fId = id;
  return rest;
}

async function listPage(resource: string, body: Record<string, unknown>, path?: string): Promise<Page> {
  const answer = await send(path ?? requireEndpoint(resource, 'list'), body);
  return readPage(answer.data);
}

async function allRows(resource: string): Promise<Record<string, unknown>[]> {
  const all = endpoint(resource, 'all');
  if (all) {
    const answer = await send(all, {});
    return readPage(answer.data).records;
  }
  return (await listPage(resource, { current: 1, size: SCAN_SIZE, condition: {} })).records;
}

const sameId = (a: unknown, b: unknown) => a !== undefined && a !== null && String(a) === String(b);

async function getRow(resource: string, id: Identifier): Promise<Record<string, unknown>> {
  const get = endpoint(resource, 'get');
  if (get) {
    const answer = await send<Record<string, unknown>>(get, { fId: id });
    if (answer.data) return answer.data;
  }
  const row = (await allRows(resource)).find((r) => sameId(r.fId ?? r.id, id));
  if (!row) throw new HttpError('Not found', 404);
  return row;
}

export const dataProvider: LegacyDataProvider = {
  async getList(resource, params) {
    const { page = 1, perPage = 10 } = params.pagination ?? {};
    const field = params.sort?.field;
    const body: Record<string, unknown> = {
      current: page,
      size: perPage,
      condition: cleanCondition(params.filter),
      orders: field ? [{ column: field === 'id' ? 'fId' : field, asc: params.sort?.order === 'ASC' }] : [],
      ...(params.meta?.body ?? {}),
    };
    // A list served by another call than the resource's own list, by its name (`meta.call`).
    const result = await listPage(resource, body, params.meta?.call ? calls[params.meta.call as CallName].path : undefined);
    return { data: result.records.map(withId) as never[], total: result.total };
  },

  async getOne(resource, params) {
    return { data: withId(await getRow(resource, params.id)) as never };
  },

  async getMany(resource, params) {
    const wanted = params.ids ?? [];
    if (wanted.length === 0) return { data: [] };
    if (!endpoint(resource, 'all') && endpoint(resource, 'get') && wanted.length <= 5) {
      const rows = await Promise.all(wanted.map((id) => getRow(resource, id)));
      return { data: rows.map(withId) as never };
    }
    const rows = await allRows(resource);
    return { data: rows.filter((r) => wanted.some((id) => sameId(r.fId ?? r.id, id))).map(withId) as never };
  },

  async getManyReference(resource, params) {
    const { page = 1, perPage = 10 } = params.pagination ?? {};
    const field = params.sort?.field;
    const result = await listPage(resource, {
      current: page,
      size: perPage,
      condition: cleanCondition({ ...params.filter, [params.target]: params.id }),
      orders: field ? [{ column: field === 'id' ? 'fId' : field, asc: params.sort?.order === 'ASC' }] : [],
    });
    return { data: result.records.map(withId) as never[], total: result.total };
  },

  async create(resource, params) {
    const body = toLegacy(params.data as Record<string, unknown>);
    delete body.fId;
    const answer = await send<Record<string, unknown> | null>(requireEndpoint(resource, 'save'), body);
    const saved = answer.data && typeof answer.data === 'object' ? answer.data : {};
    return { data: withId({ ...body, ...saved }) as never };
  },

  async update(resource, params) {
    const body = toLegacy({ ...(params.data as Record<string, unknown>), fId: params.id });
    const answer = await send<Record<string, unknown> | null>(requireEndpoint(resource, 'save'), body);
    const saved = answer.data && typeof answer.data === 'object' ? answer.data : {};
    return { data: withId({ ...(params.previousData ?? {}), ...body, ...saved }) as never };
  },

  async updateMany(resource, params) {
    const path = requireEndpoint(resource, 'save');
    for (const id of params.ids) await send(path, toLegacy({ ...(params.data as Record<string, unknown>), fId: id }));
    return { data: params.ids };
  },

  async delete(resource, params) {
    await send(requireEndpoint(resource, 'delete'), { fId: params.id });
    return { data: (params.previousData ?? { id: params.id }) as never };
  },

  async deleteMany(resource, params) {
    const path = requireEndpoint(resource, 'delete');
    // One by one: the legacy delete takes a single row, and a refusal should stop the rest.
    for (const id of params.ids) await send(path, { fId: id });
    return { data: params.ids };
  },

  async call<N extends CallName>(name: N, body?: CallBody<N>, options: CallOptions = {}): Promise<Envelope<CallAnswer<N>>> {
    const route = calls[name];
    if (!route) throw new ApiError(`no call "${name}"`, 0);
    const method = options.method ?? ((route.methods as readonly string[]).includes('POST') ? 'POST' : 'GET');
    if (method === 'GET') return announcing(call<CallAnswer<N>>(callUrl(name, {}, getQuery(body)), undefined, { ...options, method }), options.quiet);
    return announcing(call<CallAnswer<N>>(route.path, body ?? {}, { ...options, method }), options.quiet);
  },

  async upload<N extends CallName>(name: N, file: File, options?: UploadOptions & { query?: Record<string, string | number> }): Promise<Envelope<CallAnswer<N>>> {
    return upload<CallAnswer<N>>(callUrl(name, {}, options?.query), file, options);
  },

  async download(name: CallName, body: unknown, fileName: string) {
    const route = calls[name];
    return download(route.path, body, fileName, (route.methods as readonly string[]).includes('POST') ? 'POST' : 'GET');
  },

  async submitForm(name: CallName, fields: Record<string, string>) {
    postForm(calls[name].path, fields);
  },
};

export default dataProvider;

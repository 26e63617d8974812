/**
 * Calls by name: a module registers a call by the name its declaration gives it (an entity's endpoint
 * `<entity>.<action>`, or a call of resources/calls/<domain>.json), and the path, the methods and what
 * the declaration says beyond them (its code, whether it is public, its body and answer schemas) come
 * from the generated table (contract/generated/calls.ts, server/generated/calls.ts), so the route and
 * the OpenAPI document are read from the one declaration. The server checks at start that it registered
 * every declared call (`checkEveryCallRegistered`).
 */
import { calls, declaredCalls, type CallName } from '../../contract/generated/calls';
import { declaredFacts, type DeclaredFacts } from '../generated/calls';
import { describeRoute, type ApiCatalog, type CatalogEntry, type JsonSchema } from './catalog';
import type { CallDef } from './call';

/** A call as a module registers it: its declared name, and what its declaration leaves to the module. */
export type NamedCallDef = Omit<CallDef, 'path' | 'methods' | 'permission'> & {
  call: CallName;
  /** Only when the declaration gives none (a code the body decides). */
  permission?: CallDef['permission'];
};

const registered = new WeakMap<ApiCatalog, Set<string>>();

function mark(catalog: ApiCatalog, name: CallName) {
  let names = registered.get(catalog);
  if (!names) registered.set(catalog, (names = new Set()));
  if (names.has(name)) throw new Error(`${name}: registered twice`);
  names.add(name);
}

/** Fastify's form of a declared path: `{name}` → `:name`. */
export const routePath = (name: CallName): string => calls[name].path.replace(/\{([^}]+)\}/g, ':$1');

/** One fact, from the declaration or from the module, never from both. */
function one<K extends keyof DeclaredFacts>(name: string, key: K, declared: DeclaredFacts, given: unknown): unknown {
  if (declared[key] !== undefined && given !== undefined) throw new Error(`${name}: "${key}" is declared in resources/calls/ — remove it where the call is registered`);
  return declared[key] !== undefined ? declared[key] : given;
}

/** The whole definition of a call registered by name; marks it registered. */
export function resolveCall(catalog: ApiCatalog, def: NamedCallDef): CallDef {
  const { call: name, ...rest } = def;
  const route = calls[name];
  if (!route) throw new Error(`${name}: no such call (resources/calls/ or a resource file's endpoints)`);
  const declared: DeclaredFacts = (declaredFacts as Record<string, DeclaredFacts>)[name] ?? {};
  const permission = one(name, 'permission', declared, rest.permission) as CallDef['permission'] | undefined;
  const isPublic = one(name, 'public', declared, rest.public) as boolean | undefined;
  if (permission === undefined && !isPublic) throw new Error(`${name}: no permission — declare it in resources/calls/ (null: any signed-in user)`);
  mark(catalog, name);
  return {
    ...rest,
    path: routePath(name),
    methods: [...route.methods],
    permission: permission ?? null,
    ...(isPublic ? { public: true } : {}),
    summary: one(name, 'summary', declared, rest.summary) as CallDef['summary'],
    logname: one(name, 'logname', declared, rest.logname) as CallDef['logname'],
    body: one(name, 'body', declared, rest.body) as CallDef['body'],
    data: one(name, 'data', declared, rest.data) as CallDef['data'],
  };
}

/**
 * Documents a declared call served outside `registerCall` (a file, an address, the event stream) by its
 * name; answers the path to give Fastify. Its codes and public flag are the declaration's.
 */
export function describeCall(catalog: ApiCatalog, name: CallName, entry: Omit<Parameters<typeof describeRoute>[1], 'path' | 'methods' | 'codes' | 'public'> & { codes?: string[] | null }): string {
  const declared: DeclaredFacts = (declaredFacts as Record<string, DeclaredFacts>)[name] ?? {};
  const codes = declared.permission !== undefined ? (declared.permission === null ? null : [declared.permission].flat()) : entry.codes;
  if (declared.permission !== undefined && entry.codes !== undefined) throw new Error(`${name}: its codes are declared in resources/calls/ — remove them here`);
  if (codes === undefined && !declared.public) throw new Error(`${name}: no permission — declare it in resources/calls/`);
  const body = one(name, 'body', declared, entry.body) as JsonSchema | undefined;
  mark(catalog, name);
  describeRoute(catalog, { ...entry, ...(body ? { body } : {}), path: calls[name].path, methods: [...calls[name].methods], codes: codes ?? null, public: Boolean(declared.public), ...(declared.summary && !entry.summary ? { summary: declared.summary } : {}) } as Parameters<typeof describeRoute>[1]);
  return routePath(name);
}

/** The codes a declared call needs (null: any signed-in user), for a route that checks them itself. */
export function declaredCodes(name: CallName): string[] | null {
  const declared: DeclaredFacts = (declaredFacts as Record<string, DeclaredFacts>)[name] ?? {};
  if (declared.permission === undefined) throw new Error(`${name}: no permission declared in resources/calls/`);
  return declared.permission === null ? null : [declared.permission].flat();
}

/** The body a declared call takes, for a route that checks it itself (a file answered outside the envelope). */
export function declaredBody(name: CallName): JsonSchema {
  const declared: DeclaredFacts = (declaredFacts as Record<string, DeclaredFacts>)[name] ?? {};
  if (!declared.body) throw new Error(`${name}: no body declared in resources/calls/`);
  return declared.body;
}

/** The declared calls no module registered (the server refuses to start with any). */
export function unregisteredCalls(catalog: ApiCatalog): string[] {
  const names = registered.get(catalog) ?? new Set<string>();
  return declaredCalls.filter((n) => !names.has(n));
}

/** Every call declared in resources/calls/ must be served: a declaration nothing registers is an error at start. */
export function checkEveryCallRegistered(catalog: ApiCatalog) {
  const missing = unregisteredCalls(catalog);
  if (missing.length) throw new Error(`declared calls no module registers (resources/calls/): ${missing.join(', ')}`);
}

export type { CatalogEntry };

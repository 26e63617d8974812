/**
 * Malformed requests for every call of an OpenAPI document, the way careless or hostile clients send
 * them: wrong types for each documented property, integers past the column, NUL characters, strings past
 * their limit and of a megabyte, deep nesting, huge arrays, bad dates, unknown and missing properties,
 * wrong content types, empty and broken JSON, bad paging and ordering, bad path segments. Deterministic:
 * the same document and seed give the same requests, so a failure can be replayed.
 */

type Schema = Record<string, any>;

export interface MalformedRequest {
  method: 'GET' | 'POST';
  /** The path with its parameters filled in and any query string. */
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** What was wrong with it, for the failure message. */
  label: string;
  /** The document's path (a call), to count calls covered. */
  call: string;
}

/** mulberry32: a small seeded generator, so a run is the same every time. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const INT_EDGES = [2 ** 31, -(2 ** 31) - 1, 1e308, 2 ** 53, -1, 0, 1.5, -0.000001];
const DATES = ['2026-13-45', 'not a date', '99999-01-01 00:00:00', '2026-02-30 25:61:61', '0000-00-00', '1e20', 1e20, -1];
const STRINGS = ["'; drop table t_sys_user; --", '%_\\', '\u202e\ud83d\ude00', ' ', '１２３', '0x10', '1e400', 'NaN', '-Infinity'];
/** Keys the legacy handlers read whether or not a call documents them. */
const COMMON_KEYS = ['fId', 'id', 'ids', 'fIds', 'deviceId', 'userId', 'roleId', 'current', 'size', 'pageSize', 'condition', 'orders', 'keyword', 'status', 'type', 'stime', 'etime', 'startTime', 'endTime', 'items', 'list'];

function types(schema: Schema): string[] {
  if (!schema || typeof schema !== 'object') return [];
  return [schema.type ?? []].flat();
}

/** A value the schema accepts, for filling the required fields around the one that is broken. */
function plausible(schema: Schema, name: string): unknown {
  const t = types(schema);
  if (schema?.enum?.length) return schema.enum[0];
  if (t.includes('object')) return {};
  if (t.includes('array')) return [];
  // An id no row has: a call that takes the rest as valid must not change a real row (the fuzzing account's own).
  if (t.includes('integer') || t.includes('number')) return /id$/i.test(name) ? 2_000_000_000 : 1;
  if (t.includes('boolean')) return false;
  if (/time|date/i.test(name)) return '2026-01-01 00:00:00';
  return 'fuzz';
}

/** Values that break the schema (or probe its edges) for one property. */
function badValues(schema: Schema, name: string, rng: () => number): unknown[] {
  const t = types(schema);
  const out: unknown[] = [];
  if (!t.includes('string')) out.push('abc', STRINGS[Math.floor(rng() * STRINGS.length)]);
  if (!t.includes('object')) out.push({ nested: { value: 1 } });
  if (!t.includes('array')) out.push([1, 'two', null]);
  if (!t.includes('boolean')) out.push(true);
  if (!t.includes('null')) out.push(null);
  if (t.length === 0 || t.includes('integer') || t.includes('number') || /id$/i.test(name)) out.push(...INT_EDGES);
  else out.push(INT_EDGES[Math.floor(rng() * INT_EDGES.length)]);
  out.push('a\u0000b');
  if (typeof schema?.maxLength === 'number') out.push('x'.repeat(schema.maxLength + 1));
  if (schema?.format === 'date' || schema?.format === 'date-time' || /time|date|day/i.test(name)) out.push(...DATES);
  if (t.includes('array') || /ids$|list$/i.test(name)) out.push(Array.from({ length: 5001 }, (_, i) => i + 1), [2 ** 31], ['1,2', {}]);
  out.push(nestedValue(17));
  return out;
}

function nestedValue(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

/** `{ "a": { "a": … } }` nested far deeper than JSON.stringify or any parser's recursion would like. */
const DEEP_TEXT = (n: number) => '{"a":'.repeat(n) + '{}' + '}'.repeat(n);

function withPath(base: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...base };
  let node = copy;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node = node[key] = next && typeof next === 'object' && !Array.isArray(next) ? { ...(next as object) } : {};
  }
  node[path[path.length - 1]] = value;
  return copy;
}

/** Every documented property down to `depth` levels (a list's condition keys, an order's column). */
function properties(schema: Schema, depth = 2, prefix: string[] = []): { path: string[]; schema: Schema }[] {
  if (!schema || depth < 0) return [];
  const out: { path: string[]; schema: Schema }[] = [];
  for (const [key, sub] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    out.push({ path: [...prefix, key], schema: sub });
    if (sub?.properties) out.push(...properties(sub, depth - 1, [...prefix, key]));
    // An array of objects (orders): its first item's properties.
    if (sub?.items?.properties) {
      for (const item of properties(sub.items, depth - 1, [])) out.push({ path: [...prefix, key, '0', ...item.path], schema: item.schema });
    }
  }
  return out;
}

const JSON_TYPE = { 'content-type': 'application/json' };

type RawBody = { label: string; headers: Record<string, string>; body?: string | Buffer };
/** Built once per body limit: the megabyte bodies cost more to make than to send. */
const rawByLimit = new Map<number, RawBody[]>();

/** The raw bodies any JSON call must refuse cleanly, whatever it documents. */
export function rawBodies(limit: number): RawBody[] {
  let bodies = rawByLimit.get(limit);
  if (!bodies) rawByLimit.set(limit, (bodies = makeRawBodies(limit)));
  return bodies;
}

function makeRawBodies(limit: number): RawBody[] {
  return [
    { label: 'empty JSON body', headers: JSON_TYPE, body: '' },
    { label: 'JSON null', headers: JSON_TYPE, body: 'null' },
    { label: 'JSON array', headers: JSON_TYPE, body: '[]' },
    { label: 'JSON string', headers: JSON_TYPE, body: '"text"' },
    { label: 'JSON number', headers: JSON_TYPE, body: '12345678901234567890' },
    { label: 'JSON true', headers: JSON_TYPE, body: 'true' },
    { label: 'truncated JSON', headers: JSON_TYPE, body: '{"fId":1,' },
    { label: 'not JSON', headers: JSON_TYPE, body: 'fId=1&current=2' },
    { label: 'byte-order mark', headers: JSON_TYPE, body: '\ufeff{}' },
    { label: 'invalid UTF-8', headers: JSON_TYPE, body: Buffer.from([0x7b, 0x22, 0x61, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
    { label: 'duplicate keys', headers: JSON_TYPE, body: '{"fId":1,"fId":"x","current":2,"current":{}}' },
    { label: '__proto__ key', headers: JSON_TYPE, body: '{"__proto__":{"fAdmin":1},"fId":1}' },
    { label: 'constructor.prototype key', headers: JSON_TYPE, body: '{"constructor":{"prototype":{"fAdmin":1}}}' },
    { label: 'NUL in a key', headers: JSON_TYPE, body: '{"f\\u0000Id":1}' },
    { label: 'nested 5,000 deep', headers: JSON_TYPE, body: DEEP_TEXT(5000) },
    { label: 'nested 17 deep', headers: JSON_TYPE, body: DEEP_TEXT(17) },
    { label: 'array of 100,000 items', headers: JSON_TYPE, body: `{"ids":[${Array.from({ length: 100_000 }, (_, i) => i).join(',')}]}` },
    { label: 'top-level array of 6,000', headers: JSON_TYPE, body: JSON.stringify(Array.from({ length: 6000 }, () => ({}))) },
    { label: 'a string of 1 MB', headers: JSON_TYPE, body: JSON.stringify({ fName: 'x'.repeat(1 << 20) }) },
    { label: `body past the limit (${limit + 1024} bytes)`, headers: JSON_TYPE, body: JSON.stringify({ pad: 'x'.repeat(limit + 1024) }) },
    { label: 'text/plain', headers: { 'content-type': 'text/plain' }, body: '{"fId":1}' },
    { label: 'form-urlencoded', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'fId=1&ids[]=2' },
    { label: 'XML', headers: { 'content-type': 'application/xml' }, body: '<fId>1</fId>' },
    { label: 'multipart without boundary', headers: { 'content-type': 'multipart/form-data' }, body: 'x' },
    { label: 'unknown content type', headers: { 'content-type': 'application/x-fuzz' }, body: '\u0000\u0001' },
    { label: 'no content type', headers: {}, body: '{"fId":1}' },
    { label: 'content type with a bad charset', headers: { 'content-type': 'application/json; charset=utf-42' }, body: '{}' },
  ];
}

/** Query strings sent along with any call (the legacy handlers read the query as well as the body). */
const QUERIES = [
  '?current=abc&size=-1&orders=x',
  '?fId=1e308&ids=2147483648',
  '?condition=%7B%22a%22%3A1%7D&id=%00',
  '?keyword=' + 'x'.repeat(5000),
  '?a=1&a=2&a=3&' + Array.from({ length: 200 }, (_, i) => `k${i}=${i}`).join('&'),
];

const PATH_SEGMENTS = ['..%2F..%2Fetc%2Fpasswd', '%00', 'x'.repeat(2000), '-1', '2147483648', '%E0%A4%A', "1'", '1.5'];

/** A multipart body with one part. */
function multipart(field: string, filename: string, content: string | Buffer, type = 'application/octet-stream') {
  const boundary = '----fuzz' + Buffer.from(field).toString('hex');
  const head = `--${boundary}\r\ncontent-disposition: form-data; name="${field}"; filename="${filename}"\r\ncontent-type: ${type}\r\n\r\n`;
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: Buffer.concat([Buffer.from(head), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]) };
}

function multipartBodies(upload: Schema | undefined, field: string): { label: string; headers: Record<string, string>; body?: string | Buffer }[] {
  const max = Number(/at most (\d+) bytes/.exec(String(upload?.description ?? ''))?.[1] ?? 0);
  return [
    { label: 'multipart: JSON instead', headers: JSON_TYPE, body: '{"file":"x"}' },
    { label: 'multipart: no parts', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--\r\n' },
    { label: 'multipart: truncated', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x\r\ncontent-disposition: form-data; name="file"; filename="a.xlsx"\r\n\r\nabc' },
    { label: 'multipart: garbage file', ...multipart(field, 'a.xlsx', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff, 0xff, 0, 1, 2])) },
    { label: 'multipart: wrong extension', ...multipart(field, 'a.exe', 'MZ') },
    { label: 'multipart: path in the name', ...multipart(field, '../../../etc/passwd', 'x') },
    { label: 'multipart: NUL in the name', ...multipart(field, 'a\u0000.png', 'x') },
    { label: 'multipart: other field', ...multipart('notTheFile', 'a.png', 'x') },
    { label: 'multipart: empty file', ...multipart(field, 'a.xlsx', '') },
    ...(max && max <= 4 * 1024 * 1024 ? [{ label: `multipart: file past ${max} bytes`, ...multipart(field, 'big.png', Buffer.alloc(max + 1024, 1)) }] : []),
  ];
}

/** Calls that end the session or change credentials go last, so the rest run signed in. */
export const DESTRUCTIVE = /logout|pwd|password|reset|del|remove|status|disable|lock/i;

/** `n` of `items`, drawn with the seed. */
function pickSome<T>(items: T[], n: number, rng: () => number): T[] {
  const left = [...items];
  for (let i = 0; i < Math.min(n, left.length); i++) {
    const j = i + Math.floor(rng() * (left.length - i));
    [left[i], left[j]] = [left[j], left[i]];
  }
  return left.slice(0, n);
}

/**
 * The malformed requests for every call of `doc`: the raw-body, query and path variants (the heavy
 * bodies of a megabyte on every fourth call; `rawPerCall` of the raw bodies, drawn, when given), and
 * `perCall` of the property, paging and undocumented-key variants, drawn with the seed.
 */
export function malformedRequests(doc: Schema, { seed = 1, perCall = 20, rawPerCall = undefined as number | undefined } = {}): MalformedRequest[] {
  const rng = seeded(seed);
  const out: MalformedRequest[] = [];
  const paths = Object.entries(doc.paths as Record<string, Record<string, Schema>>);
  for (const [path, item] of paths) {
    for (const [method, op] of Object.entries(item)) {
      const M = method.toUpperCase() as 'GET' | 'POST';
      // A page or a stream: no body to break; its query and path segments still are.
      const fill = (p: string) => p.replace(/\{[^}]+\}/g, () => PATH_SEGMENTS[Math.floor(rng() * PATH_SEGMENTS.length)]);
      const add = (label: string, headers: Record<string, string>, body?: string | Buffer, query = '') => out.push({ method: M, url: fill(path) + query, headers, body, label, call: path });
      if (/\{[^}]+\}/.test(path)) for (const segment of PATH_SEGMENTS) out.push({ method: M, url: path.replace(/\{[^}]+\}/g, segment), headers: {}, label: `path segment ${segment.slice(0, 20)}`, call: path });
      for (const q of QUERIES) add(`query ${q.slice(0, 40)}`, M === 'GET' ? {} : JSON_TYPE, M === 'GET' ? undefined : '{}', q);
      if (M === 'GET') continue;
      const content = op.requestBody?.content ?? {};
      const limit = Number(op['x-body-limit'] ?? 64 * 1024);
      if (content['multipart/form-data']) {
        const props = content['multipart/form-data'].schema?.properties ?? {};
        const field = Object.keys(props)[0] ?? 'file';
        for (const b of multipartBodies(props[field], field)) add(b.label, b.headers, b.body);
        continue;
      }
      const heavy = rng() < 0.25;
      const raws = rawBodies(limit).filter((b) => heavy || (b.body?.length ?? 0) < 200_000);
      for (const b of rawPerCall === undefined ? raws : pickSome(raws, rawPerCall, rng)) add(b.label, b.headers, b.body);
      const schema: Schema = content['application/json']?.schema ?? {};
      const required: string[] = schema.required ?? [];
      const declared = (schema.properties ?? {}) as Record<string, Schema>;
      const base = Object.fromEntries(required.map((k) => [k, plausible(declared[k], k)]));
      const drawn: { label: string; body: unknown }[] = [];
      const send = (label: string, body: unknown) => drawn.push({ label, body });
      for (const key of required) {
        const { [key]: _dropped, ...rest } = base;
        send(`missing required ${key}`, rest);
      }
      send('unknown properties', { ...base, fuzzUnknown: 1, '': 'empty key', 'f-id': 2, ['x'.repeat(300)]: 1 });
      const documented = properties(schema);
      for (const { path: at, schema: sub } of documented) {
        for (const value of badValues(sub, at[at.length - 1], rng)) send(`${at.join('.')} = ${JSON.stringify(value)?.slice(0, 40)}`, withPath(base, at, value));
      }
      // Keys every handler may read even where the call documents nothing (handled by its module).
      for (const key of COMMON_KEYS) {
        if (key in declared) continue;
        const values = badValues({}, key, rng);
        for (let i = 0; i < 4; i++) {
          const value = values[Math.floor(rng() * values.length)];
          send(`${key} = ${JSON.stringify(value)?.slice(0, 40)} (undocumented)`, withPath(base, [key], value));
        }
      }
      // Paging and ordering, on every call (list calls document them; others must ignore or refuse them).
      for (const paging of [
        { current: -1, size: 0 },
        { current: 'abc', size: '10; drop table t_device' },
        { current: 2 ** 53, size: 1e308, pageSize: -(2 ** 31) },
        { orders: [{ column: 'f_id; drop table t_device', asc: 'yes' }] },
        { orders: [{ column: { a: 1 }, asc: [] }, null, 1] },
        { orders: 'fId desc' },
        { orders: Array.from({ length: 5001 }, () => ({ column: 'fId' })) },
        { condition: 'text' },
        { condition: [1, 2] },
        { condition: { keyword: 'x'.repeat(101) } },
        { condition: { keyword: '%%%___\\\\' } },
      ]) send(`paging ${JSON.stringify(paging).slice(0, 50)}`, { ...base, ...paging });
      // Missing required fields and unknown properties always; the rest drawn.
      const fixed = required.length + 1;
      const rest = drawn.slice(fixed);
      for (let i = rest.length - 1; i > 0; i--) {
        const j = Math.floor(rng() * (i + 1));
        [rest[i], rest[j]] = [rest[j], rest[i]];
      }
      for (const d of [...drawn.slice(0, fixed), ...rest.slice(0, perCall)]) add(d.label, JSON_TYPE, JSON.stringify(d.body));
    }
  }
  return out;
}

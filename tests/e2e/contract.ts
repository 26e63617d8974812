/**
 * The console's calls held to the API document: every request a page of the test sends to the server is looked up
 * in /openapi.json (method and path), its body — JSON, form fields, or the query of a GET — is checked
 * against the documented request schema, and a JSON answer against the documented answer schema, formats
 * included (times as the server writes them, server/crud/format.ts). Each
 * spec takes `test` from helpers.ts, whose fixture fails the test that made a call the document does not
 * describe.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { BrowserContext, Request, Response } from '@playwright/test';
import { TIME_FORMATS } from '../../server/crud/format';
import { PICTURE_FORMATS } from '../../contract/picture';

interface Operation {
  method: string;
  path: string;
  pattern: RegExp;
  /** JSON pointer of the operation in the document. */
  pointer: string;
  op: Record<string, any>;
}

export interface ApiDocument {
  operations: Operation[];
  ajv: Ajv;
}

const documents = new Map<string, Promise<ApiDocument>>();
const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The whole document of the server at `baseURL`, read once with the administrator's token (who holds every code). */
export function apiDocument(baseURL: string, account: { phone: string; password: string }): Promise<ApiDocument> {
  let doc = documents.get(baseURL);
  if (!doc) {
    doc = (async () => {
      const login = await (await fetch(`${baseURL}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName: account.phone, password: account.password }) })).json();
      if (!login.success) throw new Error(`signing in to read the API document: ${login.message}`);
      const document = await (await fetch(`${baseURL}/openapi.json`, { headers: { authorization: login.data.token } })).json();
      // Formats are checked: a time the server writes otherwise than the document says is a mismatch.
      const ajv = new Ajv({ strict: false, allErrors: false, logger: false });
      addFormats(ajv);
      for (const [name, pattern] of Object.entries(TIME_FORMATS)) ajv.addFormat(name, pattern);
      for (const [name, validate] of Object.entries(PICTURE_FORMATS)) ajv.addFormat(name, { type: 'string', validate });
      ajv.addSchema(document, 'doc');
      const operations: Operation[] = [];
      for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
        // `/a/{id}` matches one segment; `/files/*` the rest of the path.
        const pattern = new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, (c) => (c === '{' || c === '}' ? c : `\\${c}`)).replace(/\{[^}]+\}/g, '[^/]+').replace(/\*/g, '.*')}$`);
        for (const [method, op] of Object.entries(item)) operations.push({ method, path, pattern, pointer: `#/paths/${escape(path)}/${method}`, op });
      }
      // Exact paths before templated ones.
      operations.sort((a, b) => Number(a.path.includes('{') || a.path.includes('*')) - Number(b.path.includes('{') || b.path.includes('*')));
      return { operations, ajv };
    })();
    documents.set(baseURL, doc);
  }
  return doc;
}

function validator(doc: ApiDocument, pointer: string): ValidateFunction {
  return doc.ajv.getSchema(`doc${pointer}`) ?? (doc.ajv.addSchema({ $ref: `doc${pointer}` }, pointer), doc.ajv.getSchema(pointer)!);
}

const describeErrors = (v: ValidateFunction) => (v.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`).join('; ');

/** What the request carries for the server to check: its JSON or form body, or a GET's query. */
function payloadOf(request: Request, url: URL): { type: string; value: unknown } | null {
  const type = (request.headers()['content-type'] ?? '').split(';')[0].trim();
  if (request.method() === 'GET') return url.search ? { type: 'query', value: Object.fromEntries(url.searchParams) } : null;
  const text = request.postData();
  if (text === null) return null;
  if (type === 'application/json') return { type, value: JSON.parse(text) };
  if (type === 'application/x-www-form-urlencoded') return { type, value: Object.fromEntries(new URLSearchParams(text)) };
  return { type, value: undefined };
}

/** Watches the pages of a browser context; `check()` answers every mismatch seen so far. */
export function watchContract(context: BrowserContext, baseURL: string, docOf: () => Promise<ApiDocument>) {
  const origin = new URL(baseURL).origin;
  const mismatches: string[] = [];
  const pending: Promise<void>[] = [];
  const operationOf = (doc: ApiDocument, request: Request, url: URL) => doc.operations.find((o) => o.method === request.method().toLowerCase() && o.pattern.test(url.pathname));
  const isCall = (request: Request, url: URL) => url.origin === origin && ['fetch', 'xhr', 'eventsource'].includes(request.resourceType());

  const onRequest = (request: Request) => {
    const url = new URL(request.url());
    if (!isCall(request, url)) return;
    pending.push(
      (async () => {
        const doc = await docOf();
        const call = `${request.method()} ${url.pathname}`;
        const operation = operationOf(doc, request, url);
        if (!operation) return void mismatches.push(`${call}: not in the API document`);
        const payload = payloadOf(request, url);
        if (!payload) return;
        if (payload.type === 'query') {
          // A GET twin takes the body its POST documents, in the query.
          const post = doc.operations.find((o) => o.method === 'post' && o.path === operation.path);
          if (!post?.op.requestBody?.content?.['application/json']) return;
          const v = validator(doc, `${post.pointer}/requestBody/content/application~1json/schema`);
          if (!v(payload.value)) mismatches.push(`${call}: query ${JSON.stringify(payload.value)} does not match the documented body: ${describeErrors(v)}`);
          return;
        }
        const content = operation.op.requestBody?.content as Record<string, unknown> | undefined;
        // The server reads a form post the way it reads JSON.
        const documented = content?.[payload.type] ? payload.type : payload.type === 'application/x-www-form-urlencoded' && content?.['application/json'] ? 'application/json' : null;
        if (!documented) return void mismatches.push(`${call}: sends ${payload.type || 'a body'}, the document describes ${content ? Object.keys(content).join(', ') : 'no body'}`);
        if (payload.value === undefined) return; // a file upload: the type is what can be checked
        const v = validator(doc, `${operation.pointer}/requestBody/content/${escape(documented)}/schema`);
        if (!v(payload.value)) mismatches.push(`${call}: body ${JSON.stringify(payload.value).slice(0, 300)} does not match the documented body: ${describeErrors(v)}`);
      })().catch((e) => void mismatches.push(`${request.method()} ${url.pathname}: ${e}`)),
    );
  };

  const onResponse = (response: Response) => {
    const request = response.request();
    const url = new URL(request.url());
    if (!isCall(request, url) || !(response.headers()['content-type'] ?? '').startsWith('application/json')) return;
    pending.push(
      (async () => {
        const doc = await docOf();
        const operation = operationOf(doc, request, url);
        const answer = operation?.op.responses?.[String(response.status())]?.content?.['application/json'];
        if (!operation || !answer?.schema) return;
        const body = await response.json().catch(() => undefined);
        if (body === undefined) return;
        const v = validator(doc, `${operation.pointer}/responses/${response.status()}/content/application~1json/schema`);
        if (!v(body)) mismatches.push(`${request.method()} ${url.pathname}: answer ${JSON.stringify(body).slice(0, 300)} does not match the documented answer: ${describeErrors(v)}`);
      })().catch(() => undefined), // a page closed before its answer was read
    );
  };

  context.on('request', onRequest);
  context.on('response', onResponse);
  return {
    async check(): Promise<string[]> {
      context.off('request', onRequest);
      context.off('response', onResponse);
      await Promise.all(pending);
      return [...new Set(mismatches)];
    },
  };
}

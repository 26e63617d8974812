/**
 * The OpenAPI document of every call the server answers, built from the call catalog (server/http/
 * catalog.ts) on top of the generated entity schemas. A viewer sees the calls its permission codes
 * open; without a token, the public calls.
 */
import type { User } from '../crud/types';
import type { ApiCatalog, CatalogEntry, JsonSchema } from './catalog';
import { REASONS } from '../../contract/generated/reasons';
import { commonReasons } from '../generated/reasons';

const ENVELOPE_REFUSAL = '#/components/schemas/Refusal';

/** The document's tag of a path: its family (`/system/t-sys-user/pageList` → `t-sys-user`). */
export function familyOf(path: string): string {
  const parts = path.split('/').filter(Boolean);
  if (parts.length <= 1) return 'session';
  return parts[parts.length - 2];
}

export function visibleTo(entry: CatalogEntry, user: User | null): boolean {
  if (entry.public) return true;
  if (!user) return false;
  return entry.codes === null || entry.codes.some((c) => user.permissions.has(c));
}

function operation(entry: CatalogEntry, method: string): JsonSchema {
  const summary = entry.summary ? `${entry.summary['en-US']} / ${entry.summary['zh-CN']}` : undefined;
  const permission = entry.public ? 'none (public)' : entry.codes === null ? 'any signed-in user' : entry.codes.join(' or ');
  const notes = [
    `Permission: ${permission}.`,
    ...(entry.write ? ['Recorded in the operation log.'] : []),
    ...(entry.perMinute ? [`At most ${entry.perMinute} calls a minute per address and account (code 429 beyond).`] : []),
    ...(entry.perAccountPerMinute ? [`At most ${entry.perAccountPerMinute} calls a minute per account from all addresses together (code 429 beyond).`] : []),
    ...(entry.bodyLimit ? [`Body at most ${entry.bodyLimit} bytes (code 413 beyond).`] : []),
    ...(entry.reasons?.length ? [`Besides the refusals every call may answer, this one may answer ${entry.reasons.map((c) => `\`${c}\``).join(', ')} (\`x-reasons\`).`] : []),
  ];
  const requestBody =
    method === 'get'
      ? undefined
      : entry.upload
        ? {
            content: {
              'multipart/form-data': {
                schema: { type: 'object', properties: { [entry.upload.field]: { type: 'string', format: 'binary', description: `${entry.upload.accept}, at most ${entry.upload.maxBytes} bytes` } }, required: [entry.upload.field] },
              },
            },
          }
        : entry.body
          ? { content: { 'application/json': { schema: entry.body } } }
          : undefined;
  const success = entry.produces
    ? { description: 'The file', content: { [entry.produces]: { schema: { type: 'string', format: 'binary' } }, 'application/json': { schema: { $ref: ENVELOPE_REFUSAL } } } }
    : entry.answer
      ? { description: entry.answer.description, ...(entry.answer.type ? { content: { [entry.answer.type]: { schema: entry.answer.schema ?? { type: 'string' } } } } : {}) }
      : {
          description: 'The envelope: code 200 with `data`, or a refusal (HTTP 200, code 400 / 404 / 409 / 429) with the reason in `message`',
          content: {
            'application/json': {
              schema: {
                oneOf: [
                  { allOf: [{ $ref: '#/components/schemas/Envelope' }, { type: 'object', properties: { code: { const: 200 }, success: { const: true }, data: entry.data ?? {} } }] },
                  { $ref: ENVELOPE_REFUSAL },
                ],
              },
            },
          },
        };
  const responses: Record<string, unknown> = { [String(entry.answer?.status ?? 200)]: success };
  if (!entry.public) {
    responses['700'] = { description: 'No token, or an expired or revoked one: sign in again', content: { 'application/json': { schema: { $ref: ENVELOPE_REFUSAL } } } };
    if (entry.codes !== null) responses['401'] = { description: 'The caller lacks the permission code', content: { 'application/json': { schema: { $ref: ENVELOPE_REFUSAL } } } };
  }
  responses['500'] = { description: 'Server error', content: { 'application/json': { schema: { $ref: ENVELOPE_REFUSAL } } } };
  return {
    tags: [entry.tag ?? familyOf(entry.path)],
    ...(summary ? { summary } : {}),
    description: notes.join(' '),
    operationId: `${method}${entry.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    'x-permission': entry.public ? null : entry.codes,
    ...(entry.reasons ? { 'x-reasons': entry.reasons } : {}),
    ...(entry.summary ? { 'x-names': entry.summary } : {}),
    ...(entry.public ? { security: [] } : { security: [{ token: [] }] }),
    ...(entry.bodyLimit && method !== 'get' ? { 'x-body-limit': entry.bodyLimit } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** The document as `user` may see it (all calls when `user` is 'all'). */
export function openApiDocument(generated: JsonSchema, catalog: ApiCatalog, user: User | null | 'all'): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const entry of catalog) {
    if (user !== 'all' && !visibleTo(entry, user)) continue;
    const item = (paths[entry.path] ??= {});
    for (const method of entry.methods) item[method.toLowerCase()] = operation(entry, method.toLowerCase());
  }
  const components = generated.components as { schemas: Record<string, unknown>; securitySchemes: unknown };
  return {
    openapi: '3.1.0',
    info: {
      ...(generated.info as object),
      description:
        'Every call of the legacy contract. Calls are POST with a JSON body unless a GET is listed; the token goes in `Authorization`. ' +
        'Answers are the envelope `{ code, success, message, data }`: code 200 is success; a refused request is HTTP 200 with code 400 ' +
        '(409 duplicate, 404 not found, 429 too frequent) and the spec\'s words in `message`, the same by code in `reason` (`{ code, params, text }`, ' +
        'text in the language of `Accept-Language`); a refusal of one field of the body names it in `data` ' +
        '(`{ field, rule }`); HTTP 401 means a missing permission code; HTTP 700 an expired or missing login.',
    },
    components: {
      ...components,
      schemas: {
        ...components.schemas,
        Refusal: {
          type: 'object',
          properties: {
            code: { type: 'integer', examples: [400, 401, 404, 409, 429, 500, 700] },
            success: { const: false },
            message: { type: 'string' },
            data: {
              description: 'null, the field of the body the refusal is about and the schema rule it failed (required, maxLength, pattern, minimum, maximum, type, enum, format, unique, ref, notBefore), or a refused import\'s bad rows',
              oneOf: [
                { type: 'null' },
                { type: 'object', required: ['field', 'rule'], properties: { field: { type: 'string' }, rule: { type: 'string' } } },
                { type: 'object', required: ['rows', 'total'], properties: { rows: { type: 'array', items: { type: 'object', required: ['row', 'reason'], properties: { row: { type: 'integer' }, label: { type: 'string' }, reason: { $ref: '#/components/schemas/Reason' } } } }, total: { type: 'integer' } } },
              ],
            },
            reason: { $ref: '#/components/schemas/Reason' },
          },
        },
        Reason: {
          type: 'object',
          'x-common': commonReasons,
          description: "Why, by a code of the catalogue (schemas/reasons/; a field's messages are `<entity>.<field>.<rule>`, an endpoint's notice `<entity>.<action>.done`): its parameters, and its text in the language of the request's Accept-Language (zh-CN, zh-TW or en-US). `message` keeps the zh-CN text.",
          required: ['code', 'params', 'text'],
          properties: {
            code: { enum: Object.keys(REASONS).sort() },
            params: { type: 'object', additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'object', properties: { 'zh-CN': { type: 'string' }, 'zh-TW': { type: 'string' }, 'en-US': { type: 'string' } } }] } },
            text: { type: 'string' },
          },
        },
      },
    },
    paths,
  };
}

/**
 * How large a request body each call takes. The limit is declared once, with the call
 * (`CallDef.bodyLimit`, or sized from its declared body and upload), handed to Fastify for that route
 * so a larger body is refused from its Content-Length before it is read, and shown in the API document.
 */
import type { FastifyRequest } from 'fastify';
import { refuse, type Refusal } from './envelope';
import type { JsonSchema } from './call';
import { MAX_ARRAY } from './guard';

/** Enough for any form of the console: ids, paging, a condition, a few hundred characters of text. */
export const SMALL_BODY = 64 * 1024;
/** A body its module reads without declaring it (batch saves, device configurations). */
export const FREE_BODY = 1024 * 1024;
/** Room for the multipart framing and other fields around an upload's file. */
const MULTIPART_OVERHEAD = 64 * 1024;
/** JSON may spell a character as \uXXXX. */
const BYTES_PER_CHAR = 6;

function types(schema: JsonSchema): string[] {
  return [schema.type ?? []].flat() as string[];
}

/** The most bytes a value of `schema` takes as JSON, or Infinity where the schema leaves it open. */
function sizeOf(schema: JsonSchema, depth = 0): number {
  if (depth > 4) return Infinity;
  const t = types(schema);
  let size = 32;
  if (typeof schema.maxLength === 'number') size = Math.max(size, schema.maxLength * BYTES_PER_CHAR);
  if (t.includes('object') && schema.properties) {
    size = Math.max(size, Object.entries(schema.properties as Record<string, JsonSchema>).reduce((n, [k, v]) => n + k.length + 4 + sizeOf(v, depth + 1), 2));
  }
  if (t.includes('array')) {
    const items = (schema.items ?? {}) as JsonSchema;
    const item = types(items).includes('object') && !items.properties ? Infinity : Math.min(sizeOf(items, depth + 1), 256);
    size = Math.max(size, Number(schema.maxItems ?? MAX_ARRAY) * (item + 1));
  }
  return size;
}

/** The call's limit: declared, or its upload's size, or what its declared body can take (at least SMALL_BODY). */
export function bodyLimitOf(def: { bodyLimit?: number; body?: JsonSchema; upload?: { maxBytes: number } }): number {
  if (def.bodyLimit) return def.bodyLimit;
  if (def.upload) return def.upload.maxBytes + MULTIPART_OVERHEAD;
  if (!def.body?.properties) return FREE_BODY;
  const size = sizeOf(def.body);
  return Number.isFinite(size) ? Math.min(FREE_BODY, Math.max(SMALL_BODY, size + SMALL_BODY)) : FREE_BODY;
}

function kilobytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

export function tooLarge(limit: number): Refusal {
  return refuse('request.tooLarge', { size: kilobytes(limit) });
}

/** A body past its limit, or one that stopped half-way (a dropped upload): refusals, not server errors. */
export function streamRefusal(error: unknown, request: FastifyRequest): Refusal | null {
  const code = (error as { code?: unknown })?.code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT') {
    return tooLarge(request.routeOptions.bodyLimit ?? SMALL_BODY);
  }
  // Where the stream stops decides which of these the multipart parser (@fastify/multipart, busboy) reports.
  const message = (error as Error)?.message ?? '';
  if (code === 'ERR_STREAM_PREMATURE_CLOSE' || /^(Premature close|Unexpected end of multipart data|Part terminated early)/.test(message)) {
    return refuse('request.uploadIncomplete');
  }
  return null;
}

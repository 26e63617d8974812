/**
 * Calls that take a file (multipart/form-data). Each is registered in a plugin scope of its own with the
 * multipart parser, so every other call keeps the JSON body parser alone, and the parser stops reading a
 * file at the call's own size limit.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { PlainReasonCode } from '../../contract/generated/reasons';
import { registerCall, type CallServices } from './route';
import type { NamedCallDef } from './calls';
import { Refusal, refuse } from './envelope';

type Upload = NonNullable<NamedCallDef['upload']>;

/** Registers an upload call: one file of at most `upload.maxBytes`, and a few form fields beside it. */
export function registerUpload(app: FastifyInstance, ctx: CallServices, def: NamedCallDef & { upload: Upload }) {
  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: def.upload.maxBytes, files: 1, fields: 10 } });
    registerCall(scope, ctx, def);
  });
}

/**
 * An all-or-nothing spreadsheet import (server/platform/sheetImport.ts reads the file): one .xlsx or
 * .xls of at most `maxBytes`, a write, answering how many rows went in (its declared answer).
 */
export function registerSheetImport(app: FastifyInstance, ctx: CallServices, { maxBytes, ...def }: Omit<NamedCallDef, 'data' | 'upload' | 'write'> & { maxBytes: number }) {
  registerUpload(app, ctx, { ...def, upload: { field: 'file', accept: 'xlsx, xls', maxBytes }, write: true });
}

/** Whether the multipart parser stopped a file at the scope's size limit. */
export function isTooLarge(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || (error as { statusCode?: number }).statusCode === 413;
}

/** Why an upload received to a folder is refused: no file, a name of another type, over the call's size limit. */
export interface UploadReasons {
  missing: PlainReasonCode;
  format: PlainReasonCode;
  size: PlainReasonCode;
}

/** An upload received to a folder of its own, which the caller removes once done with it. */
export interface ReceivedUpload {
  dir: string;
  /** The file's path in `dir`. */
  file: string;
  /** The form's text fields sent before the file. */
  fields: Record<string, string>;
}

/**
 * The call's one file, streamed to a new temporary folder (never whole in memory, for files of tens of
 * megabytes): a name whose extension is not among `upload.accept` is refused unread, a file stopped at
 * the call's size limit with `reasons.size` (HTTP 413). Read by iterating, not with pipeline(): a part
 * the parser ended before this reads it (a body cut short while the caller was authenticated) is a
 * destroyed stream, which pipeline() waits on for ever and iteration refuses at once; and a client gone
 * half-way ends the copy rather than leaving it waiting for the rest of its file.
 */
export async function receiveToFolder(request: FastifyRequest, upload: Upload, reasons: UploadReasons): Promise<ReceivedUpload> {
  if (!request.isMultipart()) throw refuse(reasons.missing);
  const accepted = upload.accept.split(',').map((e) => e.trim().toLowerCase());
  let dir: string | undefined;
  try {
    const part = await request.file();
    if (!part) throw refuse(reasons.missing);
    const extension = extname(part.filename ?? '').slice(1).toLowerCase();
    if (!accepted.includes(extension)) {
      part.file.resume();
      throw refuse(reasons.format);
    }
    const fields: Record<string, string> = {};
    for (const [name, field] of Object.entries(part.fields)) {
      const value = (field as { value?: unknown } | undefined)?.value;
      if (typeof value === 'string') fields[name] = value;
    }
    dir = await mkdtemp(join(tmpdir(), 'upload-'));
    const file = join(dir, `upload.${extension}`);
    const socket = request.raw.socket;
    const gone = () => part.file.destroy(new Error('the upload connection closed'));
    socket.once('close', gone);
    const out = createWriteStream(file);
    try {
      for await (const chunk of part.file) if (!out.write(chunk)) await once(out, 'drain');
    } finally {
      socket.off('close', gone);
      out.end();
      await once(out, 'close').catch(() => undefined);
    }
    if (part.file.truncated) throw refuse(reasons.size, {}, { status: 413 });
    return { dir, file, fields };
  } catch (error) {
    if (dir) await rm(dir, { recursive: true, force: true });
    if (error instanceof Refusal) throw error;
    if (isTooLarge(error)) throw refuse(reasons.size, {}, { status: 413 });
    throw error;
  }
}

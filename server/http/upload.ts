/**
 * Calls that take a file (multipart/form-data). Each is registered in a plugin scope of its own with the
 * multipart parser, so every other call keeps the JSON body parser alone, and the parser stops reading a
 * file at the call's own size limit.
 */
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { registerCall, type CallServices } from './route';
import type { NamedCallDef } from './calls';

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

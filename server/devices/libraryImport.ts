/**
 * Description import (spec 001 §2.11, §5): the fields of one description library from an Excel sheet,
 * and its template. The upload is streamed to a temporary file (it may be up to 100M), every row is
 * checked with the rules of a field saved by hand, and the sheet goes in whole or not at all: one bad
 * row refuses the import with every bad row's number and reason.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { authenticate, Answer } from '../http/route';
import type { RouteContext } from '../http/context';
import { declaredCodes, describeCall } from '../http/calls';
import { Forbidden, Refusal, reason, refuse, textOf, type Reason } from '../http/envelope';
import { entity } from '../crud/engine';
import { validateBody } from '../crud/validate';
import type { User } from '../crud/types';
import { sendFile } from '../http/files';
import { registerSheetImport } from '../http/upload';
import { checkConf } from './productJsonConf';
import { XLSX_TYPE, checkRows, insertAll, isTooLarge, openSheet, templateBook } from '../platform';
import { words, zh } from './words';
import { sendMessage } from '../platform';

/** Spec 001 §9: 100M. */
export const LIBRARY_IMPORT_MAX_BYTES = 100 * 1024 * 1024;

/** Bad rows a refusal lists by code; past them it only counts them. */
const LISTED_ROWS = 1000;

/** The template's columns, headed by the fields' zh-CN labels (schemas/productJsonConf.schema.json). */
const COLUMNS = (['fJsonKey', 'fJsonName', 'fJsonReadKey', 'fDataType', 'fValueType', 'fDefaultValue', 'fJsonSubId', 'fJsonDes'] as const).map((key) => ({
  key,
  header: entity('productJsonConf').fields[key].labels['zh-CN'],
  width: ({ fJsonKey: 18, fJsonName: 18, fJsonReadKey: 16, fJsonSubId: 18, fJsonDes: 40 } as Record<string, number>)[key] ?? 12,
}));

/** Data types by number or by their name in any of the console's languages (schemas/enums.json productJsonDataType). */
const DATA_TYPES: Record<string, number> = Object.fromEntries(
  ([
    ['library.dataType.integer', 1], ['library.dataType.float', 2], ['library.dataType.string', 3], ['library.dataType.array', 4],
    ['library.dataType.boolean', 5], ['library.dataType.time', 6], ['library.dataType.entity', 7], ['library.dataType.entityArray', 8],
  ] as const).flatMap(([code, value]) => Object.values(words(code)).map((name) => [name, value])),
);

export const templateWorkbook = () =>
  templateBook(zh('library.template.sheet'), COLUMNS, { fJsonKey: 'voltage', fJsonName: zh('deviceData.voltage'), fDataType: zh('library.dataType.float'), fValueType: 'reading', fJsonDes: zh('library.template.hint') });

/** Reads the sheet and inserts every row, or refuses naming each bad row; nothing is half-imported. */
export async function importFields(ctx: RouteContext, user: User, libraryId: number, file: string): Promise<number> {
  const library = await ctx.db.selectFrom('t_product_json').select(['fId', 'fName']).where('fId', '=', libraryId).executeTakeFirst();
  if (!library) throw refuse('library.fieldLibraryMissing');
  const model = entity('productJsonConf');
  const valueTypes = await ctx.db.selectFrom('t_sys_dic').select(['fValue', 'fContent']).where('fKey', '=', 'Product_Property').execute();
  const libraries = await ctx.db.selectFrom('t_product_json').select(['fId', 'fName']).execute();
  const taken = new Set((await ctx.db.selectFrom('t_product_json_conf').select('fJsonKey').where('fProductJsonId', '=', libraryId).execute()).map((r) => String(r.fJsonKey)));
  const seen = new Set<string>();
  // Each bad row's reason by code, beside the words checkRows keeps of it.
  const why = new Map<number, Reason>();
  const sheet = await openSheet(file).catch((error: unknown) => {
    throw error instanceof Refusal ? refuse('library.import.badType') : error;
  });
  const result = await checkRows(sheet, COLUMNS, (raw, row) => {
    try {
      return checkRow(raw);
    } catch (error) {
      if (error instanceof Refusal && error.reason) why.set(row, error.reason);
      throw error;
    }
  });
  if (result.errors.length) {
    const rows = result.errors.slice(0, LISTED_ROWS).map((e) => ({ row: e.row, reason: why.get(e.row) ?? reason('library.import.dataType') }));
    throw refuse('library.import.failed', {}, { rows: { rows, total: result.errors.length } });
  }
  if (!result.rows.length) throw refuse('library.import.empty');
  await ctx.db.transaction().execute((trx) => insertAll(trx, 't_product_json_conf', result.rows));
  await sendMessage(ctx.db, { userIds: [user.fId], kind: 'import', params: { what: textOf(reason('library.import.what', { name: String(library.fName) })), count: result.rows.length, time: new Date() } });
  return result.rows.length;

  function checkRow(raw: Record<string, string>) {
    const dataType = raw.fDataType === '' ? '' : DATA_TYPES[raw.fDataType] ?? (/^[1-8]$/.test(raw.fDataType) ? Number(raw.fDataType) : NaN);
    if (Number.isNaN(dataType)) throw refuse('library.import.dataType');
    const valueType = valueTypes.find((v) => v.fValue === raw.fValueType || v.fContent === raw.fValueType)?.fValue ?? raw.fValueType;
    let sub: number | '' = '';
    if (raw.fJsonSubId) {
      const found = libraries.find((l) => String(l.fId) === raw.fJsonSubId || l.fName === raw.fJsonSubId);
      if (!found) throw refuse('library.import.subUnknown');
      sub = found.fId;
    }
    const values = validateBody(model, { ...raw, fDataType: dataType, fValueType: valueType, fJsonSubId: sub, fProductJsonId: libraryId }, 'create', user);
    checkConf(values);
    const key = String(values.fJsonKey);
    if (seen.has(key)) throw refuse('library.import.duplicateInFile');
    if (taken.has(key)) throw refuse('library.keyTaken');
    seen.add(key);
    return values;
  }
}

export function registerLibraryImportRoutes(app: FastifyInstance, ctx: RouteContext) {
  const codes = declaredCodes('sheet.libraryTemplate') ?? [];
  const url = describeCall(ctx.catalog, 'sheet.libraryTemplate', { tag: 't-product-json-conf', produces: XLSX_TYPE });
  app.route({
    method: ['GET', 'POST'],
    url,
    handler: async (request, reply) => {
      const user = await authenticate(ctx, request, reply);
      if (!codes.some((c) => user.permissions.has(c))) throw new Forbidden();
      return sendFile(reply, await templateWorkbook(), XLSX_TYPE, `${zh('library.template.file')}.xlsx`, 'library-fields-template.xlsx');
    },
  });

  registerSheetImport(app, ctx, {
    call: 'sheet.libraryImport',
    maxBytes: LIBRARY_IMPORT_MAX_BYTES,
    handler: async ({ user, body, request }) => {
      if (!request.isMultipart()) throw refuse('library.import.noFile');
      const part = await request.file();
      if (!part) throw refuse('library.import.noFile');
      if (!/\.(xlsx|xls)$/i.test(part.filename ?? '')) {
        part.file.resume();
        throw refuse('library.import.badType');
      }
      const field = part.fields.fProductJsonId as { value?: unknown } | undefined;
      const libraryId = Number(body.fProductJsonId ?? field?.value);
      if (!Number.isInteger(libraryId) || libraryId <= 0) {
        part.file.resume();
        throw refuse('library.import.noLibrary');
      }
      const dir = await mkdtemp(join(tmpdir(), 'library-import-'));
      try {
        const file = join(dir, /\.xls$/i.test(part.filename) ? 'upload.xls' : 'upload.xlsx');
        try {
          await pipeline(part.file, createWriteStream(file));
        } catch (error) {
          if (isTooLarge(error)) throw refuse('library.import.tooLarge');
          throw error;
        }
        if (part.file.truncated) throw refuse('library.import.tooLarge');
        const imported = await importFields(ctx, user!, libraryId, file);
        return new Answer({ imported }, reason('library.import.done', { count: imported }));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  });
}

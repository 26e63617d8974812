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
import multipart from '@fastify/multipart';
import { authenticate, Answer, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { describeRoute, S } from '../http/catalog';
import { Forbidden, Refusal } from '../http/envelope';
import { entity } from '../crud/engine';
import { validateBody } from '../crud/validate';
import type { User } from '../crud/types';
import { attachment } from './deviceTransfer';
import { CONF_MESSAGES, checkConf } from './productJsonConf';
import { XLSX_TYPE, checkRows, insertAll, isTooLarge, openSheet, refuseBadRows, templateBook } from './sheetImport';
import { sendMessage } from './messageCentre';

export const LIBRARY_IMPORT_PATHS = {
  import: '/biz/t-product-json-conf/import',
  template: '/biz/t-product-json-conf/template',
};
/** Spec 001 §9: 100M. */
export const LIBRARY_IMPORT_MAX_BYTES = 100 * 1024 * 1024;

export const LIBRARY_IMPORT_MESSAGES = {
  badType: '文件格式错误',
  tooLarge: '上传的Excel不能超过100M',
  noFile: '请选择导入文件',
  noLibrary: '所属描述库不能为空',
  empty: '导入文件没有数据',
  duplicateInFile: '标识符在文件中重复',
  dataType: '数据类型不正确',
  subUnknown: '下级描述库不存在',
  failed: '导入失败，请修改以下行后重新导入：',
};

const COLUMNS = [
  { key: 'fJsonKey', header: '标识符', width: 18 },
  { key: 'fJsonName', header: '功能点名称', width: 18 },
  { key: 'fJsonReadKey', header: '读取标识符', width: 16 },
  { key: 'fDataType', header: '数据类型', width: 12 },
  { key: 'fValueType', header: '值类型', width: 12 },
  { key: 'fDefaultValue', header: '默认值', width: 12 },
  { key: 'fJsonSubId', header: '下级描述库', width: 18 },
  { key: 'fJsonDes', header: '说明', width: 40 },
] as const;

/** Data types by number or by their zh-CN label (schemas/enums.json productJsonDataType). */
const DATA_TYPES: Record<string, number> = { 整数: 1, 浮点数: 2, 字符串: 3, 数组: 4, 布尔: 5, 时间: 6, 实体: 7, 实体数组: 8 };

export const templateWorkbook = () =>
  templateBook('字段', COLUMNS, { fJsonKey: 'voltage', fJsonName: '电压', fDataType: '浮点数', fValueType: 'reading', fJsonDes: '单位 V；数据类型填 1-8 或名称，值类型填字典值或名称' });

/** Reads the sheet and inserts every row, or refuses naming each bad row; nothing is half-imported. */
export async function importFields(ctx: RouteContext, user: User, libraryId: number, file: string): Promise<number> {
  const library = await ctx.db.selectFrom('t_product_json').select(['fId', 'fName']).where('fId', '=', libraryId).executeTakeFirst();
  if (!library) throw new Refusal(CONF_MESSAGES.libraryUnknown);
  const model = entity('productJsonConf');
  const valueTypes = await ctx.db.selectFrom('t_sys_dic').select(['fValue', 'fContent']).where('fKey', '=', 'Product_Property').execute();
  const libraries = await ctx.db.selectFrom('t_product_json').select(['fId', 'fName']).execute();
  const taken = new Set((await ctx.db.selectFrom('t_product_json_conf').select('fJsonKey').where('fProductJsonId', '=', libraryId).execute()).map((r) => String(r.fJsonKey)));
  const seen = new Set<string>();
  const result = await checkRows(await openSheet(file, LIBRARY_IMPORT_MESSAGES.badType), COLUMNS, (raw) => {
    const dataType = raw.fDataType === '' ? '' : DATA_TYPES[raw.fDataType] ?? (/^[1-8]$/.test(raw.fDataType) ? Number(raw.fDataType) : NaN);
    if (Number.isNaN(dataType)) throw new Refusal(LIBRARY_IMPORT_MESSAGES.dataType);
    const valueType = valueTypes.find((v) => v.fValue === raw.fValueType || v.fContent === raw.fValueType)?.fValue ?? raw.fValueType;
    let sub: number | '' = '';
    if (raw.fJsonSubId) {
      const found = libraries.find((l) => String(l.fId) === raw.fJsonSubId || l.fName === raw.fJsonSubId);
      if (!found) throw new Refusal(LIBRARY_IMPORT_MESSAGES.subUnknown);
      sub = found.fId;
    }
    const values = validateBody(model, { ...raw, fDataType: dataType, fValueType: valueType, fJsonSubId: sub, fProductJsonId: libraryId }, 'create', user);
    checkConf(values);
    const key = String(values.fJsonKey);
    if (seen.has(key)) throw new Refusal(LIBRARY_IMPORT_MESSAGES.duplicateInFile);
    if (taken.has(key)) throw new Refusal(CONF_MESSAGES.keyTaken);
    seen.add(key);
    return values;
  });
  refuseBadRows(result, LIBRARY_IMPORT_MESSAGES);
  await ctx.db.transaction().execute((trx) => insertAll(trx, 't_product_json_conf', result.rows));
  await sendMessage(ctx.db, { userIds: [user.fId], kind: 'import', params: { what: `描述库“${String(library.fName)}”的字段`, count: result.rows.length, time: new Date() } });
  return result.rows.length;
}

export function registerLibraryImportRoutes(app: FastifyInstance, ctx: RouteContext) {
  describeRoute(ctx.catalog, { path: LIBRARY_IMPORT_PATHS.template, methods: ['GET', 'POST'], codes: ['json_conf:look'], public: false, tag: 't-product-json-conf', produces: XLSX_TYPE, body: S.object({}) });
  app.route({
    method: ['GET', 'POST'],
    url: LIBRARY_IMPORT_PATHS.template,
    handler: async (request, reply) => {
      const user = await authenticate(ctx, request, reply);
      if (!user.permissions.has('json_conf:look')) throw new Forbidden();
      return reply
        .header('content-disposition', attachment('描述库字段导入模板.xlsx', 'library-fields-template.xlsx'))
        .header('access-control-expose-headers', 'content-disposition')
        .type(XLSX_TYPE)
        .send(await templateWorkbook());
    },
  });

  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: LIBRARY_IMPORT_MAX_BYTES, files: 1, fields: 10 } });
    registerCall(scope, ctx, {
      path: LIBRARY_IMPORT_PATHS.import,
      data: S.imported(),
      upload: { field: 'file', accept: 'xlsx, xls', maxBytes: LIBRARY_IMPORT_MAX_BYTES },
      permission: 'json_conf:add',
      write: true,
      logname: { key: 'productJsonConf.import', 'zh-CN': '导入描述库字段', 'zh-TW': '匯入描述庫欄位', 'en-US': 'Import library fields' },
      handler: async ({ user, body, request }) => {
        if (!request.isMultipart()) throw new Refusal(LIBRARY_IMPORT_MESSAGES.noFile);
        const part = await request.file();
        if (!part) throw new Refusal(LIBRARY_IMPORT_MESSAGES.noFile);
        if (!/\.(xlsx|xls)$/i.test(part.filename ?? '')) {
          part.file.resume();
          throw new Refusal(LIBRARY_IMPORT_MESSAGES.badType);
        }
        const field = part.fields.fProductJsonId as { value?: unknown } | undefined;
        const libraryId = Number(body.fProductJsonId ?? field?.value);
        if (!Number.isInteger(libraryId) || libraryId <= 0) {
          part.file.resume();
          throw new Refusal(LIBRARY_IMPORT_MESSAGES.noLibrary);
        }
        const dir = await mkdtemp(join(tmpdir(), 'library-import-'));
        try {
          const file = join(dir, /\.xls$/i.test(part.filename) ? 'upload.xls' : 'upload.xlsx');
          try {
            await pipeline(part.file, createWriteStream(file));
          } catch (error) {
            if (isTooLarge(error)) throw new Refusal(LIBRARY_IMPORT_MESSAGES.tooLarge, 413);
            throw error;
          }
          if (part.file.truncated) throw new Refusal(LIBRARY_IMPORT_MESSAGES.tooLarge, 413);
          const imported = await importFields(ctx, user!, libraryId, file);
          return new Answer({ imported }, `导入成功，共 ${imported} 条`);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    });
  });
}

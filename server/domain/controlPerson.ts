/**
 * Control persons, the people watch-list (spec 001 §2.6, §5): the template and the Excel import next to the
 * generic list, save and state switch. An import is all or nothing: every bad row is reported with its row
 * number and reason, and rows are stored only when none is bad, in one transaction.
 */
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import ExcelJS from 'exceljs';
import { Answer, registerCall, type RouteContext } from '../http/route';
import { describeRoute, S } from '../http/catalog';
import { Refusal } from '../http/envelope';
import { entity } from '../crud/engine';
import { validateBody } from '../crud/validate';
import type { User } from '../crud/types';
import { checkTimes } from './controlCar';
import { attachment, cellText } from './deviceTransfer';
import { sendMessage } from './messageCentre';

type Row = Record<string, unknown>;

export const CONTROL_PERSON_PATHS = {
  template: '/excel/controlPerson.xlsx',
  import: '/biz/t-control-person/importExcel',
};
/** Spec 001 §5, §9: xlsx/xls up to 2048 KB. */
export const IMPORT_LIMIT_BYTES = 2048 * 1024;
export const IMPORT_MESSAGES = {
  format: '文件格式不正确',
  size: '超出文件大小限制',
  missing: '请选择导入文件',
  empty: '导入文件没有数据',
  duplicate: '身份证号重复',
};

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The template's columns, in the order the import reads them when a sheet has no recognised header. */
export const TEMPLATE_COLUMNS = [
  { key: 'fUserName', header: '人员名称', width: 14 },
  { key: 'fUserIdcard', header: '身份证号', width: 22 },
  { key: 'fControlType', header: '布控类型(1上访/2精神病)', width: 22 },
  { key: 'fControlUser', header: '布控人', width: 12 },
  { key: 'fStartTime', header: '布控开始时间', width: 20 },
  { key: 'fEndTime', header: '布控结束时间', width: 20 },
  { key: 'fState', header: '布控状态(1启用/2禁用)', width: 20 },
  { key: 'fPhones', header: '手机号(多个用英文逗号分隔)', width: 28 },
  { key: 'fImei', header: 'IMEI', width: 18 },
  { key: 'fImsi', header: 'IMSI', width: 18 },
  { key: 'fMac', header: 'MAC地址', width: 18 },
] as const;

const CONTROL_TYPES: Record<string, string> = { 上访: '1', 精神病: '2' };
const STATES: Record<string, string> = { 启用: '1', 禁用: '2' };

/** Every save stamps the update time; the list shows the latest change. */
export async function beforeSave(values: Row) {
  checkTimes(values, ['fStartTime', 'fEndTime']);
  values.fUpdateTime = new Date();
}

export async function templateWorkbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('布控人员');
  sheet.columns = TEMPLATE_COLUMNS.map((c) => ({ header: c.header, key: c.key, width: c.width }));
  // ID numbers, phones, IMEI and IMSI stay text, never numbers in scientific notation.
  for (const key of ['fUserIdcard', 'fPhones', 'fImei', 'fImsi', 'fStartTime', 'fEndTime']) sheet.getColumn(key).numFmt = '@';
  sheet.addRow({ fUserName: '示例人员', fUserIdcard: '440106199001011234', fControlType: '1', fControlUser: '张警官', fStartTime: '2026-01-01 00:00:00', fEndTime: '2026-12-31 23:59:59', fState: '1', fPhones: '13800138000' });
  const head = sheet.getRow(1);
  head.font = { bold: true };
  head.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8F0FE' } };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A date cell in the sheet's own wall-clock time, or the typed text. */
function timeText(cell: ExcelJS.Cell): string {
  const v = cell.value;
  if (v instanceof Date) return v.toISOString().slice(0, 19).replace('T', ' ');
  return cellText(cell);
}

export interface ImportError {
  row: number;
  message: string;
}

export async function importControlPersons(ctx: RouteContext, user: User, file: Buffer): Promise<{ imported: number }> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    throw new Refusal(IMPORT_MESSAGES.format);
  }
  const sheet = book.worksheets[0];
  if (!sheet || sheet.actualRowCount < 2) throw new Refusal(IMPORT_MESSAGES.empty);
  const columns = new Map<string, number>();
  sheet.getRow(1).eachCell((cell, col) => {
    const text = cellText(cell);
    const found = TEMPLATE_COLUMNS.find((c) => c.header === text || c.header.split('(')[0] === text);
    if (found && !columns.has(found.key)) columns.set(found.key, col);
  });
  if (!columns.size) TEMPLATE_COLUMNS.forEach((c, i) => columns.set(c.key, i + 1));

  const model = entity('controlPerson');
  const values: Row[] = [];
  const errors: ImportError[] = [];
  const seen = new Set<string>();
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const raw: Record<string, string> = {};
    for (const c of TEMPLATE_COLUMNS) {
      const col = columns.get(c.key);
      raw[c.key] = col ? (c.key.endsWith('Time') ? timeText(row.getCell(col)) : cellText(row.getCell(col))) : '';
    }
    if (Object.values(raw).every((v) => v === '')) continue;
    raw.fControlType = CONTROL_TYPES[raw.fControlType] ?? raw.fControlType;
    raw.fState = STATES[raw.fState] ?? raw.fState;
    raw.fPhones = raw.fPhones.replace(/[，;；\s]+/g, ',').replace(/^,|,$/g, '');
    try {
      const checked = validateBody(model, raw, 'create', user);
      checkTimes(checked, ['fStartTime', 'fEndTime']);
      const idcard = String(checked.fUserIdcard);
      if (seen.has(idcard)) throw new Refusal(IMPORT_MESSAGES.duplicate);
      seen.add(idcard);
      checked.fUpdateTime = new Date();
      values.push(checked);
    } catch (error) {
      errors.push({ row: r, message: error instanceof Error ? error.message : String(error) });
    }
  }
  if (!values.length && !errors.length) throw new Refusal(IMPORT_MESSAGES.empty);
  if (errors.length) {
    throw new Refusal(['导入失败，未导入任何数据', ...errors.map((e) => `第${e.row}行：${e.message}`)].join('\n'));
  }
  await ctx.db.transaction().execute(async (trx) => {
    for (let i = 0; i < values.length; i += 500) await trx.insertInto('t_control_person').values(values.slice(i, i + 500) as never).execute();
  });
  await sendMessage(ctx.db, { userIds: [user.fId], kind: 'import', params: { what: '布控人员', count: values.length, time: new Date() } });
  return { imported: values.length };
}

export function registerControlPersonRoutes(app: FastifyInstance, ctx: RouteContext) {
  // A blank template holds no personal data: served without a token so a plain link downloads it.
  describeRoute(ctx.catalog, { path: CONTROL_PERSON_PATHS.template, methods: ['GET'], codes: null, public: true, tag: 't-control-person', produces: XLSX_TYPE });
  app.get(CONTROL_PERSON_PATHS.template, async (_request, reply) =>
    reply.header('content-disposition', attachment('布控人员导入模板.xlsx', 'controlPerson.xlsx')).type(XLSX_TYPE).send(await templateWorkbook()),
  );

  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: IMPORT_LIMIT_BYTES, files: 1, fields: 10 } });
    registerCall(scope, ctx, {
      path: CONTROL_PERSON_PATHS.import,
      upload: { field: 'file', accept: 'xlsx, xls', maxBytes: IMPORT_LIMIT_BYTES },
      permission: 'controlPerson:add',
      write: true,
      logname: { key: 'controlPerson.import', 'zh-CN': '导入布控人员', 'zh-TW': '匯入布控人員', 'en-US': 'Import watched persons' },
      handler: async ({ user, request }) => {
        if (!request.isMultipart()) throw new Refusal(IMPORT_MESSAGES.missing);
        let buffer: Buffer;
        try {
          const part = await request.file();
          if (!part) throw new Refusal(IMPORT_MESSAGES.missing);
          if (!/\.(xlsx|xls)$/i.test(part.filename ?? '')) {
            part.file.resume();
            throw new Refusal(IMPORT_MESSAGES.format);
          }
          buffer = await part.toBuffer();
          if (part.file.truncated) throw new Refusal(IMPORT_MESSAGES.size);
        } catch (error) {
          if (error instanceof Refusal) throw error;
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new Refusal(IMPORT_MESSAGES.size);
          throw error;
        }
        const result = await importControlPersons(ctx, user!, buffer);
        return new Answer(result, `导入成功，共 ${result.imported} 条`);
      },
    });
  });
}

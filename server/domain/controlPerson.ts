/**
 * Control persons, the people watch-list (spec 001 §2.6, §5): the template and the Excel import next to the
 * generic list, save and state switch. An import is all or nothing: every bad row is reported with its row
 * number and reason, and rows are stored only when none is bad, in one transaction.
 */
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import type ExcelJS from 'exceljs';
import { Answer, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { describeRoute, S } from '../http/catalog';
import { Refusal } from '../http/envelope';
import { entity } from '../crud/engine';
import { validateBody } from '../crud/validate';
import type { User } from '../crud/types';
import { checkTimes } from './controlCar';
import { attachment } from './deviceTransfer';
import { CONTROL_PERSON_IMPORT_REASONS } from '../../adapters/sheetImport';
import { SHEET_LIMIT_BYTES, SHEET_MESSAGES, XLSX_TYPE, cellText, checkRows, insertAll, openSheet, receiveSheet, refuseBadRows, templateBook } from './sheetImport';
import { sendMessage } from './messageCentre';

type Row = Record<string, unknown>;

export const CONTROL_PERSON_PATHS = {
  template: '/excel/controlPerson.xlsx',
  import: '/biz/t-control-person/importExcel',
};
/** Spec 001 §5, §9: xlsx/xls up to 2048 KB. */
export const IMPORT_LIMIT_BYTES = SHEET_LIMIT_BYTES;
export const IMPORT_MESSAGES = { ...SHEET_MESSAGES, ...CONTROL_PERSON_IMPORT_REASONS };

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

export const templateWorkbook = () =>
  templateBook('布控人员', TEMPLATE_COLUMNS, { fUserName: '示例人员', fUserIdcard: '440106199001011234', fControlType: '1', fControlUser: '张警官', fStartTime: '2026-01-01 00:00:00', fEndTime: '2026-12-31 23:59:59', fState: '1', fPhones: '13800138000' }, [
    // ID numbers, phones, IMEI and IMSI stay text, never numbers in scientific notation.
    'fUserIdcard', 'fPhones', 'fImei', 'fImsi', 'fStartTime', 'fEndTime',
  ]);

/** A date cell in the sheet's own wall-clock time, or the typed text. */
function timeText(cell: ExcelJS.Cell, key: string): string {
  const v = cell.value;
  if (key.endsWith('Time') && v instanceof Date) return v.toISOString().slice(0, 19).replace('T', ' ');
  return cellText(cell);
}

export async function importControlPersons(ctx: RouteContext, user: User, file: Buffer): Promise<{ imported: number }> {
  const model = entity('controlPerson');
  const seen = new Set<string>();
  const result = await checkRows(
    await openSheet(file, IMPORT_MESSAGES.format),
    TEMPLATE_COLUMNS,
    (raw) => {
      raw.fControlType = CONTROL_TYPES[raw.fControlType] ?? raw.fControlType;
      raw.fState = STATES[raw.fState] ?? raw.fState;
      raw.fPhones = raw.fPhones.replace(/[，;；\s]+/g, ',').replace(/^,|,$/g, '');
      const checked = validateBody(model, raw, 'create', user);
      checkTimes(checked, ['fStartTime', 'fEndTime']);
      const idcard = String(checked.fUserIdcard);
      if (seen.has(idcard)) throw new Refusal(IMPORT_MESSAGES.duplicate);
      seen.add(idcard);
      checked.fUpdateTime = new Date();
      return checked;
    },
    timeText,
  );
  refuseBadRows(result, { failed: SHEET_MESSAGES.failed, empty: IMPORT_MESSAGES.empty });
  await ctx.db.transaction().execute((trx) => insertAll(trx, 't_control_person', result.rows));
  await sendMessage(ctx.db, { userIds: [user.fId], kind: 'import', params: { what: '布控人员', count: result.rows.length, time: new Date() } });
  return { imported: result.rows.length };
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
      data: S.imported(),
      upload: { field: 'file', accept: 'xlsx, xls', maxBytes: IMPORT_LIMIT_BYTES },
      permission: 'controlPerson:add',
      write: true,
      logname: { key: 'controlPerson.import', 'zh-CN': '导入布控人员', 'zh-TW': '匯入布控人員', 'en-US': 'Import watched persons' },
      handler: async ({ user, request }) => {
        const { data: buffer } = await receiveSheet(request, IMPORT_MESSAGES);
        const result = await importControlPersons(ctx, user!, buffer);
        return new Answer(result, `导入成功，共 ${result.imported} 条`);
      },
    });
  });
}

/**
 * Devices in and out as files (spec 000 §2 template and import, §5 import limits, §7): the import
 * template, an export of the devices the user sees under the list's condition, the import itself, and a
 * zip of QR codes. The import reports row by row and saves every valid row in one transaction, so a
 * partly bad sheet still brings in what it can and the reasons for the rest.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type ExcelJS from 'exceljs';
import JSZip from 'jszip';
import QRCode from 'qrcode';
import { cellText, newWorkbook } from './sheetImport';
import { Answer, authenticate, registerCall, type RouteContext } from '../http/route';
import { checkBody, describeRoute, S, type JsonSchema } from '../http/catalog';
import { Forbidden, Refusal } from '../http/envelope';
import { entity, scoped } from '../crud/engine';
import { applyFilters } from '../crud/query';
import { formatRow } from '../crud/format';
import { messageFor, validateBody } from '../crud/validate';
import { isAdmin, type User } from '../crud/types';
import { idList } from '../http/guard';

export const TRANSFER_PATHS = {
  template: '/biz/t-device/download-device',
  export: '/biz/t-device/download-data',
  import: '/biz/t-device/import',
  qrcode: '/biz/t-device/qrcode',
};

export const IMPORT_PERMISSION = 'device:upload';
/** Exports show what the list already shows, so the list's read code is enough. */
export const EXPORT_PERMISSION = 'device:list';
/** Spec §5: 100M (102400 KB). */
export const IMPORT_MAX_BYTES = 100 * 1024 * 1024;
const EXPORT_CAP = 100_000;
const QR_CAP = 10_000;

export const TRANSFER_MESSAGES = {
  badType: '文件格式不正确',
  tooLarge: '超出文件大小限制',
  noFile: '请选择导入文件',
  empty: '导入文件没有数据',
  productRequired: '所属产品不能为空',
  productUnknown: '所属产品不存在',
  duplicateInFile: '设备编号重复',
  noDevices: '请选择设备',
};

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The template's columns; the export starts with the same ones, so an export can be imported again. */
const COLUMNS = [
  { key: 'productNumber', header: '产品编号', aliases: ['product number', '所属产品编号', '产品'], width: 16 },
  { key: 'fNumber', header: '设备编号', aliases: ['device number', '设备id', '设备ID'], width: 22 },
  { key: 'fName', header: '设备名称', aliases: ['name', 'device name', '名称'], width: 22 },
  { key: 'fImei', header: 'IMEI', aliases: [], width: 20 },
  { key: 'fIccid', header: 'ICCID', aliases: [], width: 24 },
  { key: 'fRemork', header: '备注', aliases: ['remark', 'remarks'], width: 30 },
] as const;
type ColumnKey = (typeof COLUMNS)[number]['key'];

const EXTRA_EXPORT_COLUMNS = [
  { key: 'productName', header: '产品名称', width: 18 },
  { key: 'online', header: '在线状态', width: 10 },
  { key: 'status', header: '激活状态', width: 10 },
  { key: 'fLastOnlineTime', header: '最后在线时间', width: 20 },
  { key: 'fIntime', header: '创建时间', width: 20 },
];

/** RFC 5987: a plain ASCII fallback for old clients, the UTF-8 name for everyone else. */
export function attachment(fileName: string, fallback: string): string {
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function sendFile(reply: FastifyReply, data: Buffer, type: string, fileName: string, fallback: string) {
  return reply.header('content-disposition', attachment(fileName, fallback)).header('access-control-expose-headers', 'content-disposition').type(type).send(data);
}

function jsonBody(request: FastifyRequest): Record<string, unknown> {
  return request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
}

/** A file answer still refuses with the envelope, so the console can show the message. */
function fileRoute(app: FastifyInstance, ctx: RouteContext, path: string, permission: string, body: JsonSchema, handler: (user: User, body: Record<string, unknown>, reply: FastifyReply) => Promise<unknown>) {
  describeRoute(ctx.catalog, { path, methods: ['POST'], codes: [permission], public: false, tag: 't-device', produces: path === TRANSFER_PATHS.qrcode ? 'application/zip' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', body });
  app.route({
    method: 'POST',
    url: path,
    handler: async (request, reply) => {
      const user = await authenticate(ctx, request, reply);
      if (!user.permissions.has(permission)) throw new Forbidden();
      // The body the document shows is the one checked, as registerCall does for enveloped calls.
      checkBody({ body }, request.body ?? {});
      return handler(user, { ...(request.query as Record<string, unknown>), ...jsonBody(request) }, reply);
    },
  });
}

function styleHeader(sheet: ExcelJS.Worksheet) {
  const head = sheet.getRow(1);
  head.font = { bold: true };
  head.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8F0FE' } };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
}

export async function templateWorkbook(): Promise<Buffer> {
  const book = await newWorkbook();
  const sheet = book.addWorksheet('设备');
  sheet.columns = COLUMNS.map((c) => ({ header: c.header, key: c.key, width: c.width }));
  // Long digit strings (IMEI, ICCID) must stay text, not turn into numbers in scientific notation.
  for (const key of ['productNumber', 'fNumber', 'fImei', 'fIccid'] as const) sheet.getColumn(key).numFmt = '@';
  styleHeader(sheet);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function exportWorkbook(ctx: RouteContext, user: User, condition: Record<string, unknown>): Promise<Buffer> {
  const model = entity('device');
  const rows = await applyFilters(scoped(ctx, model, user), model, condition).orderBy('t_device.fId', 'desc').limit(EXPORT_CAP).execute();
  const productIds = [...new Set(rows.map((r) => r.fProductId).filter((v) => v !== null && v !== undefined))] as number[];
  const products = productIds.length ? await ctx.db.selectFrom('t_product').select(['fId', 'fNumber', 'fName']).where('fId', 'in', productIds).execute() : [];
  const byId = new Map(products.map((p) => [p.fId, p]));
  const book = await newWorkbook();
  const sheet = book.addWorksheet('设备');
  sheet.columns = [...COLUMNS, ...EXTRA_EXPORT_COLUMNS].map((c) => ({ header: c.header, key: c.key, width: c.width }));
  for (const raw of rows) {
    const r = formatRow(raw as Record<string, unknown>, ctx.timeZone);
    const product = byId.get(r.fProductId as number);
    sheet.addRow({
      productNumber: product?.fNumber ?? '',
      fNumber: r.fNumber ?? '',
      fName: r.fName ?? '',
      fImei: r.fImei ?? '',
      fIccid: r.fIccid ?? '',
      fRemork: r.fRemork ?? '',
      productName: product?.fName ?? '',
      online: Number(r.tOnline) === 1 ? '在线' : '离线',
      status: Number(r.fStatus) === 1 ? '已激活' : '未激活',
      fLastOnlineTime: r.fLastOnlineTime ?? '',
      fIntime: r.fIntime ?? '',
    });
  }
  styleHeader(sheet);
  return Buffer.from(await book.xlsx.writeBuffer());
}

export interface ImportRowError {
  row: number;
  fNumber: string;
  message: string;
}

export interface ImportResult {
  total: number;
  imported: number;
  failed: number;
  errors: ImportRowError[];
}

/** Columns by their header text; a sheet whose first row names none of them is read in template order. */
function columnMap(header: ExcelJS.Row): Map<ColumnKey, number> {
  const map = new Map<ColumnKey, number>();
  header.eachCell((cell, col) => {
    const text = cellText(cell).toLowerCase();
    const found = COLUMNS.find((c) => c.header.toLowerCase() === text || c.aliases.some((a) => a.toLowerCase() === text));
    if (found && !map.has(found.key)) map.set(found.key, col);
  });
  return map;
}

/** ImportResult as the document shows it. */
const IMPORT_RESULT = S.object({
  total: { type: 'integer' }, imported: { type: 'integer' }, failed: { type: 'integer' },
  errors: S.array(S.object({ row: { type: 'integer' }, fNumber: S.string(), message: { type: 'string' } })),
});

export function importText(result: ImportResult): string {
  const lines = [`导入完成：共 ${result.total} 条，成功 ${result.imported} 条，失败 ${result.failed} 条`];
  for (const e of result.errors) lines.push(`第${e.row}行${e.fNumber ? `（${e.fNumber}）` : ''}：${e.message}`);
  return lines.join('\n');
}

export async function importDevices(ctx: RouteContext, user: User, file: Buffer): Promise<ImportResult> {
  const book = await newWorkbook();
  try {
    await book.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    throw new Refusal(TRANSFER_MESSAGES.badType);
  }
  const sheet = book.worksheets[0];
  if (!sheet || sheet.actualRowCount < 2) throw new Refusal(TRANSFER_MESSAGES.empty);
  const header = columnMap(sheet.getRow(1));
  const columns = header.size ? header : new Map(COLUMNS.map((c, i) => [c.key, i + 1] as [ColumnKey, number]));

  const model = entity('device');
  const products = await ctx.db.selectFrom('t_product').select(['fId', 'fNumber', 'fDeviceType']).execute();
  const productByNumber = new Map(products.map((p) => [String(p.fNumber).trim(), p]));

  type Candidate = { row: number; values: Record<string, unknown> };
  const candidates: Candidate[] = [];
  const errors: ImportRowError[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const get = (key: ColumnKey) => {
      const col = columns.get(key);
      return col ? cellText(row.getCell(col)) : '';
    };
    const raw = Object.fromEntries(COLUMNS.map((c) => [c.key, get(c.key)])) as Record<ColumnKey, string>;
    if (Object.values(raw).every((v) => v === '')) continue;
    total++;
    const refuse = (message: string) => errors.push({ row: r, fNumber: raw.fNumber, message });
    if (!raw.productNumber) {
      refuse(TRANSFER_MESSAGES.productRequired);
      continue;
    }
    const product = productByNumber.get(raw.productNumber);
    if (!product) {
      refuse(TRANSFER_MESSAGES.productUnknown);
      continue;
    }
    if (!raw.fNumber) {
      refuse(messageFor(model, 'fNumber', 'required'));
      continue;
    }
    if (seen.has(raw.fNumber)) {
      refuse(TRANSFER_MESSAGES.duplicateInFile);
      continue;
    }
    seen.add(raw.fNumber);
    let values: Record<string, unknown>;
    try {
      values = validateBody(model, { fProductId: product.fId, fNumber: raw.fNumber, fName: raw.fName, fImei: raw.fImei, fIccid: raw.fIccid, fRemork: raw.fRemork }, 'create', user);
    } catch (error) {
      refuse(error instanceof Error ? error.message : String(error));
      continue;
    }
    values.fTypeId = product.fDeviceType;
    // As with a device added by hand: an agent's import is the agent's; others' belong to no agent.
    values.fUserId = user.fAdmin === 2 ? user.fId : null;
    candidates.push({ row: r, values });
  }
  if (!total) throw new Refusal(TRANSFER_MESSAGES.empty);

  if (candidates.length) {
    const numbers = candidates.map((c) => c.values.fNumber as string);
    const taken = new Set<string>();
    for (let i = 0; i < numbers.length; i += 1000) {
      const found = await ctx.db.selectFrom('t_device').select('fNumber').where('fNumber', 'in', numbers.slice(i, i + 1000)).execute();
      for (const f of found) taken.add(String(f.fNumber));
    }
    const unique = messageFor(model, 'fNumber', 'unique');
    for (const c of candidates.filter((c) => taken.has(c.values.fNumber as string))) errors.push({ row: c.row, fNumber: c.values.fNumber as string, message: unique });
    const fresh = candidates.filter((c) => !taken.has(c.values.fNumber as string));
    if (fresh.length) {
      await ctx.db.transaction().execute(async (trx) => {
        for (let i = 0; i < fresh.length; i += 500) {
          const inserted = await trx
            .insertInto('t_device')
            .values(fresh.slice(i, i + 500).map((c) => c.values) as never)
            .returning('fId')
            .execute();
          // An ordinary user's devices are reached through the share table, as when added by hand.
          if (user.fAdmin === 0 && !isAdmin(user)) {
            await trx
              .insertInto('t_user_device')
              .values(inserted.map((d) => ({ fUserId: user.fId, fDeviceId: d.fId, fOwner: 1 })))
              .execute();
          }
        }
      });
    }
    candidates.splice(0, candidates.length, ...fresh);
  }
  errors.sort((a, b) => a.row - b.row);
  return { total, imported: candidates.length, failed: errors.length, errors };
}


/** A device number as a file name: the characters file systems refuse become underscores. */
const safeName = (s: string) => s.replace(/[\\/:*?"<>|\x00-\x1f]/g, '_') || 'device';

export async function qrcodeZip(ctx: RouteContext, user: User, ids: number[]): Promise<{ zip: Buffer; count: number }> {
  if (!ids.length) throw new Refusal(TRANSFER_MESSAGES.noDevices);
  const devices = await scoped(ctx, entity('device'), user).where('t_device.fId', 'in', ids.slice(0, QR_CAP)).orderBy('t_device.fId', 'asc').execute();
  if (!devices.length) throw new Refusal('设备不存在或无权操作');
  const zip = new JSZip();
  const used = new Set<string>();
  for (const d of devices) {
    const number = String(d.fNumber);
    let name = `${safeName(number)}.png`;
    for (let i = 2; used.has(name); i++) name = `${safeName(number)}_${i}.png`;
    used.add(name);
    zip.file(name, await QRCode.toBuffer(number, { type: 'png', width: 320, margin: 2, errorCorrectionLevel: 'M' }));
  }
  return { zip: await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }), count: devices.length };
}

function isTooLarge(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT' || (error as { statusCode?: number }).statusCode === 413;
}

export function registerTransferRoutes(app: FastifyInstance, ctx: RouteContext) {
  fileRoute(app, ctx, TRANSFER_PATHS.template, EXPORT_PERMISSION, S.object({}), async (_user, _body, reply) =>
    sendFile(reply, await templateWorkbook(), XLSX_TYPE, '设备导入模板.xlsx', 'device-template.xlsx'),
  );
  // The device list's search: its filters' condition keys.
  const exportBody = S.object({ condition: { type: ['object', 'null'], properties: Object.fromEntries(entity('device').filters.map((f) => [f.key, S.any()])) } });
  fileRoute(app, ctx, TRANSFER_PATHS.export, EXPORT_PERMISSION, exportBody, async (user, body, reply) => {
    const condition = body.condition && typeof body.condition === 'object' ? (body.condition as Record<string, unknown>) : {};
    return sendFile(reply, await exportWorkbook(ctx, user, condition), XLSX_TYPE, '设备数据.xlsx', 'devices.xlsx');
  });
  fileRoute(app, ctx, TRANSFER_PATHS.qrcode, EXPORT_PERMISSION, S.object({ fIds: S.ids('the chosen devices'), deviceIds: S.ids('the same, as older callers name it'), ids: S.ids('the same') }), async (user, body, reply) => {
    // Callers name the selection fIds, deviceIds or ids (the contract's pages differ).
    const field = (['fIds', 'deviceIds', 'ids'] as const).find((k) => body[k] !== undefined && body[k] !== null) ?? 'fIds';
    const { zip } = await qrcodeZip(ctx, user, idList(body[field], field));
    return sendFile(reply, zip, 'application/zip', '设备二维码.zip', 'device-qrcodes.zip');
  });

  // Multipart only where it is needed: every other call keeps the JSON body parser alone.
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10 } });
    registerCall(scope, ctx, {
      path: TRANSFER_PATHS.import,
      data: IMPORT_RESULT,
      upload: { field: 'file', accept: 'xlsx, xls', maxBytes: IMPORT_MAX_BYTES },
      permission: IMPORT_PERMISSION,
      write: true,
      logname: { key: 'device.import', 'zh-CN': '设备导入', 'zh-TW': '設備匯入', 'en-US': 'Import devices' },
      handler: async ({ user, request }) => {
        if (!request.isMultipart()) throw new Refusal(TRANSFER_MESSAGES.noFile);
        let buffer: Buffer;
        let fileName: string;
        try {
          const part = await request.file();
          if (!part) throw new Refusal(TRANSFER_MESSAGES.noFile);
          fileName = part.filename ?? '';
          if (!/\.(xlsx|xls)$/i.test(fileName)) {
            part.file.resume();
            throw new Refusal(TRANSFER_MESSAGES.badType);
          }
          buffer = await part.toBuffer();
        } catch (error) {
          if (error instanceof Refusal) throw error;
          if (isTooLarge(error)) throw new Refusal(TRANSFER_MESSAGES.tooLarge, 413);
          throw error;
        }
        const result = await importDevices(ctx, user!, buffer);
        return new Answer(result, importText(result));
      },
    });
  });
}

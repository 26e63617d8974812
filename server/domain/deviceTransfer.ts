/**
 * Devices in and out as files (spec 000 §2 template and import, §5 import limits, §7): the import
 * template, an export of the devices the user sees under the list's condition, the import itself, and a
 * zip of QR codes.
 *
 * The import is all or nothing, like the product's other imports (sheetImport.ts): a file up to the
 * spec's 100M and DEVICE_IMPORT_MAX_ROWS rows is received to a temporary file, read as a stream and
 * every row checked before anything is written — a bad row refuses the whole file, naming each bad row
 * and its reason (the first thousand of them, and how many more) — and then written in batches inside
 * one transaction. Neither side holds the file or
 * its rows in memory: the checked rows wait in a second temporary file between the two passes. Batches
 * give the event loop a turn, so the server keeps answering while a million rows go in, and the
 * importing console hears how far it has got through the live event stream (`deviceImport`).
 *
 * The export streams too: pages of the devices read by id from the database go out through the
 * spreadsheet writer as they are read, so its memory does not grow with the number of devices.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type ExcelJS from 'exceljs';
import JSZip from 'jszip';
import QRCode from 'qrcode';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { PassThrough, type Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import { cellText, isTooLarge, newWorkbook, SHEET_MESSAGES } from './sheetImport';
import { Answer, authenticate, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { checkBody, describeRoute, S, type JsonSchema } from '../http/catalog';
import { Forbidden, Refusal } from '../http/envelope';
import { entity, scoped } from '../crud/engine';
import { applyFilters } from '../crud/query';
import { formatRow } from '../crud/format';
import { messageFor, validateBody } from '../crud/validate';
import { isAdmin, type User } from '../crud/types';
import { idList } from '../http/guard';
import { runsOneAtATime, type DB } from '../db';
import { publish, type Relay } from '../relay';
import { IMPORT_ID, IMPORT_PROGRESS_FIELD, type DeviceImportPhase, type DeviceImportProgress } from '../../adapters/deviceImport';
import { DEFAULT_DEVICE_IMPORT_MAX_ROWS } from '../config';

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
/**
 * The most devices one export holds: what the list shows under its condition, newest first, up to this
 * many. Read a page at a time and streamed out, an export's memory does not grow with it; its time does
 * (docs/performance.md, "Device import and export").
 */
export const EXPORT_CAP = 100_000;
/** Devices an export reads at once, by id (keyset), newest first. */
const EXPORT_PAGE = 1_000;
/** Rows of an export written between two turns of the event loop. */
const EXPORT_RUN = 100;
const QR_CAP = 10_000;
/**
 * Rows one INSERT writes: a statement of a fraction of a second. The embedded database runs each in the
 * server's own thread, so it takes smaller ones there, the event loop turning between them.
 */
const writeBatch = (db: DB) => (runsOneAtATime(db) ? 1_000 : 2_000);
/** The columns of a checked row that hold whole numbers (the others are text). */
const INTEGER_COLUMNS = new Set(['fProductId', 'fTypeId', 'fUserId']);
/** Device numbers looked up in the database with one statement while the file is checked. */
const CHECK_BATCH = 5_000;
/** An import of this many rows or more has the device table's statistics taken again once it is in. */
const ANALYZE_AFTER = 10_000;
/** Bad rows a refusal lists one by one; past them it says how many more there are. */
const LISTED_ERRORS = 1_000;
/** Progress goes to the console at most this often (and at every change of phase). */
const PROGRESS_MS = 250;

export const TRANSFER_MESSAGES = {
  badType: '文件格式不正确',
  tooLarge: '超出文件大小限制',
  noFile: '请选择导入文件',
  empty: '导入文件没有数据',
  productRequired: '所属产品不能为空',
  productUnknown: '所属产品不存在',
  duplicateInFile: '设备编号重复',
  noDevices: '请选择设备',
  /** The first line of a refused file: nothing of it was written. */
  failed: SHEET_MESSAGES.failed,
};

/** A file of more rows than DEVICE_IMPORT_MAX_ROWS, refused before anything is written. */
export const tooManyRows = (max: number) => `导入行数超出限制（最多${max}行）`;
/** The last line of a refusal with more bad rows than it lists. */
const moreBadRows = (count: number) => `……另有${count}行有误`;

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

/** Waits until the stream has room again, or is gone (the client went away). */
async function room(stream: Writable): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return;
  await Promise.race([once(stream, 'drain'), once(stream, 'close')]);
}

/**
 * The devices the user sees under the list's condition, newest first, up to EXPORT_CAP, written to the
 * reply as the workbook is made: pages of EXPORT_PAGE rows read after the last id of the page before
 * (no offset to skip over), each written once the reply has room for it, with a turn of the event loop
 * in between. The first page is read before the answer starts, so a refusal still answers the envelope;
 * past it, a failure can only cut the download short.
 */
async function exportDevices(ctx: RouteContext, user: User, condition: Record<string, unknown>, reply: FastifyReply) {
  const model = entity('device');
  const page = (before: number | null, size: number) => {
    let query = applyFilters(scoped(ctx, model, user), model, condition);
    if (before !== null) query = query.where('t_device.fId', '<', before);
    return query.orderBy('t_device.fId', 'desc').limit(size).execute() as Promise<Record<string, unknown>[]>;
  };
  let rows = await page(null, Math.min(EXPORT_PAGE, EXPORT_CAP));
  const products = new Map<number, { fNumber: unknown; fName: unknown }>();
  const readProducts = async (batch: Record<string, unknown>[]) => {
    const missing = [...new Set(batch.map((r) => r.fProductId as number).filter((id) => id !== null && id !== undefined && !products.has(id)))];
    if (!missing.length) return;
    for (const p of await ctx.db.selectFrom('t_product').select(['fId', 'fNumber', 'fName']).where(sql<boolean>`f_id = any(${missing})`).execute()) products.set(p.fId as number, p);
  };
  await readProducts(rows);

  const { default: excel } = await import('exceljs');
  const out = new PassThrough();
  const book = new excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet('设备', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [...COLUMNS, ...EXTRA_EXPORT_COLUMNS].map((c) => ({ header: c.header, key: c.key, width: c.width }));
  const head = sheet.getRow(1);
  head.font = { bold: true };
  head.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8F0FE' } };
  head.commit();
  void reply.header('content-disposition', attachment('设备数据.xlsx', 'devices.xlsx')).header('access-control-expose-headers', 'content-disposition').type(XLSX_TYPE).send(out);

  void (async () => {
    let written = 0;
    while (rows.length && !out.destroyed) {
      for (const [i, raw] of rows.entries()) {
        if (i && i % EXPORT_RUN === 0) await nextTurn();
        const r = formatRow(raw, ctx.timeZone);
        const product = products.get(r.fProductId as number);
        sheet
          .addRow({
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
          })
          .commit();
      }
      written += rows.length;
      const left = EXPORT_CAP - written;
      const last = rows[rows.length - 1].fId as number;
      rows = [];
      await room(out);
      await nextTurn();
      if (left > 0 && !out.destroyed) {
        rows = await page(last, Math.min(EXPORT_PAGE, left));
        await readProducts(rows);
      }
    }
    if (out.destroyed) return;
    sheet.commit();
    await book.commit();
  })().catch((error: unknown) => {
    // The answer has started: all that is left is to end it, short, and say why in the log.
    reply.log.error({ err: { type: (error as Error).name, message: String((error as Error).message ?? error) } }, 'device export cut short');
    out.destroy(error as Error);
  });
  return reply;
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
function columnMap(header: ExcelJS.Row | undefined, strings: StringTable): Map<ColumnKey, number> {
  const map = new Map<ColumnKey, number>();
  header?.eachCell((cell, col) => {
    const text = textOf(cell, strings).toLowerCase();
    const found = COLUMNS.find((c) => c.header.toLowerCase() === text || c.aliases.some((a) => a.toLowerCase() === text));
    if (found && !map.has(found.key)) map.set(found.key, col);
  });
  return map.size ? map : new Map(COLUMNS.map((c, i) => [c.key, i + 1] as [ColumnKey, number]));
}

/** ImportResult as the document shows it. */
const IMPORT_RESULT = S.object({
  total: { type: 'integer' }, imported: { type: 'integer' }, failed: { type: 'integer' },
  errors: S.array(S.object({ row: { type: 'integer' }, fNumber: S.string(), message: { type: 'string' } })),
});

/** A bad row's line: its number on the sheet, its device number where it has one, its reason. */
const badRowLine = (e: ImportRowError) => `第${e.row}行${e.fNumber ? `（${e.fNumber}）` : ''}：${e.message}`;

export function importText(result: ImportResult): string {
  return `导入完成：共 ${result.total} 条，成功 ${result.imported} 条`;
}

/** How far an import has got, without its id (the route adds it). */
export type ImportProgress = Omit<DeviceImportProgress, 'id'>;

export interface ImportOptions {
  /** DEVICE_IMPORT_MAX_ROWS: a file of more rows is refused before anything is written. */
  maxRows: number;
  /** Told how far the import has got, row by row; `final` at the end of a phase. */
  onProgress?: (progress: ImportProgress, final?: boolean) => void;
}

/** What the import needs of the server: its database. */
export type ImportContext = Pick<RouteContext, 'db'>;

/** A worksheet of the streaming reader: its rows, and the temporary copy of it they are read from. */
type SheetReader = AsyncIterable<ExcelJS.Row> & { iterator?: { path?: string; destroy?: () => void } };
/** What the streaming reader yields as it goes through the file: events, and each shared string bare (`index`, `text`). */
type ReaderEvent = { eventType?: string; value?: unknown; index?: number; text?: unknown };

/**
 * A workbook's shared strings, packed: their UTF-8 bytes end to end in chunks of CHUNK_BYTES (a string
 * never straddles two), and where each one starts and ends, counted over all the chunks. A million rows
 * of a spreadsheet program's file hold a few million of them, which as JavaScript strings would take
 * several times the room; the chunks are never copied to grow.
 */
export class StringTable {
  /** A power of two: a position's chunk is its high bits. */
  static readonly CHUNK_BYTES = 4 * 1024 * 1024;
  /** Positions are 32-bit: almost 4 GB of strings, far beyond what an upload of 100M unpacks to in earnest. */
  static readonly MAX_CHUNKS = 2 ** 32 / StringTable.CHUNK_BYTES - 1;
  readonly #chunks: Buffer[] = [];
  /** Where the next string goes. */
  #end = 0;
  #starts = new Uint32Array(1 << 16);
  #ends = new Uint32Array(1 << 16);
  #count = 0;

  push(text: string) {
    // A cell holds at most 32,767 characters: always less than a chunk.
    const length = Buffer.byteLength(text);
    const size = StringTable.CHUNK_BYTES;
    if (this.#end + length > this.#chunks.length * size) {
      if (this.#chunks.length >= StringTable.MAX_CHUNKS) throw new Refusal(TRANSFER_MESSAGES.tooLarge);
      this.#end = this.#chunks.length * size;
      this.#chunks.push(Buffer.allocUnsafe(size));
    }
    if (this.#count === this.#ends.length) {
      const grown = Math.ceil(this.#count * 1.5);
      const starts = new Uint32Array(grown);
      starts.set(this.#starts);
      this.#starts = starts;
      const ends = new Uint32Array(grown);
      ends.set(this.#ends);
      this.#ends = ends;
    }
    const last = this.#chunks.length - 1;
    this.#starts[this.#count] = this.#end;
    this.#end += this.#chunks[last].write(text, this.#end - last * size);
    this.#ends[this.#count++] = this.#end;
  }

  get(index: number): string {
    if (!(index >= 0 && index < this.#count)) return '';
    const start = this.#starts[index];
    // An empty string at the very end of a full chunk starts where no chunk is.
    if (start === this.#ends[index]) return '';
    const chunk = Math.floor(start / StringTable.CHUNK_BYTES);
    const offset = chunk * StringTable.CHUNK_BYTES;
    return this.#chunks[chunk].toString('utf8', start - offset, this.#ends[index] - offset);
  }
}

/** FNV-1a over a string's UTF-16 code units. */
function hashOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * A set of strings kept in a StringTable, found through an open-addressing table of their numbers: the
 * import's device numbers, to find a number given twice in one file. A million of them take a few tens
 * of megabytes outside the JavaScript heap, against more than a hundred in a Set of strings and the
 * garbage collector's room around them.
 */
export class StringSet {
  readonly #strings = new StringTable();
  /** Each stored string's hash, by its number in the table. */
  #hashes = new Uint32Array(1 << 15);
  /** Per slot, the stored string's number plus one; 0 is a free slot. Never more than half full. */
  #slots = new Uint32Array(1 << 16);
  #size = 0;

  get size() {
    return this.#size;
  }

  /** Adds the string; answers false when it was in the set already. */
  add(text: string): boolean {
    if ((this.#size + 1) * 2 > this.#slots.length) this.#grow();
    const hash = hashOf(text);
    const mask = this.#slots.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const slot = this.#slots[i];
      if (slot === 0) {
        this.#strings.push(text);
        if (this.#size === this.#hashes.length) {
          const hashes = new Uint32Array(this.#hashes.length * 2);
          hashes.set(this.#hashes);
          this.#hashes = hashes;
        }
        this.#hashes[this.#size] = hash;
        this.#slots[i] = ++this.#size;
        return true;
      }
      if (this.#hashes[slot - 1] === hash && this.#strings.get(slot - 1) === text) return false;
    }
  }

  #grow() {
    const slots = new Uint32Array(this.#slots.length * 2);
    const mask = slots.length - 1;
    for (let n = 0; n < this.#size; n++) {
      let i = this.#hashes[n] & mask;
      while (slots[i] !== 0) i = (i + 1) & mask;
      slots[i] = n + 1;
    }
    this.#slots = slots;
  }
}

/** A shared string as the reader emits it: plain text, or rich text in runs. */
function sharedText(text: unknown): string {
  if (typeof text === 'string') return text;
  const runs = (text as { richText?: { text?: unknown }[] } | null)?.richText;
  return Array.isArray(runs) ? runs.map((r) => (typeof r.text === 'string' ? r.text : '')).join('') : '';
}

/** A cell of the streaming reader as the text a person typed: a shared string looked up in the table. */
function textOf(cell: ExcelJS.Cell, strings: StringTable): string {
  const v = cell.value as unknown;
  if (v && typeof v === 'object' && 'sharedString' in v) return strings.get(Number((v as { sharedString: unknown }).sharedString)).trim();
  return cellText(cell);
}

/**
 * The rows of the workbook's first sheet, one by one, read as a stream, its shared strings kept in
 * `strings`. The reader goes through the file once, packing the shared strings and copying each sheet to
 * a temporary file as it meets it (spreadsheet programs write the shared strings after the sheets), then
 * reads the first sheet's copy. However the reading ends — every row read, a refusal part-way, a damaged
 * file — the reader is taken to its end, so that it removes every copy it made. A file that is no
 * workbook is `badType`.
 */
async function* sheetRows(file: string, strings: StringTable): AsyncGenerator<ExcelJS.Row> {
  const { default: excel } = await import('exceljs');
  const input = createReadStream(file);
  const reader = new excel.stream.xlsx.WorkbookReader(input, { sharedStrings: 'emit', styles: 'cache', hyperlinks: 'ignore', worksheets: 'emit', entries: 'ignore' });
  const events = reader.parse() as AsyncGenerator<ReaderEvent>;
  const copies: string[] = [];
  // A sheet not read (or no longer): its copy closed, and removed at the end should the reader not have.
  const pass = (sheet: SheetReader) => {
    const source = sheet.iterator;
    if (source?.path) copies.push(source.path);
    source?.destroy?.();
  };
  let ended = false;
  let sheets = 0;
  try {
    for (;;) {
      const next = await events.next();
      if (next.done) break;
      const event = next.value as ReaderEvent;
      if (typeof event.index === 'number') strings.push(sharedText(event.text));
      else if (event.eventType === 'worksheet') {
        const sheet = event.value as SheetReader;
        // Only the first sheet is read; the others are passed over unread.
        if (sheets++) pass(sheet);
        else {
          yield* sheet;
          pass(sheet);
        }
      }
    }
    ended = true;
  } catch (error) {
    ended = true;
    // What the reader throws (a damaged zip, XML that is no sheet) means the file is no workbook; the
    // system's own failures (a full disk) stay what they are.
    if ((error as NodeJS.ErrnoException).syscall) throw error;
    throw new Refusal(TRANSFER_MESSAGES.badType);
  } finally {
    if (!ended) {
      // Left part-way (a refusal): the rest of the reader's work is only passing over the sheets' copies.
      try {
        for (let next = await events.next(); !next.done; next = await events.next()) if (next.value.eventType === 'worksheet') pass(next.value.value as SheetReader);
      } catch {
        // Nothing more to learn from a file already refused.
      }
    }
    input.destroy();
    await Promise.all(copies.map((path) => rm(path, { force: true })));
  }
}

/** Appends lines to a file, waiting whenever the disk is behind. */
class Spool {
  readonly #out: WriteStream;
  #error: Error | null = null;
  constructor(readonly path: string) {
    this.#out = createWriteStream(path);
    // Kept for the next write (a full disk); one after destroy() (a refused file) goes nowhere.
    this.#out.on('error', (error) => (this.#error ??= error));
  }
  async write(line: string) {
    if (this.#error) throw this.#error;
    if (!this.#out.write(line + '\n')) await once(this.#out, 'drain');
  }
  async close() {
    if (this.#error) throw this.#error;
    this.#out.end();
    await once(this.#out, 'finish');
  }
  destroy() {
    this.#out.destroy();
  }
}

/** How far an import has got, and how to tell it. */
interface Tracker {
  progress: ImportProgress;
  report: (phase: DeviceImportPhase, final?: boolean) => void;
}

/**
 * Imports a workbook of devices, all or nothing: reads the file at `file` as a stream, checks every row
 * (product, number, the device schema's rules, numbers taken in the file or in the database), and
 * refuses the file naming each bad row when there is any, or more rows than `maxRows`; otherwise
 * writes every row in batches inside one transaction. The checked rows wait in a temporary file beside
 * the upload between the two passes, so memory holds only the file's shared strings and device numbers
 * (to find repeats), and those only while it is read.
 */
export async function importDevices(ctx: ImportContext, user: User, file: string, options: ImportOptions): Promise<ImportResult> {
  const progress: ImportProgress = { phase: 'read', read: 0, checked: 0, written: 0, total: 0 };
  const tracker: Tracker = { progress, report: (phase, final = false) => options.onProgress?.({ ...progress, phase }, final) };
  const spool = new Spool(`${file}.rows`);
  try {
    await checkFile(ctx, user, file, spool, options.maxRows, tracker);
    progress.total = progress.read;
    tracker.report('write', true);
    await writeRows(ctx, user, spool.path, tracker);
    tracker.report('done', true);
    // The planner's figures of a table that has just grown by many rows are those of a small one: the
    // next export or list would take a plan fit for a few rows (a sort of all of them on every page).
    // Taken afresh at once rather than when autovacuum comes by; the answer does not wait for it.
    if (progress.written >= ANALYZE_AFTER) void sql`analyze t_device`.execute(ctx.db).catch(() => undefined);
    return { total: progress.total, imported: progress.written, failed: 0, errors: [] };
  } catch (error) {
    tracker.report('failed', true);
    throw error;
  } finally {
    spool.destroy();
    await rm(spool.path, { force: true });
  }
}

/**
 * The first pass: every row read and checked, the good ones appended to the spool (until a bad one is
 * met: the file is refused then, and only the reasons matter). Refuses the file with every bad row, or
 * as soon as it holds more than `maxRows` rows.
 */
async function checkFile(ctx: ImportContext, user: User, file: string, spool: Spool, maxRows: number, { progress, report }: Tracker): Promise<void> {
  const model = entity('device');
  const products = await ctx.db.selectFrom('t_product').select(['fId', 'fNumber', 'fDeviceType']).execute();
  const productByNumber = new Map(products.map((p) => [String(p.fNumber).trim(), p]));
  const taken = messageFor(model, 'fNumber', 'unique');
  // As with a device added by hand: an agent's import is the agent's; others' belong to no agent.
  const owner = user.fAdmin === 2 ? user.fId : null;
  const errors: ImportRowError[] = [];
  let failed = 0;
  const refuse = (row: number, fNumber: string, message: string) => {
    failed++;
    if (errors.length < LISTED_ERRORS) errors.push({ row, fNumber, message });
  };

  // Numbers seen in the file so far, and those waiting for their look-up in the database.
  const seen = new StringSet();
  let pending: { row: number; fNumber: string }[] = [];
  const lookUp = async () => {
    const batch = pending;
    pending = [];
    if (!batch.length) return;
    const found = await ctx.db.selectFrom('t_device').select('fNumber').where(sql<boolean>`f_number = any(${batch.map((c) => c.fNumber)})`).execute();
    const existing = new Set(found.map((f) => String(f.fNumber)));
    for (const c of batch) if (existing.has(c.fNumber)) refuse(c.row, c.fNumber, taken);
    progress.checked += batch.length;
  };

  let columns: Map<ColumnKey, number> | undefined;
  const strings = new StringTable();
  for await (const row of sheetRows(file, strings)) {
    if (!columns) {
      // The first row names the columns; a sheet whose row 1 is empty is read in template order.
      columns = columnMap(row.number === 1 ? row : undefined, strings);
      if (row.number === 1) continue;
    }
    const raw = Object.fromEntries(COLUMNS.map((c) => [c.key, columns!.has(c.key) ? textOf(row.getCell(columns!.get(c.key)!), strings) : ''])) as Record<ColumnKey, string>;
    if (Object.values(raw).every((v) => v === '')) continue;
    progress.read++;
    if (progress.read > maxRows) throw new Refusal(tooManyRows(maxRows));
    const checked = checkRow(model, user, productByNumber, seen, raw);
    if (typeof checked === 'string') {
      refuse(row.number, raw.fNumber, checked);
      progress.checked++;
    } else {
      checked.fUserId = owner;
      pending.push({ row: row.number, fNumber: checked.fNumber as string });
      // A file with a bad row is refused: its good rows need not be kept any more.
      if (!failed) await spool.write(JSON.stringify(checked));
      if (pending.length >= CHECK_BATCH) await lookUp();
    }
    if (progress.read % 1000 === 0) {
      report('read');
      // Rows come in runs from each chunk of the file: between runs, others' calls get their turn.
      await nextTurn();
    }
  }
  await lookUp();
  await spool.close();
  if (!progress.read) throw new Refusal(TRANSFER_MESSAGES.empty);
  if (failed) {
    errors.sort((a, b) => a.row - b.row);
    const lines = [TRANSFER_MESSAGES.failed, ...errors.map(badRowLine)];
    if (failed > errors.length) lines.push(moreBadRows(failed - errors.length));
    throw new Refusal(lines.join('\n'));
  }
}

/** The second pass: the spooled rows written in batches, all in one transaction. */
async function writeRows(ctx: ImportContext, user: User, spool: string, { progress, report }: Tracker): Promise<void> {
  const shared = user.fAdmin === 0 && !isAdmin(user);
  await ctx.db.transaction().execute(async (trx) => {
    const write = async (rows: Record<string, unknown>[]) => {
      // One array a column, unnested into rows: a handful of parameters however many rows, which both
      // databases read much faster than a VALUES list of thousands of them.
      const keys = Object.keys(rows[0]);
      const columns = keys.map((k) => sql`${rows.map((r) => r[k] ?? null)}::${sql.raw(INTEGER_COLUMNS.has(k) ? 'integer' : 'text')}[]`);
      const insert = trx.insertInto('t_device').columns(keys as never).expression(sql`select * from unnest(${sql.join(columns)})`);
      if (!shared) await insert.execute();
      else {
        // An ordinary user's devices are reached through the share table, as when added by hand.
        const inserted = await insert.returning('fId').execute();
        await trx.insertInto('t_user_device').values(inserted.map((d) => ({ fUserId: user.fId, fDeviceId: d.fId, fOwner: 1 }))).execute();
      }
      progress.written += rows.length;
      report('write');
      // Other calls' turn between batches (on PostgreSQL they run beside the transaction).
      await nextTurn();
    };
    const size = writeBatch(ctx.db);
    let batch: Record<string, unknown>[] = [];
    for await (const line of createInterface({ input: createReadStream(spool), crlfDelay: Infinity })) {
      batch.push(JSON.parse(line) as Record<string, unknown>);
      if (batch.length >= size) {
        await write(batch);
        batch = [];
      }
    }
    if (batch.length) await write(batch);
  });
}

/** One row's values to insert, or the reason it is refused (the same checks and words as a device added by hand). */
function checkRow(
  model: ReturnType<typeof entity>,
  user: User,
  productByNumber: Map<string, { fId: unknown; fDeviceType: unknown }>,
  seen: StringSet,
  raw: Record<ColumnKey, string>,
): Record<string, unknown> | string {
  if (!raw.productNumber) return TRANSFER_MESSAGES.productRequired;
  const product = productByNumber.get(raw.productNumber);
  if (!product) return TRANSFER_MESSAGES.productUnknown;
  if (!raw.fNumber) return messageFor(model, 'fNumber', 'required');
  if (!seen.add(raw.fNumber)) return TRANSFER_MESSAGES.duplicateInFile;
  let values: Record<string, unknown>;
  try {
    values = validateBody(model, { fProductId: product.fId, fNumber: raw.fNumber, fName: raw.fName, fImei: raw.fImei, fIccid: raw.fIccid, fRemork: raw.fRemork }, 'create', user);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  values.fTypeId = product.fDeviceType;
  return values;
}

/**
 * Tells the importing user's consoles how far an import has got, through the event stream of whichever
 * replica they are connected to: at most every PROGRESS_MS, at once at the end of a phase. On
 * PostgreSQL a notification at a time (a newer report replaces one still waiting); the embedded
 * database's one connection is the import's own while it writes, so there the report goes straight to
 * this process's listeners.
 */
function progressReporter(db: DB, relay: Relay, userId: number, id: string | null): (progress: ImportProgress, final?: boolean) => void {
  if (!id) return () => undefined;
  let sending = false;
  let waiting: ImportProgress | null = null;
  let lastAt = 0;
  let lastPhase = '';
  const send = (progress: ImportProgress) => {
    const item = { ...progress, id, userId };
    if (runsOneAtATime(db)) return relay.emit('deviceImport', [item]);
    sending = true;
    void publish(db, 'deviceImport', [item])
      .catch(() => undefined)
      .finally(() => {
        sending = false;
        const next = waiting;
        waiting = null;
        if (next) send(next);
      });
  };
  return (progress, final = false) => {
    const now = performance.now();
    if (!final && progress.phase === lastPhase && now - lastAt < PROGRESS_MS) return;
    lastAt = now;
    lastPhase = progress.phase;
    if (sending) waiting = progress;
    else send(progress);
  };
}

/**
 * The upload's one file, streamed to a temporary folder of its own (never whole in memory), with the
 * import's id from the field before it; a name other than .xlsx/.xls is refused unread.
 */
/**
 * Copies an upload to a file. Read by iterating, not with pipeline(): a part the parser ended before this
 * reads it (a body cut short while the caller was authenticated) is a destroyed stream, which pipeline()
 * waits on for ever and iteration refuses at once (premature close: the upload is incomplete).
 */
async function copyTo(source: NodeJS.ReadableStream, path: string): Promise<void> {
  const out = createWriteStream(path);
  try {
    for await (const chunk of source) if (!out.write(chunk)) await once(out, 'drain');
  } finally {
    out.end();
    await once(out, 'close').catch(() => undefined);
  }
}

async function receiveUpload(request: FastifyRequest): Promise<{ dir: string; file: string; id: string | null }> {
  if (!request.isMultipart()) throw new Refusal(TRANSFER_MESSAGES.noFile);
  let dir: string | undefined;
  try {
    const part = await request.file();
    if (!part) throw new Refusal(TRANSFER_MESSAGES.noFile);
    if (!/\.(xlsx|xls)$/i.test(part.filename ?? '')) {
      part.file.resume();
      throw new Refusal(TRANSFER_MESSAGES.badType);
    }
    const field = part.fields[IMPORT_PROGRESS_FIELD] as { value?: unknown } | undefined;
    const id = typeof field?.value === 'string' && IMPORT_ID.test(field.value) ? field.value : null;
    dir = await mkdtemp(join(tmpdir(), 'device-import-'));
    const file = join(dir, 'upload.xlsx');
    // A client gone half-way must not leave the copy waiting for the rest of its file.
    const socket = request.raw.socket;
    const gone = () => part.file.destroy(new Error('the upload connection closed'));
    socket.once('close', gone);
    try {
      await copyTo(part.file, file);
    } finally {
      socket.off('close', gone);
    }
    if (part.file.truncated) throw new Refusal(TRANSFER_MESSAGES.tooLarge, 413);
    return { dir, file, id };
  } catch (error) {
    if (dir) await rm(dir, { recursive: true, force: true });
    if (error instanceof Refusal) throw error;
    if (isTooLarge(error)) throw new Refusal(TRANSFER_MESSAGES.tooLarge, 413);
    throw error;
  }
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

export interface TransferOptions {
  /** DEVICE_IMPORT_MAX_ROWS (server/config.ts). */
  importMaxRows: number;
}

export function registerTransferRoutes(app: FastifyInstance, ctx: RouteContext, options: TransferOptions = { importMaxRows: DEFAULT_DEVICE_IMPORT_MAX_ROWS }) {
  fileRoute(app, ctx, TRANSFER_PATHS.template, EXPORT_PERMISSION, S.object({}), async (_user, _body, reply) =>
    sendFile(reply, await templateWorkbook(), XLSX_TYPE, '设备导入模板.xlsx', 'device-template.xlsx'),
  );
  // The device list's search: its filters' condition keys.
  const exportBody = S.object({ condition: { type: ['object', 'null'], properties: Object.fromEntries(entity('device').filters.map((f) => [f.key, S.any()])) } });
  fileRoute(app, ctx, TRANSFER_PATHS.export, EXPORT_PERMISSION, exportBody, async (user, body, reply) => {
    const condition = body.condition && typeof body.condition === 'object' ? (body.condition as Record<string, unknown>) : {};
    return exportDevices(ctx, user, condition, reply);
  });
  fileRoute(app, ctx, TRANSFER_PATHS.qrcode, EXPORT_PERMISSION, S.object({ fIds: S.ids('the chosen devices'), deviceIds: S.ids('the same, as older callers name it'), ids: S.ids('the same') }), async (user, body, reply) => {
    // Callers name the selection fIds, deviceIds or ids (the contract's pages differ).
    const field = (['fIds', 'deviceIds', 'ids'] as const).find((k) => body[k] !== undefined && body[k] !== null) ?? 'fIds';
    const { zip } = await qrcodeZip(ctx, user, idList(body[field], field));
    return sendFile(reply, zip, 'application/zip', '设备二维码.zip', 'device-qrcodes.zip');
  });

  // Imports of this server run one after the other: each is bounded in memory, so several together would not be.
  let previous: Promise<unknown> = Promise.resolve();

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
        const upload = await receiveUpload(request);
        try {
          const report = progressReporter(ctx.db, ctx.relay, user!.fId, upload.id);
          const turn = previous.catch(() => undefined);
          const run = turn.then(() => importDevices(ctx, user!, upload.file, { maxRows: options.importMaxRows, onProgress: report }));
          previous = run;
          report({ phase: 'wait', read: 0, checked: 0, written: 0, total: 0 }, true);
          const result = await run;
          return new Answer(result, importText(result));
        } finally {
          await rm(upload.dir, { recursive: true, force: true });
        }
      },
    });
  });
}

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
 * give the event loop a turn, so the server keeps answering while a million rows go in — on the
 * embedded database, whose one session the transaction holds, by letting other calls' reads run inside
 * it between the batches, blind to what it wrote (`letReadersIn`) — and the importing console hears how
 * far it has got through the live event stream (`deviceImport`).
 *
 * The export streams too: pages of the devices read by id from the database go out through the
 * spreadsheet writer as they are read, so its memory does not grow with the number of devices.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type ExcelJS from 'exceljs';
import JSZip from 'jszip';
import QRCode from 'qrcode';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { PassThrough, type Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type InsertQueryBuilder, type Transaction } from 'kysely';
import { cellText, newWorkbook, SHEET_REASONS, XLSX_TYPE } from '../platform';
import { Answer, authenticate } from '../http/route';
import { sendFile } from '../http/files';
import { receiveToFolder, registerUpload } from '../http/upload';
import type { RouteContext } from '../http/context';
import { checkBody, S, type JsonSchema } from '../http/catalog';
import { declaredBody, declaredCodes, describeCall } from '../http/calls';
import type { DeclaredCallName } from '../../contract/generated/calls';
import { Forbidden, Refusal, reason, refuse, textOf as reasonText, type Reason } from '../http/envelope';
import { zh } from './words';
import { entity, scoped } from '../crud/engine';
import { applyFilters } from '../crud/query';
import { formatRow } from '../crud/format';
import { fieldReason, validateBody } from '../crud/validate';
import { isAdmin, type User } from '../crud/types';
import { idList } from '../http/guard';
import { lender, runsOneAtATime, type DB } from '../db';
import { publish, type Relay } from '../relay';
import { IMPORT_ID, IMPORT_PROGRESS_FIELD, type DeviceImportPhase, type DeviceImportProgress } from '../../contract/deviceImport';
import { DEFAULT_DEVICE_IMPORT_MAX_ROWS } from '../config';

/** Spec 000 §5: 100M (102400 KB). */
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
 * server's own thread, so it takes smaller ones there, the event loop turning and other calls' reads
 * running between them: a call waits for the batch being written, 500 rows about 30–40 ms (1,000 rows
 * wrote no faster and made them wait twice as long; 250 made the write about twice as long; the longest
 * batches, 150–220 ms of CPU every few thousand rows, are the trigram indexes' whatever the size;
 * docs/performance.md, "Device import and export").
 */
const writeBatch = (db: DB) => (runsOneAtATime(db) ? 500 : 2_000);
/** The columns of a checked row that hold whole numbers (the others are text). */
const INTEGER_COLUMNS = new Set(['fProductId', 'fTypeId', 'fUserId']);
/**
 * On the embedded database, how long the import waits at most between two batches while other calls'
 * reads keep coming in (a device list is five of them, each otherwise waiting for a batch of its own).
 */
const READERS_MS = 50;
/** Device numbers looked up in the database with one statement while the file is checked. */
const CHECK_BATCH = 5_000;
/** An import of this many rows or more has the device table's statistics taken again once it is in. */
const ANALYZE_AFTER = 10_000;
/**
 * On the embedded database, while other calls' reads are let in: the device ids' statistics are taken
 * again inside the import's transaction each time the table has grown by as many rows as it had at the
 * last count (and at least this many), so that the planner sees the import's rows above the readers' id
 * bound (see letReadersIn).
 */
const RESTATS_ROWS = 1_000;
/**
 * The statistics target of the ANALYZE statements inside the import's transaction on the embedded
 * database: a sample of 3,000 rows instead of 30,000 (the whole table after a million rows: 0.1 s
 * instead of 0.4 s holding the session). The embedded database's upkeep takes them again with the usual
 * target within a minute of the commit (server/db/pgliteUpkeep.ts: the rows inserted put the table past
 * its threshold).
 */
const IMPORT_STATISTICS_TARGET = 10;
/** Bad rows a refusal lists one by one; past them it says how many more there are. */
const LISTED_ERRORS = 1_000;
/** Progress goes to the console at most this often (and at every change of phase). */
const PROGRESS_MS = 250;

/** A file of more rows than DEVICE_IMPORT_MAX_ROWS, refused before anything is written (its zh-CN words). */
export const tooManyRows = (max: number) => reasonText(reason('deviceImport.tooManyRows', { max }));
/** The last line of a refusal's legacy message with more bad rows than it lists. */

/** The template's columns; the export starts with the same ones, so an export can be imported again. */
/** A field's label (zh-CN), the header of its column: schemas/device.schema.json, product.schema.json. */
const label = (entityName: string, field: string) => entity(entityName).fields[field].labels['zh-CN'];
const COLUMNS = [
  { key: 'productNumber', header: label('product', 'fNumber'), aliases: ['product number', zh('deviceImport.alias.productNumber'), zh('deviceImport.alias.product')], width: 16 },
  { key: 'fNumber', header: label('device', 'fNumber'), aliases: ['device number', zh('deviceImport.alias.deviceId')], width: 22 },
  { key: 'fName', header: label('device', 'fName'), aliases: ['name', 'device name', zh('deviceImport.alias.name')], width: 22 },
  { key: 'fImei', header: 'IMEI', aliases: [], width: 20 },
  { key: 'fIccid', header: 'ICCID', aliases: [], width: 24 },
  { key: 'fRemork', header: label('device', 'fRemork'), aliases: ['remark', 'remarks'], width: 30 },
] as const;
type ColumnKey = (typeof COLUMNS)[number]['key'];

const EXTRA_EXPORT_COLUMNS = [
  { key: 'productName', header: label('product', 'fName'), width: 18 },
  { key: 'online', header: label('device', 'tOnline'), width: 10 },
  { key: 'status', header: label('device', 'fStatus'), width: 10 },
  { key: 'fLastOnlineTime', header: label('device', 'fLastOnlineTime'), width: 20 },
  { key: 'fIntime', header: label('device', 'fIntime'), width: 20 },
];

function jsonBody(request: FastifyRequest): Record<string, unknown> {
  return request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
}

/**
 * A file answer still refuses with the envelope, so the console can show the message. Its body is the
 * one declared in resources/calls/device.json, or the one given here when it derives from the device
 * list's filters.
 */
function fileRoute(app: FastifyInstance, ctx: RouteContext, call: DeclaredCallName, derivedBody: JsonSchema | undefined, handler: (user: User, body: Record<string, unknown>, reply: FastifyReply) => Promise<unknown>) {
  const codes = declaredCodes(call) ?? [];
  const path = describeCall(ctx.catalog, call, { tag: 't-device', produces: call === 'device.qrcodes' ? 'application/zip' : XLSX_TYPE, ...(derivedBody ? { body: derivedBody } : {}) });
  const body = derivedBody ?? declaredBody(call);
  app.route({
    method: 'POST',
    url: path,
    handler: async (request, reply) => {
      const user = await authenticate(ctx, request, reply);
      if (!codes.some((c) => user.permissions.has(c))) throw new Forbidden();
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
  const sheet = book.addWorksheet(zh('deviceImport.sheet'));
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
  const sheet = book.addWorksheet(zh('deviceImport.sheet'), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [...COLUMNS, ...EXTRA_EXPORT_COLUMNS].map((c) => ({ header: c.header, key: c.key, width: c.width }));
  const head = sheet.getRow(1);
  head.font = { bold: true };
  head.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8F0FE' } };
  head.commit();
  void sendFile(reply, out, XLSX_TYPE, `${zh('deviceImport.exportFile')}.xlsx`, 'devices.xlsx');

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
            online: zh(Number(r.tOnline) === 1 ? 'deviceImport.online' : 'deviceImport.offline'),
            status: zh(Number(r.fStatus) === 1 ? 'deviceImport.activated' : 'deviceImport.notActivated'),
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
  /** Why, by code (the refusal's rows carry it). */
  reason?: Reason;
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

/** What a finished import answers: how many rows, how many written. */
export const importNotice = (result: ImportResult): Reason => reason('deviceImport.done', { total: result.total, imported: result.imported });

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
      if (this.#chunks.length >= StringTable.MAX_CHUNKS) throw refuse('import.tooLarge');
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
    throw refuse('import.badFormat');
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
    const analyzed = await writeRows(ctx, user, spool.path, tracker);
    tracker.report('done', true);
    // The planner's figures of a table that has just grown by many rows are those of a small one: the
    // next export or list would take a plan fit for a few rows (a sort of all of them on every page).
    // Taken afresh at once rather than when autovacuum comes by; the answer does not wait for it. (On
    // the embedded database, while it lets other calls in, the import has taken them before its commit.)
    if (progress.written >= ANALYZE_AFTER && !analyzed) void sql`analyze t_device`.execute(ctx.db).catch(() => undefined);
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
  const taken = fieldReason(model, 'fNumber', 'unique');
  // As with a device added by hand: an agent's import is the agent's; others' belong to no agent.
  const owner = user.fAdmin === 2 ? user.fId : null;
  const errors: ImportRowError[] = [];
  let failed = 0;
  const refuseRow = (row: number, fNumber: string, why: Reason) => {
    failed++;
    if (errors.length < LISTED_ERRORS) errors.push({ row, fNumber, message: reasonText(why), reason: why });
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
    for (const c of batch) if (existing.has(c.fNumber)) refuseRow(c.row, c.fNumber, taken);
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
    if (progress.read > maxRows) throw refuse('deviceImport.tooManyRows', { max: maxRows });
    const checked = checkRow(model, user, productByNumber, seen, raw);
    if (isRowRefusal(checked)) {
      refuseRow(row.number, raw.fNumber, checked);
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
  if (!progress.read) throw refuse('import.empty');
  if (failed) {
    errors.sort((a, b) => a.row - b.row);
    // The bad rows by code; the legacy message lists them as `第n行（number）：reason` under the first line.
    throw refuse('import.failed', {}, { rows: { rows: errors.map((e) => ({ row: e.row, ...(e.fNumber ? { label: e.fNumber } : {}), reason: e.reason! })), total: failed } });
  }
}

/**
 * The second pass: the spooled rows written in batches, all in one transaction. On the embedded
 * database that transaction holds the one session for its whole length (most of a minute for a million
 * rows), so there other calls' reads are let in between the batches (`letReadersIn`); their writes wait
 * for the commit, as before. Answers whether the device table's statistics were taken afresh in it.
 */
async function writeRows(ctx: ImportContext, user: User, spool: string, { progress, report }: Tracker): Promise<boolean> {
  const shared = user.fAdmin === 0 && !isAdmin(user);
  const lend = lender(ctx.db);
  let analyzed = false;
  await ctx.db.transaction().execute(async (trx) => {
    const readers = lend ? await letReadersIn(trx) : null;
    const lent = readers ? lend!({ role: IMPORT_READER }) : null;
    try {
      const write = async (rows: Record<string, unknown>[]) => {
        // One array a column, unnested into rows: a handful of parameters however many rows, which both
        // databases read much faster than a VALUES list of thousands of them.
        const keys = Object.keys(rows[0]);
        const columns = keys.map((k) => sql`${rows.map((r) => r[k] ?? null)}::${sql.raw(INTEGER_COLUMNS.has(k) ? 'integer' : 'text')}[]`);
        const insert = trx.insertInto('t_device').columns(keys as never).expression(sql`select * from unnest(${sql.join(columns)})`);
        if (readers) await readers.insert(insert, shared ? user.fId : null);
        else if (!shared) await insert.execute();
        else {
          // An ordinary user's devices are reached through the share table, as when added by hand.
          const inserted = await insert.returning('fId').execute();
          await trx.insertInto('t_user_device').values(inserted.map((d) => ({ fUserId: user.fId, fDeviceId: d.fId, fOwner: 1 }))).execute();
        }
        progress.written += rows.length;
        report('write');
        // Other calls' turn between batches (on PostgreSQL they run beside the transaction; on the
        // embedded database their reads run in it, see letReadersIn, a call's reads one after the other).
        if (lent) await lent.pause(READERS_MS);
        else await nextTurn();
        // The ids' statistics, when due, in a turn of their own (see letReadersIn).
        if (readers && (await readers.analyze('ids'))) await lent!.pause(READERS_MS);
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
      // Before the commit, with a small sample, rather than in a statement after it that holds the
      // session for the whole table (0.4 s for a million rows on a busy machine).
      if (readers && progress.written >= ANALYZE_AFTER) {
        analyzed = await readers.analyze('all');
        await lent!.pause(READERS_MS);
      }
    } finally {
      lent?.end();
    }
    await readers?.close();
  });
  return analyzed;
}

/** The role other calls' reads run as while an import writes on the embedded database; it lives only inside the import's transaction. */
const IMPORT_READER = 'iot_import_reader';
/** Its row-security policy on the two tables the import writes. */
const IMPORT_POLICY = 'iot_import_committed';

/** What an import's transaction on the embedded database needs while it lets other calls' reads in. */
interface Readers {
  /** Writes a batch (and its shares, for `sharer`), counting its devices for the device counters. */
  insert(insert: InsertQueryBuilder<any, any, any>, sharer: number | null): Promise<void>;
  /**
   * Takes the device table's statistics afresh inside the transaction, the import's rows among them:
   * the ids' when the table has doubled since they were last taken, or all of them; answers whether it did.
   */
  analyze(which: 'ids' | 'all'): Promise<boolean>;
  /** Brings the device counters up to date, and takes everything letReadersIn set up away again. */
  close(): Promise<void>;
}

/**
 * Prepares the import's transaction on the embedded database for other calls' reads to run in it
 * between the batches (server/db/pglite.ts, `Lending`), each read-only in a savepoint rolled back after
 * it, as IMPORT_READER. So that they answer exactly what they would answer beside the transaction on
 * PostgreSQL — the devices as committed — the role:
 * - reads the schema's tables only (no view or function that would read as its owner; none may be
 *   SECURITY DEFINER), and no sequence;
 * - sees, of the two tables the import writes (t_device, t_user_device), only the rows this transaction
 *   did not write: a row-security policy (`xmin`, and for t_device the largest id committed before, so
 *   that lists walking the ids from the top start below the import's);
 * - reads the device counters as committed: their trigger is off while the batches go in (the batches
 *   count their devices themselves, with the trigger's keys), and they are brought up to date only
 *   after the last read was let in, just before the commit.
 * Nothing else is written by the transaction: no other trigger or rule may fire on an insert into those
 * two tables (checked here; otherwise no read is let in and the import runs as before). The role, its
 * grants, the policies, row security and the trigger's state are all changes of this same transaction,
 * taken back by close() before it commits: a failure or a crash before then rolls them back with the
 * devices, and nothing of them is ever committed. Keyword searches compare with `ilike`, which row
 * security keeps off the trigram indexes (a full walk of the devices) unless it is marked leakproof:
 * marked so, likewise only inside the transaction. That only lets the planner test it before the policy;
 * every row answered still passes the policy, and `ilike` writes nothing (an error would only send the
 * read to wait for the commit).
 */
async function letReadersIn(trx: Transaction<any>): Promise<Readers | null> {
  const one = async <T>(text: ReturnType<typeof sql>) => (await text.execute(trx)).rows[0] as T;
  const { unsafe } = await one<{ unsafe: string | null }>(sql`
    select coalesce(
      (select string_agg(t.tgname, ', ') from pg_trigger t where not t.tgisinternal and t.tgenabled <> 'D' and (t.tgtype & 4) <> 0
        and t.tgrelid in ('t_device'::regclass, 't_user_device'::regclass) and not (t.tgrelid = 't_device'::regclass and t.tgname = 't_device_count_insert')),
      (select string_agg(rulename, ', ') from pg_rules where schemaname = current_schema() and tablename in ('t_device', 't_user_device')),
      (select 'row security on ' || string_agg(relname, ', ') from pg_class where oid in ('t_device'::regclass, 't_user_device'::regclass) and relrowsecurity),
      (select 'security definer ' || string_agg(proname, ', ') from pg_proc where prosecdef and pronamespace = current_schema()::regnamespace),
      (select 'role ' || rolname from pg_roles where rolname = ${IMPORT_READER}),
      (select 'no trigger t_device_count_insert' where not exists (select from pg_trigger where tgrelid = 't_device'::regclass and tgname = 't_device_count_insert' and tgenabled <> 'D'))
    ) as unsafe`);
  if (unsafe) {
    console.warn(`device import: other calls wait for the import's commit (${unsafe})`);
    return null;
  }
  const { committed, leakproof, counted } = await one<{ committed: number; leakproof: boolean; counted: number }>(
    sql`select coalesce(max(f_id), 0) as committed, (select proleakproof from pg_proc where oid = 'pg_catalog.texticlike(text, text)'::regprocedure) as leakproof,
      (select greatest(reltuples, 0)::float8 from pg_class where oid = 't_device'::regclass) as counted from t_device`,
  );
  const run = (text: string) => sql.raw(text).execute(trx);
  await run(`CREATE ROLE ${IMPORT_READER} NOLOGIN`);
  // What the server's own reads of the statistics and settings see (the database monitor).
  await run(`GRANT pg_read_all_stats, pg_read_all_settings TO ${IMPORT_READER}`);
  await run(`DO $$ DECLARE t regclass; BEGIN
    FOR t IN SELECT oid FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p') LOOP
      EXECUTE format('GRANT SELECT ON %s TO ${IMPORT_READER}', t);
    END LOOP; END $$`);
  await run(`CREATE POLICY ${IMPORT_POLICY} ON t_device FOR SELECT TO ${IMPORT_READER} USING (f_id <= ${Number(committed)} AND xmin <> pg_current_xact_id()::xid)`);
  await run(`CREATE POLICY ${IMPORT_POLICY} ON t_user_device FOR SELECT TO ${IMPORT_READER} USING (xmin <> pg_current_xact_id()::xid)`);
  await run(`ALTER TABLE t_device ENABLE ROW LEVEL SECURITY`);
  await run(`ALTER TABLE t_user_device ENABLE ROW LEVEL SECURITY`);
  await run(`ALTER TABLE t_device DISABLE TRIGGER t_device_count_insert`);
  if (!leakproof) await run(`ALTER FUNCTION pg_catalog.texticlike(text, text) LEAKPROOF`);

  // The devices written, by the device counters' keys (migration 028's t_device_count_apply).
  const counts = new Map<string, number>();
  // The planner prices a read by the statistics of before the import, in which no id is above the
  // policy's bound: it takes `f_id <= committed` for no bound at all, and the cheapest way to a user's
  // devices or a count of them becomes a walk of the whole table — the import's rows too, each one
  // passed over by the policy (an agent's device count 0.1–0.9 s with 300,000–1,000,000 rows written,
  // the event loop held throughout). With the ids' statistics taken again each time the table has
  // doubled (ANALYZE sees this transaction's rows), the bound is seen for what it is and the reads take
  // the indexes on (…, f_id) within it: they cost about what they cost before the import, not more
  // with every batch written.
  let analyzedRows = Number(counted);
  let unanalyzed = 0;
  return {
    async insert(insert, sharer) {
      const added = insert.returning(['fId', 'fProductId', 'fTypeId', 'tOnline', 'fStatus']);
      // An ordinary user's devices are reached through the share table, as when added by hand.
      const shares = sharer === null ? sql`` : sql`, shares as (insert into t_user_device (f_user_id, f_device_id, f_owner) select ${sharer}::integer, f_id, 1 from added)`;
      const { rows } = await sql<{ key: string; n: number }>`with added as (${added})${shares}
        select concat_ws(',', coalesce(f_product_id, 0), coalesce(f_type_id, 0), coalesce(t_online, -1), coalesce(f_status, -1)) as key, count(*)::int as n
        from added group by 1`.execute(trx);
      for (const r of rows) counts.set(r.key, (counts.get(r.key) ?? 0) + r.n);
      unanalyzed += rows.reduce((n, r) => n + r.n, 0);
    },
    async analyze(which) {
      if (which === 'ids' && unanalyzed < Math.max(analyzedRows, RESTATS_ROWS)) return false;
      // All of them: what the commit makes true, so that nothing is left to take after it while the
      // session is the server's again; a rollback takes them back with the rows (all but pg_class's row
      // count, which ANALYZE writes in place, as on PostgreSQL).
      await run(`SET LOCAL default_statistics_target = ${IMPORT_STATISTICS_TARGET}`);
      await run(which === 'ids' ? 'ANALYZE t_device (f_id)' : 'ANALYZE t_device');
      await run(`RESET default_statistics_target`);
      analyzedRows += unanalyzed;
      unanalyzed = 0;
      return true;
    },
    async close() {
      const keys = [...counts.keys()].map((k) => k.split(',').map(Number));
      if (keys.length) {
        const column = (i: number) => sql`${keys.map((k) => k[i])}::integer[]`;
        // As the trigger does it: in key order, so that concurrent writers cannot deadlock on the rows.
        await sql`insert into t_device_count as c (f_product_id, f_type_id, f_online, f_status, f_count)
          select p, t, o, s, n from unnest(${column(0)}, ${column(1)}, ${column(2)}, ${column(3)}, ${[...counts.values()]}::bigint[]) as x(p, t, o, s, n) order by 1, 2, 3, 4
          on conflict (f_product_id, f_type_id, f_online, f_status) do update set f_count = c.f_count + excluded.f_count`.execute(trx);
      }
      await run(`ALTER TABLE t_device ENABLE TRIGGER t_device_count_insert`);
      if (!leakproof) await run(`ALTER FUNCTION pg_catalog.texticlike(text, text) NOT LEAKPROOF`);
      await run(`ALTER TABLE t_device DISABLE ROW LEVEL SECURITY`);
      await run(`ALTER TABLE t_user_device DISABLE ROW LEVEL SECURITY`);
      await run(`DROP POLICY ${IMPORT_POLICY} ON t_device`);
      await run(`DROP POLICY ${IMPORT_POLICY} ON t_user_device`);
      await run(`DROP OWNED BY ${IMPORT_READER}`);
      await run(`DROP ROLE ${IMPORT_READER}`);
    },
  };
}

/** A checked row that is refused: its reason by code. */
const isRowRefusal = (checked: Record<string, unknown> | Reason): checked is Reason => typeof checked.code === 'string' && 'params' in checked;

/** One row's values to insert, or the reason it is refused (the same checks and words as a device added by hand). */
function checkRow(
  model: ReturnType<typeof entity>,
  user: User,
  productByNumber: Map<string, { fId: unknown; fDeviceType: unknown }>,
  seen: StringSet,
  raw: Record<ColumnKey, string>,
): Record<string, unknown> | Reason {
  if (!raw.productNumber) return reason('deviceImport.productRequired');
  const product = productByNumber.get(raw.productNumber);
  if (!product) return reason('deviceImport.productUnknown');
  if (!raw.fNumber) return fieldReason(model, 'fNumber', 'required');
  if (!seen.add(raw.fNumber)) return reason('deviceImport.duplicateInFile');
  let values: Record<string, unknown>;
  try {
    values = validateBody(model, { fProductId: product.fId, fNumber: raw.fNumber, fName: raw.fName, fImei: raw.fImei, fIccid: raw.fIccid, fRemork: raw.fRemork }, 'create', user);
  } catch (error) {
    if (error instanceof Refusal && error.reason) return error.reason;
    throw error;
  }
  values.fTypeId = product.fDeviceType;
  return values;
}

/**
 * Tells the importing user's consoles how far an import has got, through the event stream of whichever
 * replica they are connected to: at most every PROGRESS_MS, at once at the end of a phase. On
 * PostgreSQL a notification at a time (a newer report replaces one still waiting); the embedded
 * database's one connection is the import's own while it writes (only reads are let in beside it, and a
 * notification is none), so there the report goes straight to this process's listeners.
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

/** A device number as a file name: the characters file systems refuse become underscores. */
const safeName = (s: string) => s.replace(/[\\/:*?"<>|\x00-\x1f]/g, '_') || 'device';

export async function qrcodeZip(ctx: RouteContext, user: User, ids: number[]): Promise<{ zip: Buffer; count: number }> {
  if (!ids.length) throw refuse('deviceImport.noDevices');
  const devices = await scoped(ctx, entity('device'), user).where('t_device.fId', 'in', ids.slice(0, QR_CAP)).orderBy('t_device.fId', 'asc').execute();
  if (!devices.length) throw refuse('device.notFound');
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
  fileRoute(app, ctx, 'device.template', undefined, async (_user, _body, reply) =>
    sendFile(reply, await templateWorkbook(), XLSX_TYPE, `${zh('deviceImport.templateFile')}.xlsx`, 'device-template.xlsx'),
  );
  // The device list's search: its filters' condition keys.
  const exportBody = S.object({ condition: { type: ['object', 'null'], properties: Object.fromEntries(entity('device').filters.map((f) => [f.key, S.any()])) } });
  fileRoute(app, ctx, 'device.export', exportBody, async (user, body, reply) => {
    const condition = body.condition && typeof body.condition === 'object' ? (body.condition as Record<string, unknown>) : {};
    return exportDevices(ctx, user, condition, reply);
  });
  fileRoute(app, ctx, 'device.qrcodes', undefined, async (user, body, reply) => {
    // Callers name the selection fIds, deviceIds or ids (the contract's pages differ).
    const field = (['fIds', 'deviceIds', 'ids'] as const).find((k) => body[k] !== undefined && body[k] !== null) ?? 'fIds';
    const { zip } = await qrcodeZip(ctx, user, idList(body[field], field));
    return sendFile(reply, zip, 'application/zip', `${zh('deviceImport.qrcodeFile')}.zip`, 'device-qrcodes.zip');
  });

  // Imports of this server run one after the other: each is bounded in memory, so several together would not be.
  let previous: Promise<unknown> = Promise.resolve();

  const upload = { field: 'file', accept: 'xlsx, xls', maxBytes: IMPORT_MAX_BYTES };
  registerUpload(app, ctx, {
    call: 'device.import',
    upload,
    write: true,
    handler: async ({ user, request }) => {
      const received = await receiveToFolder(request, upload, SHEET_REASONS);
      const progressId = received.fields[IMPORT_PROGRESS_FIELD];
      const id = progressId && IMPORT_ID.test(progressId) ? progressId : null;
      try {
        const report = progressReporter(ctx.db, ctx.relay, user!.fId, id);
        const turn = previous.catch(() => undefined);
        const run = turn.then(() => importDevices(ctx, user!, received.file, { maxRows: options.importMaxRows, onProgress: report }));
        previous = run;
        report({ phase: 'wait', read: 0, checked: 0, written: 0, total: 0 }, true);
        const result = await run;
        return new Answer(result, importNotice(result));
      } finally {
        await rm(received.dir, { recursive: true, force: true });
      }
    },
  });
}

/**
 * What every all-or-nothing Excel import shares (watch-list people, description-library fields, system
 * users): the template, the single uploaded .xlsx/.xls part, reading the first sheet by its header (or
 * in template order when the header names no known column), checking each row, and refusing the whole
 * file with every bad row's number and reason by code (`import.failed`, its data the rows as
 * contract/reasons.ts `RefusedRows`), so nothing is ever half-imported.
 */
import type { FastifyRequest } from 'fastify';
import type ExcelJS from 'exceljs';
import type { PlainReasonCode } from '../../contract/generated/reasons';
import { Refusal, refuse, type Reason } from '../http/envelope';
import { isTooLarge } from '../http/upload';
import type { DB } from '../db';

/**
 * A new workbook. The spreadsheet library is loaded on the first export or import, not when the server
 * starts: it is about a tenth of a start's time and memory, for calls most sessions never make.
 */
export async function newWorkbook(): Promise<ExcelJS.Workbook> {
  const { default: excel } = await import('exceljs');
  return new excel.Workbook();
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Spec 001 §9 and 002 §9: xlsx or xls up to 2048 KB. */
export const SHEET_LIMIT_BYTES = 2048 * 1024;

/** Why a sheet import is refused as a whole: codes of the catalogue (schemas/reasons/administration.json). */
export const SHEET_REASONS = {
  format: 'import.badFormat',
  size: 'import.tooLarge',
  missing: 'import.noFile',
  empty: 'import.empty',
  failed: 'import.failed',
} as const satisfies Record<string, PlainReasonCode>;

/** The bad rows a refused import lists at most; `total` counts them all. */
export const LISTED_ROWS = 1000;

export interface SheetColumn {
  key: string;
  header: string;
  width?: number;
}

/** A refused row: its line on the sheet, what names it (optional), and why, by code. */
export interface RowError {
  row: number;
  label?: string;
  reason: Reason;
}

/** A cell as the text a person typed: a formula's result, a number without Excel's formatting surprises. */
export function cellText(cell: ExcelJS.Cell): string {
  const v = cell.value;
  if (v === null || v === undefined) return '';
  if (typeof v === 'object' && 'result' in v) return String(v.result ?? '').trim();
  return String(cell.text ?? '').trim();
}

/** A template: bold, tinted, frozen header; `text` columns stay text (ID numbers and phones never become numbers). */
export async function templateBook(name: string, columns: readonly SheetColumn[], example: Record<string, string>, text: string[] = []): Promise<Buffer> {
  const book = await newWorkbook();
  const sheet = book.addWorksheet(name);
  sheet.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 16 }));
  for (const key of text) sheet.getColumn(key).numFmt = '@';
  sheet.addRow(example);
  const head = sheet.getRow(1);
  head.font = { bold: true };
  head.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE8F0FE' } };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await book.xlsx.writeBuffer());
}

/**
 * The one file of a multipart import, whole in memory (imports of this size only): a name other than
 * .xlsx/.xls is refused unread, a file over the scope's multipart limit with `size`.
 */
export async function receiveSheet(request: FastifyRequest, reasons: { missing: PlainReasonCode; format: PlainReasonCode; size: PlainReasonCode } = SHEET_REASONS): Promise<{ filename: string; data: Buffer }> {
  if (!request.isMultipart()) throw refuse(reasons.missing);
  try {
    const part = await request.file();
    if (!part) throw refuse(reasons.missing);
    if (!/\.(xlsx|xls)$/i.test(part.filename ?? '')) {
      part.file.resume();
      throw refuse(reasons.format);
    }
    const data = await part.toBuffer();
    if (part.file.truncated) throw refuse(reasons.size);
    if (!data.length) throw refuse(reasons.missing);
    return { filename: part.filename, data };
  } catch (error) {
    if (error instanceof Refusal) throw error;
    if (isTooLarge(error)) throw refuse(reasons.size);
    throw error;
  }
}

/** Whether the multipart parser stopped the file at the scope's size limit (the imports' own check is the uploads'). */
export { isTooLarge };

/** The first sheet of a workbook given as bytes or as a file path; anything that is not one is `badType`. */
export async function openSheet(source: Buffer | string, badType: PlainReasonCode = SHEET_REASONS.format): Promise<ExcelJS.Worksheet | undefined> {
  const book = await newWorkbook();
  try {
    if (typeof source === 'string') await book.xlsx.readFile(source);
    else await book.xlsx.load(source as unknown as ArrayBuffer);
  } catch {
    // An .xls of the old binary format, or anything else that is not a workbook.
    throw refuse(badType);
  }
  return book.worksheets[0];
}

/** Column numbers by key: the header's cells naming a column (its header, the header before "(", or its key). */
function columnNumbers(sheet: ExcelJS.Worksheet, columns: readonly SheetColumn[]): Map<string, number> {
  const found = new Map<string, number>();
  sheet.getRow(1).eachCell((cell, col) => {
    const text = cellText(cell);
    const column = columns.find((c) => c.header === text || c.header.split('(')[0] === text || c.key === text);
    if (column && !found.has(column.key)) found.set(column.key, col);
  });
  if (!found.size) columns.forEach((c, i) => found.set(c.key, i + 1));
  return found;
}

/**
 * Every non-blank data row through `check`; a Refusal it throws is that row's reason (by its code), and
 * each row is reported. `read` turns a cell into text when a column needs more than cellText (dates).
 */
export async function checkRows<T>(
  sheet: ExcelJS.Worksheet | undefined,
  columns: readonly SheetColumn[],
  check: (raw: Record<string, string>, row: number) => T | Promise<T>,
  read: (cell: ExcelJS.Cell, key: string) => string = cellText,
): Promise<{ rows: T[]; errors: RowError[] }> {
  const rows: T[] = [];
  const errors: RowError[] = [];
  if (!sheet) return { rows, errors };
  const numbers = columnNumbers(sheet, columns);
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const raw = Object.fromEntries(columns.map((c) => [c.key, numbers.has(c.key) ? read(row.getCell(numbers.get(c.key)!), c.key) : '']));
    if (Object.values(raw).every((v) => v === '')) continue;
    try {
      rows.push(await check(raw, r));
    } catch (error) {
      // A row refused in words of its own (no code) is a fault of the import, not of the row.
      if (!(error instanceof Refusal) || !error.reason) throw error;
      errors.push({ row: r, reason: error.reason });
    }
  }
  return { rows, errors };
}

/**
 * Refuses the file when any row is bad or none is there; otherwise returns. The refusal's data lists the
 * bad rows by code (the first LISTED_ROWS, `total` counting them all), and its message the legacy lines
 * `第<n>行：<reason>` under the first.
 */
export function refuseBadRows(result: { rows: unknown[]; errors: RowError[] }, reasons: { failed: PlainReasonCode; empty: PlainReasonCode } = SHEET_REASONS): void {
  const { errors } = result;
  if (errors.length) {
    const rows = errors.slice(0, LISTED_ROWS).map((e) => ({ row: e.row, ...(e.label ? { label: e.label } : {}), reason: e.reason }));
    throw refuse(reasons.failed, {}, { rows: { rows, total: errors.length } });
  }
  if (!result.rows.length) throw refuse(reasons.empty);
}

/** Inserts in batches inside the caller's transaction. */
export async function insertAll(trx: DB, table: string, rows: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await trx.insertInto(table as never).values(rows.slice(i, i + 500) as never).execute();
}

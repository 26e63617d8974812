/**
 * Control persons, the people watch-list (spec 001 §2.6, §5): the template and the Excel import next to the
 * generic list, save and state switch. An import is all or nothing: every bad row is reported with its row
 * number and reason, and rows are stored only when none is bad, in one transaction.
 */
import type { FastifyInstance } from 'fastify';
import type ExcelJS from 'exceljs';
import { Answer } from '../http/route';
import type { RouteContext } from '../http/context';
import { describeCall } from '../http/calls';
import { reason, refuse, textOf } from '../http/envelope';
import { entity } from '../crud/engine';
import { validateBody } from '../crud/validate';
import type { User } from '../crud/types';
import { checkTimes } from './controlCar';
import { attachment } from '../http/files';
import { registerSheetImport } from '../http/upload';
import { SHEET_LIMIT_BYTES, XLSX_TYPE, cellText, checkRows, insertAll, openSheet, receiveSheet, refuseBadRows, templateBook, type SheetColumn } from '../platform';
import { sendMessage } from '../platform';
import { enums } from '../crud/enums';

type Row = Record<string, unknown>;

/** Spec 001 §5, §9: xlsx/xls up to 2048 KB. */
export const IMPORT_LIMIT_BYTES = SHEET_LIMIT_BYTES;

/** The options of an enum as the template's header states them: `1上访/2精神病`. */
const optionsOf = (list: string) => Object.entries(enums[list]).map(([value, words]) => value + words['zh-CN']).join('/');

/**
 * The template's columns, in the order the import reads them when a sheet has no recognised header: each
 * headed by its field's label (the entity model's zh-CN), with the options or the hint filling it in needs.
 */
export function templateColumns(): SheetColumn[] {
  const fields = entity('controlPerson').fields;
  const column = (key: string, width: number, hint?: string) => ({ key, header: hint ? `${fields[key].label}(${hint})` : fields[key].label, width });
  return [
    column('fUserName', 14),
    column('fUserIdcard', 22),
    column('fControlType', 22, optionsOf('controlType')),
    column('fControlUser', 12),
    column('fStartTime', 20),
    column('fEndTime', 20),
    column('fState', 20, optionsOf('watchState')),
    column('fPhones', 28, textOf(reason('watch.template.phonesHint'))),
    column('fImei', 18),
    column('fImsi', 18),
    column('fMac', 18),
  ];
}

/** An enum's values by their words in any language (`上访`, `Petition` → `1`); a cell holding the value itself is read as it is. */
const valueByWords = (list: string): Record<string, string> =>
  Object.fromEntries(Object.entries(enums[list]).flatMap(([value, words]) => Object.values(words).map((w) => [w, value])));

/** Every save stamps the update time; the list shows the latest change. */
export async function beforeSave(values: Row) {
  checkTimes(values, ['fStartTime', 'fEndTime']);
  values.fUpdateTime = new Date();
}

export const templateWorkbook = () =>
  templateBook(entity('controlPerson').label, templateColumns(), { fUserName: textOf(reason('watch.template.exampleName')), fUserIdcard: '440106199001011234', fControlType: '1', fControlUser: textOf(reason('watch.template.exampleWatcher')), fStartTime: '2026-01-01 00:00:00', fEndTime: '2026-12-31 23:59:59', fState: '1', fPhones: '13800138000' }, [
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
  const [types, states] = [valueByWords('controlType'), valueByWords('watchState')];
  const result = await checkRows(
    await openSheet(file),
    templateColumns(),
    (raw) => {
      raw.fControlType = types[raw.fControlType] ?? raw.fControlType;
      raw.fState = states[raw.fState] ?? raw.fState;
      raw.fPhones = raw.fPhones.replace(/[，;；\s]+/g, ',').replace(/^,|,$/g, '');
      const checked = validateBody(model, raw, 'create', user);
      checkTimes(checked, ['fStartTime', 'fEndTime']);
      const idcard = String(checked.fUserIdcard);
      if (seen.has(idcard)) throw refuse('watch.idcardRepeated');
      seen.add(idcard);
      checked.fUpdateTime = new Date();
      return checked;
    },
    timeText,
  );
  refuseBadRows(result);
  await ctx.db.transaction().execute((trx) => insertAll(trx, 't_control_person', result.rows));
  await sendMessage(ctx.db, { userIds: [user.fId], kind: 'import', params: { what: model.label, count: result.rows.length, time: new Date() } });
  return { imported: result.rows.length };
}

export function registerControlPersonRoutes(app: FastifyInstance, ctx: RouteContext) {
  // A blank template holds no personal data: served without a token so a plain link downloads it.
  const template = describeCall(ctx.catalog, 'sheet.watchTemplate', { tag: 't-control-person', produces: XLSX_TYPE });
  app.get(template, async (_request, reply) =>
    reply.header('content-disposition', attachment(`${textOf(reason('watch.template.file'))}.xlsx`, 'controlPerson.xlsx')).type(XLSX_TYPE).send(await templateWorkbook()),
  );

  registerSheetImport(app, ctx, {
    call: 'sheet.watchImport',
    maxBytes: IMPORT_LIMIT_BYTES,
    handler: async ({ user, request }) => {
      const { data: buffer } = await receiveSheet(request);
      const result = await importControlPersons(ctx, user!, buffer);
      return new Answer(result, reason('import.done', { count: result.imported }));
    },
  });
}

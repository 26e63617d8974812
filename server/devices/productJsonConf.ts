/**
 * Fields of a description library: the switch options and hardware alarm bytes kept as JSON beside the
 * field (so a field and its rows are written by one statement of the save's transaction), the rules the
 * generic validation cannot express (sub-library of entity types, one key per library), and the names
 * the field list shows.
 */
import { refuse } from '../http/envelope';
import type { CallContext, Services } from '../crud/types';

export interface SwitchOption {
  fName: string;
  fOpenValue: string;
  fCloseValue: string;
  fOpenReadValue?: string | null;
  fCloseReadValue?: string | null;
}

export interface HardwareWarn {
  fByteIndex: number;
  fName: string;
  fDes: string | null;
}

/** Entity and entity-array fields describe their content with another library. */
export const ENTITY_TYPES = [7, 8];
/** fWarnType of an alarm read from bytes of the device's report rather than from a range. */
export const HARDWARE_WARN = 2;

const text = (v: unknown): string | null => (v === undefined || v === null || String(v).trim() === '' ? null : String(v).trim());

/** Switch options as given by a save: open 1 and close 0 unless said otherwise (spec 001 §5). */
export function normaliseSwitches(input: unknown, fallbackName: string): SwitchOption[] {
  if (!Array.isArray(input)) return [];
  return input
    .filter((s): s is Record<string, unknown> => !!s && typeof s === 'object')
    .map((s) => ({
      fName: text(s.fName) ?? fallbackName,
      fOpenValue: text(s.fOpenValue) ?? '1',
      fCloseValue: text(s.fCloseValue) ?? '0',
      fOpenReadValue: text(s.fOpenReadValue),
      fCloseReadValue: text(s.fCloseReadValue),
    }));
}

export function parseSwitches(stored: unknown): SwitchOption[] {
  if (typeof stored !== 'string' || !stored) return [];
  try {
    return normaliseSwitches(JSON.parse(stored), '');
  } catch {
    return [];
  }
}

/** Hardware alarm rows as given by a save; a row without byte and name is a blank line of the form. */
export function normaliseHardwareWarns(input: unknown): HardwareWarn[] {
  if (!Array.isArray(input)) return [];
  const rows: HardwareWarn[] = [];
  for (const w of input) {
    if (!w || typeof w !== 'object') continue;
    const r = w as Record<string, unknown>;
    const byte = text(r.fByteIndex);
    const name = text(r.fName);
    if (byte === null && name === null && text(r.fDes) === null) continue;
    if (byte === null || !/^\d+$/.test(byte)) throw refuse('library.warnByte');
    if (name === null) throw refuse('library.warnName');
    rows.push({ fByteIndex: Number(byte), fName: name, fDes: text(r.fDes) });
  }
  return rows;
}

function parseHardwareWarns(stored: unknown): HardwareWarn[] {
  if (typeof stored !== 'string' || !stored) return [];
  try {
    return normaliseHardwareWarns(JSON.parse(stored));
  } catch {
    return [];
  }
}

/**
 * The rules beyond the schema's (spec 001 §5), shared by the save and the import: an entity field names
 * its sub-library, which is not the field's own library.
 */
export function checkConf(merged: Record<string, unknown>): void {
  if (ENTITY_TYPES.includes(Number(merged.fDataType)) && !merged.fJsonSubId) throw refuse('library.subRequired');
  if (merged.fJsonSubId && merged.fJsonSubId === merged.fProductJsonId) throw refuse('library.subSelf');
}

export async function beforeSave(values: Record<string, unknown>, ctx: CallContext, existing?: Record<string, unknown>) {
  const merged = { ...existing, ...values };
  const libraryId = merged.fProductJsonId as number;
  const library = await ctx.db.selectFrom('t_product_json').select('fId').where('fId', '=', libraryId).executeTakeFirst();
  if (!library) throw refuse('library.fieldLibraryMissing');
  checkConf(merged);
  if (values.fJsonKey) {
    let q = ctx.db.selectFrom('t_product_json_conf').select('fId').where('fProductJsonId', '=', libraryId).where('fJsonKey', '=', values.fJsonKey as string);
    if (existing) q = q.where('fId', '!=', existing.fId as number);
    if (await q.executeTakeFirst()) throw refuse('library.keyTaken');
  }
  // The options arrive as productJsonConfSwitches (not a column) and are stored as JSON text.
  const name = String(merged.fJsonName ?? '');
  if ('productJsonConfSwitches' in ctx.body) {
    values.fSwitches = JSON.stringify(normaliseSwitches(ctx.body.productJsonConfSwitches, name));
  }
  if (merged.fFunctionType === 'switch') {
    const switches = parseSwitches(values.fSwitches ?? existing?.fSwitches);
    if (!switches.length) values.fSwitches = JSON.stringify(normaliseSwitches([{}], name));
    if (switches.some((w) => w.fOpenValue === w.fCloseValue)) throw refuse('library.switchValues');
  } else if ('fFunctionType' in values) {
    // Switch options belong to switch fields only; a field that stops being one drops them.
    values.fSwitches = null;
  }
  // Hardware alarm bytes (productJsonHardwareWarns) only mean something for a hardware alarm.
  const hardware = Number(merged.fIsWarn) === 1 && Number(merged.fWarnType) === HARDWARE_WARN;
  if (!hardware) {
    if ('fIsWarn' in values || 'fWarnType' in values) values.fHardwareWarns = null;
  } else if ('productJsonHardwareWarns' in ctx.body) {
    values.fHardwareWarns = JSON.stringify(normaliseHardwareWarns(ctx.body.productJsonHardwareWarns));
  }
}

export async function afterRead(rows: Record<string, unknown>[], ctx: Services) {
  if (!rows.length) return;
  const subIds = [...new Set(rows.map((r) => r.fJsonSubId).filter((v): v is number => typeof v === 'number'))];
  const [subs, types] = await Promise.all([
    subIds.length ? ctx.db.selectFrom('t_product_json').select(['fId', 'fName']).where('fId', 'in', subIds).execute() : [],
    ctx.db.selectFrom('t_sys_dic').select(['fValue', 'fContent']).where('fKey', '=', 'Product_Property').execute(),
  ]);
  const subName = new Map(subs.map((s) => [s.fId, s.fName]));
  const typeName = new Map(types.map((t) => [t.fValue, t.fContent]));
  for (const r of rows) {
    r.productJsonConfSwitches = parseSwitches(r.fSwitches).map((s) => ({ ...s, fProductJsonConfId: r.fId }));
    delete r.fSwitches;
    r.productJsonHardwareWarns = parseHardwareWarns(r.fHardwareWarns).map((w) => ({ ...w, fProductJsonConfId: r.fId }));
    delete r.fHardwareWarns;
    r.valueTypeName = r.fValueType ? typeName.get(r.fValueType) ?? r.fValueType : null;
    r.jsonSubName = r.fJsonSubId ? subName.get(r.fJsonSubId) ?? null : null;
  }
}

/**
 * Fields of a description library: the switch options kept as JSON beside the field, the rules the
 * generic validation cannot express (sub-library of entity types, one key per library), and the names
 * the field list shows.
 */
import { Refusal } from '../http/envelope';
import type { CallContext, Services } from '../crud/types';

export interface SwitchOption {
  fName: string;
  fOpenValue: string;
  fCloseValue: string;
  fOpenReadValue?: string | null;
  fCloseReadValue?: string | null;
}

/** Entity and entity-array fields describe their content with another library. */
export const ENTITY_TYPES = [7, 8];

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

export async function beforeSave(values: Record<string, unknown>, ctx: CallContext, existing?: Record<string, unknown>) {
  const merged = { ...existing, ...values };
  const libraryId = merged.fProductJsonId as number;
  const library = await ctx.db.selectFrom('t_product_json').select('fId').where('fId', '=', libraryId).executeTakeFirst();
  if (!library) throw new Refusal('所属描述库不存在');
  if (ENTITY_TYPES.includes(Number(merged.fDataType)) && !merged.fJsonSubId) {
    throw new Refusal('数据类型为实体/实体数组时，下级描述库不能为空');
  }
  if (merged.fJsonSubId && merged.fJsonSubId === libraryId) throw new Refusal('下级描述库不能是所属描述库');
  if (values.fJsonKey) {
    let q = ctx.db.selectFrom('t_product_json_conf').select('fId').where('fProductJsonId', '=', libraryId).where('fJsonKey', '=', values.fJsonKey as string);
    if (existing) q = q.where('fId', '!=', existing.fId as number);
    if (await q.executeTakeFirst()) throw new Refusal('该描述库中已存在相同标识符');
  }
  // The options arrive as productJsonConfSwitches (not a column) and are stored as JSON text.
  const name = String(merged.fJsonName ?? '');
  if ('productJsonConfSwitches' in ctx.body) {
    values.fSwitches = JSON.stringify(normaliseSwitches(ctx.body.productJsonConfSwitches, name));
  }
  if (merged.fFunctionType === 'switch' && !parseSwitches(values.fSwitches ?? existing?.fSwitches).length) {
    values.fSwitches = JSON.stringify(normaliseSwitches([{}], name));
  }
}

export async function afterRead(rows: Record<string, unknown>[], ctx: Services) {
  if (!rows.length) return;
  const subIds = [...new Set(rows.map((r) => r.fJsonSubId).filter((v): v is number => typeof v === 'number'))];
  const subs = subIds.length ? await ctx.db.selectFrom('t_product_json').select(['fId', 'fName']).where('fId', 'in', subIds).execute() : [];
  const subName = new Map(subs.map((s) => [s.fId, s.fName]));
  const types = await ctx.db.selectFrom('t_sys_dic').select(['fValue', 'fContent']).where('fKey', '=', 'Product_Property').execute();
  const typeName = new Map(types.map((t) => [t.fValue, t.fContent]));
  for (const r of rows) {
    r.productJsonConfSwitches = parseSwitches(r.fSwitches).map((s) => ({ ...s, fProductJsonConfId: r.fId }));
    delete r.fSwitches;
    r.valueTypeName = r.fValueType ? typeName.get(r.fValueType) ?? r.fValueType : null;
    r.jsonSubName = r.fJsonSubId ? subName.get(r.fJsonSubId) ?? null : null;
  }
}

/**
 * Departments and areas are trees keyed by a number the user gives (fDepartmentId, fAreaId), with the
 * parent named by that number (0 at the top), not by the surrogate fId. The number is fixed once a row
 * exists — the children point at it — so "add or edit" is an upsert by number, and moving a node is
 * checked against its own subtree.
 */
import { Forbidden, refuse } from '../http/envelope';
import type { PlainReasonCode } from '../../contract/generated/reasons';
import { save } from '../crud/engine';
import type { CallContext } from '../crud/types';
import { INT_MAX, isId } from '../http/guard';
import { forest } from './forest';

type Row = Record<string, unknown>;

export interface CodeTree {
  table: string;
  /** The user-given number and the parent's number. */
  code: string;
  parent: string;
  title: string;
  /** Why a save or a delete is refused: codes of the catalogue (the number's own rules are its schema's). */
  messages: { required: PlainReasonCode; taken: PlainReasonCode; parentMissing: PlainReasonCode; parentSelf: PlainReasonCode; parentCycle: PlainReasonCode; hasChildren: PlainReasonCode };
}

/** The legacy node (id, title, parentId, children) plus the row's own fields, so a form needs no second call. */
export interface TreeNode {
  id: number;
  title: string;
  parentId: number;
  children: TreeNode[];
  [field: string]: unknown;
}

export async function rowsOf(ctx: CallContext, t: CodeTree): Promise<Row[]> {
  return ctx.db.selectFrom(t.table).selectAll().orderBy(t.code).execute();
}

/** The forest; a node whose parent is gone is shown at the top rather than lost. */
export function buildTree(rows: Row[], t: CodeTree): TreeNode[] {
  const nodes = new Map<number, TreeNode>();
  for (const r of rows) nodes.set(Number(r[t.code]), { ...r, id: Number(r[t.code]), title: String(r[t.title] ?? ''), parentId: Number(r[t.parent] ?? 0), children: [] });
  return forest(nodes);
}

function descendants(rows: Row[], t: CodeTree, code: number): Set<number> {
  const out = new Set([code]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const r of rows) {
      const c = Number(r[t.code]);
      if (out.has(Number(r[t.parent])) && !out.has(c)) (out.add(c), (grew = true));
    }
  }
  return out;
}

export function codeOf(body: Row, t: CodeTree): number | null {
  const raw = body[t.code];
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return null;
  const n = Number(raw);
  // NaN for anything that is not an integer of the column, so it is never compared in a query.
  return Number.isInteger(n) && Math.abs(n) <= INT_MAX ? n : NaN;
}

/** beforeSave: the parent defaults to the top, must exist, and may not be the node or one below it. */
export async function checkParent(values: Row, ctx: CallContext, t: CodeTree, existing?: Row) {
  if (values[t.parent] === null || (!existing && values[t.parent] === undefined)) values[t.parent] = 0;
  if (values[t.parent] === undefined) return;
  const parent = Number(values[t.parent]);
  const code = Number(existing?.[t.code] ?? values[t.code]);
  if (parent === 0) return;
  if (parent === code) throw refuse(t.messages.parentSelf);
  const rows = await rowsOf(ctx, t);
  if (!rows.some((r) => Number(r[t.code]) === parent)) throw refuse(t.messages.parentMissing);
  if (existing && descendants(rows, t, code).has(parent)) throw refuse(t.messages.parentCycle);
}

/**
 * Creates the node when its number is new, else updates the node holding it. A body with fId edits
 * that row; the route chose add or edit permission by fId, so an update by number alone is checked here.
 * A body marked `isAdd` (the console's add forms, as the place and room calls mark theirs) only creates:
 * a number already given is refused rather than renaming and moving the node that holds it.
 */
export async function upsert(ctx: CallContext, t: CodeTree, updateCode: string) {
  const { isAdd, ...body } = ctx.body;
  const hasId = body.fId !== undefined && body.fId !== null && body.fId !== '';
  if (!hasId) {
    const code = codeOf(body, t);
    if (code !== null && Number.isInteger(code)) {
      const row = await ctx.db.selectFrom(t.table).select('fId').where(t.code, '=', code).executeTakeFirst();
      if (row && (isAdd === true || isAdd === 'true')) throw refuse(t.messages.taken);
      if (row) {
        if (!ctx.user.permissions.has(updateCode)) throw new Forbidden();
        body.fId = row.fId;
      }
    }
  }
  return save({ ...ctx, body });
}

/** Deletes by number (or fId); a node with children is refused so a click never takes a subtree. */
export async function removeNode(ctx: CallContext, t: CodeTree) {
  const code = codeOf(ctx.body, t);
  let q = ctx.db.selectFrom(t.table).selectAll();
  if (code !== null) q = q.where(t.code, '=', Number.isInteger(code) ? code : -1);
  else if (ctx.body.fId !== undefined && ctx.body.fId !== null && ctx.body.fId !== '') q = q.where('fId', '=', isId(ctx.body.fId) ? ctx.body.fId : -1);
  else throw refuse(t.messages.required);
  const row = await q.executeTakeFirst();
  if (!row) throw refuse('data.notFound');
  const child = await ctx.db.selectFrom(t.table).select('fId').where(t.parent, '=', row[t.code] as number).executeTakeFirst();
  if (child) throw refuse(t.messages.hasChildren);
  await ctx.db.deleteFrom(t.table).where('fId', '=', row.fId as number).execute();
  return null;
}

/**
 * The calls of one tree, for its module to export under the names its resource gives them: the parent
 * check before a save, the whole tree, the upsert by number (`updateCode`: the permission an existing
 * number's save needs) and the delete. The refusals stay the module's own, in its CodeTree.
 */
export function treeCalls(t: CodeTree, updateCode: string) {
  return {
    beforeSave: (values: Row, ctx: CallContext, existing?: Row) => checkParent(values, ctx, t, existing),
    treeList: async (ctx: CallContext) => buildTree(await rowsOf(ctx, t), t),
    addOrEdit: (ctx: CallContext) => upsert(ctx, t, updateCode),
    remove: (ctx: CallContext) => removeNode(ctx, t),
  };
}

/**
 * Areas, the region tree (spec 002 §3, §5, §7): keyed by the area number the user gives, with the
 * flat list, the tree, and the direct children of one area for lazy-loading selectors.
 */
import { refuse } from '../http/envelope';
import { present } from '../crud/engine';
import type { CallContext } from '../crud/types';
import { codeOf, treeCalls, type CodeTree } from './codeTree';

const TREE: CodeTree = {
  table: 't_area_info',
  code: 'fAreaId',
  parent: 'fHighAreaId',
  title: 'fAreaName',
  messages: {
    required: 'area.fAreaId.required',
    taken: 'area.fAreaId.unique',
    parentMissing: 'area.parentMissing',
    parentSelf: 'area.parentSelf',
    parentCycle: 'area.parentCycle',
    hasChildren: 'area.hasChildren',
  },
};

export const { beforeSave, treeList, addOrEdit, remove: removeArea } = treeCalls(TREE, 'area:edit');

/** The areas directly below fAreaId (0 or absent: the top level). */
export async function childrenList(ctx: CallContext) {
  const code = codeOf(ctx.body, TREE) ?? 0;
  if (!Number.isInteger(code) || code < 0) throw refuse('area.fAreaId.type');
  const rows = await ctx.db.selectFrom(TREE.table).selectAll().where(TREE.parent, '=', code).orderBy(TREE.code).execute();
  return present(ctx, ctx.entity, rows);
}

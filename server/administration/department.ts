/**
 * Departments (spec 002 §3, §5, §7): a tree keyed by the department number the user gives. Every
 * administrator sees the whole tree; there is no per-user scope.
 */
import type { CallContext } from '../crud/types';
import { buildTree, checkParent, removeNode, rowsOf, upsert, type CodeTree } from './codeTree';

type Row = Record<string, unknown>;

const TREE: CodeTree = {
  table: 't_department_info',
  code: 'fDepartmentId',
  parent: 'fHighDepartmentId',
  title: 'fDepartmentName',
  messages: {
    required: 'department.fDepartmentId.required',
    taken: 'department.fDepartmentId.unique',
    parentMissing: 'department.parentMissing',
    parentSelf: 'department.parentSelf',
    parentCycle: 'department.parentCycle',
    hasChildren: 'department.hasChildren',
  },
};

export const beforeSave = (values: Row, ctx: CallContext, existing?: Row) => checkParent(values, ctx, TREE, existing);

export const treeList = async (ctx: CallContext) => buildTree(await rowsOf(ctx, TREE), TREE);

export const addOrEdit = (ctx: CallContext) => upsert(ctx, TREE, 'department:edit');

export const removeDepartment = (ctx: CallContext) => removeNode(ctx, TREE);

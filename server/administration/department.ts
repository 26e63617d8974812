/**
 * Departments (spec 002 §3, §5, §7): a tree keyed by the department number the user gives. Every
 * administrator sees the whole tree; there is no per-user scope.
 */
import { treeCalls, type CodeTree } from './codeTree';

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

export const { beforeSave, treeList, addOrEdit, remove: removeDepartment } = treeCalls(TREE, 'department:edit');

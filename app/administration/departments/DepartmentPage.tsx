import { codeTreePage } from './CodeTreePage';

/** Department management (spec 002 screen 7). */
export const DepartmentPage = codeTreePage({
  ns: 'departments',
  permission: 'department',
  calls: { tree: 'department.list', save: 'department.save', delete: 'department.delete' },
  fields: { code: 'fDepartmentId', parent: 'fHighDepartmentId', name: 'fDepartmentName' },
});

export default DepartmentPage;

import type { ResourceConfig } from '../../resources/types';
import { CodeTreePage, type CodeTreeSettings } from './CodeTreePage';

const SETTINGS: CodeTreeSettings = {
  ns: 'departments',
  calls: { tree: 'department.list', save: 'department.save', delete: 'department.delete' },
  codeField: 'fDepartmentId',
  parentField: 'fHighDepartmentId',
  fields: [
    { key: 'fDepartmentId', label: 'number', code: true },
    { key: 'fDepartmentName', label: 'name', required: true, maxLength: 100 },
  ],
  codes: { list: 'department:list', addTop: 'department:add', addChild: 'department:add', edit: 'department:edit', del: 'department:del' },
};

/** Department management (spec 002 screen 7). */
export function DepartmentPage(_props: { config: ResourceConfig }) {
  return <CodeTreePage settings={SETTINGS} />;
}

export default DepartmentPage;

import { endpoints } from '../../adapters/generated/endpoints';
import type { ResourceConfig } from '../resources/types';
import { readBack } from '../components/serverText';
import texts from './messages';
import { CodeTreePage, type CodeTreeSettings } from './CodeTreePage';

const PATHS = endpoints.department;

const SETTINGS: CodeTreeSettings = {
  ns: 'departments',
  paths: { tree: PATHS.list, save: PATHS.save, delete: PATHS.delete },
  codeField: 'fDepartmentId',
  parentField: 'fHighDepartmentId',
  fields: [
    { key: 'fDepartmentId', label: 'number', code: true },
    { key: 'fDepartmentName', label: 'name', required: true, maxLength: 100 },
  ],
  refusal: readBack(texts['zh-CN'].departments.messages, 'departments.messages'),
  codes: { list: 'department:list', addTop: 'department:add', addChild: 'department:add', edit: 'department:edit', del: 'department:del' },
};

/** Department management (spec 002 screen 7). */
export function DepartmentPage(_props: { config: ResourceConfig }) {
  return <CodeTreePage settings={SETTINGS} />;
}

export default DepartmentPage;

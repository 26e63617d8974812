import type { ResourceConfig } from '../../resources/types';
import { CodeTreePage, type CodeTreeSettings } from '../departments/CodeTreePage';

/**
 * Spec 002 §6 notes the legacy screen checks area:add for the top-level add and for edit, and area:edit
 * for the child add — swapped by mistake. Here each button asks for the code its name says.
 */
const SETTINGS: CodeTreeSettings = {
  ns: 'areas',
  calls: { tree: 'area.treeList', save: 'area.save', delete: 'area.delete' },
  codeField: 'fAreaId',
  parentField: 'fHighAreaId',
  fields: [
    { key: 'fAreaId', label: 'number', code: true },
    { key: 'fAreaName', label: 'name', required: true, maxLength: 100 },
    { key: 'fAreaPinyin', label: 'pinyin', maxLength: 200 },
    { key: 'fAreaPinyinAcr', label: 'pinyinAcr', maxLength: 50 },
  ],
  codes: { list: 'area:list', addTop: 'area:add', addChild: 'area:add', edit: 'area:edit', del: 'area:del' },
};

/** Area management, the region tree (spec 002 screen 8). */
export function AreaPage(_props: { config: ResourceConfig }) {
  return <CodeTreePage settings={SETTINGS} />;
}

export default AreaPage;

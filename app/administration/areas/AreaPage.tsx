import { codeTreePage } from '../departments/CodeTreePage';

/**
 * Area management, the region tree (spec 002 screen 8). Spec 002 §6 notes the legacy screen checks
 * area:add for the top-level add and for edit, and area:edit for the child add — swapped by mistake.
 * Here each button asks for the code its name says.
 */
export const AreaPage = codeTreePage({
  ns: 'areas',
  permission: 'area',
  calls: { tree: 'area.treeList', save: 'area.save', delete: 'area.delete' },
  fields: { code: 'fAreaId', parent: 'fHighAreaId', name: 'fAreaName' },
  more: [
    { key: 'fAreaPinyin', label: 'pinyin', maxLength: 200 },
    { key: 'fAreaPinyinAcr', label: 'pinyinAcr', maxLength: 50 },
  ],
});

export default AreaPage;

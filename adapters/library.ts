/**
 * Product functions and description libraries (spec 001 §2.10, §2.11, §8) as the server refuses their
 * saves and deletes, in one place: the server answers with these texts (a name filled in for %{name}),
 * and the console shows them in its own language by reading them back to its catalogue
 * (app/components/serverReason.ts).
 */
export const LIBRARY_REFUSALS = {
  libraryMissing: '描述库不存在',
  functionInUse: '该功能已被产品「%{name}」使用，无法删除',
  searchMissing: '查询描述库不存在',
  searchNotReceive: '查询描述库必须是接收类型',
  parentSelf: '上级描述库不能是自己',
  parentMissing: '上级描述库不存在',
  usedByProduct: '该描述库已被产品「%{name}」使用，无法删除',
  usedByFunction: '该描述库已被功能「%{name}」使用，无法删除',
  hasChildren: '该描述库下存在下级描述库，无法删除',
  fieldLibraryMissing: '所属描述库不存在',
  subRequired: '数据类型为实体/实体数组时，下级描述库不能为空',
  subSelf: '下级描述库不能是所属描述库',
  keyTaken: '该描述库中已存在相同标识符',
  warnByte: '硬件告警字节序号必须是不小于0的整数',
  warnName: '硬件告警名称不能为空',
  switchValues: '开关的开值和关值不能相同',
};

/** A refusal's text with its names filled in. */
export const fillReason = (template: string, values: Record<string, string>) => template.replace(/%\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

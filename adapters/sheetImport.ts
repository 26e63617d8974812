/**
 * A sheet import's refusal (spec 001 §2.6, §5) as the server words it: a first line saying the file was
 * refused, then one line per bad row, "第<n>行：<reason>". The console reads it back line by line to show
 * it in its own language (app/components/importText.ts).
 */
export const SHEET_MESSAGES = {
  format: '文件格式不正确',
  size: '超出文件大小限制',
  missing: '请选择导入文件',
  empty: '导入文件没有数据',
  failed: '导入失败，未导入任何数据',
};

/** Reasons a row of the people watch-list import is refused beyond its fields' own rules. */
export const CONTROL_PERSON_IMPORT_REASONS = { duplicate: '身份证号重复' };

/** One bad row's line. */
export const rowLine = (row: number, reason: string) => `第${row}行：${reason}`;
/** A bad row's line read back: its number and its reason. */
export const ROW_LINE = /^第(\d+)行：([\s\S]*)$/;

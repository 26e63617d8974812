/** The option lists of schemas/enums.json, as the server words them. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The options of schemas/enums.json: list → value → its words in each language. */
export const enums = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'schemas', 'enums.json'), 'utf8')) as Record<string, Record<string, Record<'zh-CN' | 'zh-TW' | 'en-US', string>>>;
export const label = (list: string, value: unknown) => (value === null || value === undefined ? null : enums[list]?.[String(value)]?.['zh-CN'] ?? null);

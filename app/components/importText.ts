/**
 * A refused sheet import in the console's language (spec 001 §2.6, §5). The server answers a first line
 * (adapters/sheetImport.ts) and one line per bad row, "第<n>行：<reason>", the reason being one of the
 * import's own (common.import.*) or a field rule the resource declares (resources.<name>.messages.*).
 * Those rules are read back through the Simplified Chinese catalogue, fetched only when an import is
 * refused in another language; a line it does not know is shown as it came.
 */
import { ROW_LINE } from '../../adapters/sheetImport';
import texts from './messages';

type Translate = (key: string, options?: Record<string, unknown>) => string;
type Tree = { [key: string]: unknown };

const OWN = new Map<string, string>([
  ...Object.entries(texts['zh-CN'].common.import.messages).map(([key, text]) => [text, `common.import.messages.${key}`] as [string, string]),
  ...Object.entries(texts['zh-CN'].common.import.reasons).map(([key, text]) => [text, `common.import.reasons.${key}`] as [string, string]),
]);

/** The field rules of a resource as the server words them, each with its catalogue key. */
async function fieldRules(resource: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const catalogue = ((await import('../generated/catalogues/zh-CN.rest')).default as Tree).resources as Tree | undefined;
  const messages = ((catalogue?.[resource] as Tree | undefined)?.messages ?? {}) as Record<string, Record<string, string>>;
  for (const [field, rules] of Object.entries(messages)) for (const [rule, text] of Object.entries(rules)) if (!found.has(text)) found.set(text, `resources.${resource}.messages.${field}.${rule}`);
  return found;
}

export async function importProblems(translate: Translate, locale: string, resource: string | undefined, message: string): Promise<string[]> {
  const lines = message.split('\n');
  if (locale === 'zh-CN') return lines;
  const rules = resource && lines.some((line) => ROW_LINE.test(line)) ? await fieldRules(resource).catch(() => new Map<string, string>()) : new Map<string, string>();
  const reason = (text: string) => {
    const key = OWN.get(text) ?? rules.get(text);
    return key ? translate(key) : text;
  };
  return lines.map((line) => {
    const row = ROW_LINE.exec(line);
    return row ? translate('common.import.row', { row: row[1], reason: reason(row[2]) }) : reason(line);
  });
}

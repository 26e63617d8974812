/**
 * The server words its answers in Chinese whatever the console's language (DESIGN §4). A page that knows
 * the texts it may get back reads them back to its catalogue keys and shows them in the console's
 * language; any other text (a legacy backend's own words) is shown as it came. A text with holes
 * (`该描述库已被产品「%{name}」使用`) is read back with what the server filled in.
 */
import { LIBRARY_REFUSALS } from '../../adapters/library';
import { PLACE_REFUSALS, SYSTEM_REFUSALS } from '../../adapters/systemRefusals';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A server text in the console's language ('' for none). */
export type ServerText = (translate: Translate, text: string | undefined) => string;

type Found = { key: string; args?: Record<string, string> } | undefined;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Finds a text of one catalogue section (its zh-CN words, the server's) as `prefix.<key>`. */
function finder(section: Record<string, unknown>, prefix: string): (text: string) => Found {
  const exact = new Map<string, string>();
  const holed: { key: string; names: string[]; pattern: RegExp }[] = [];
  for (const [key, text] of Object.entries(section)) {
    if (typeof text !== 'string') continue;
    const names = [...text.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]);
    if (!names.length) exact.set(text, `${prefix}.${key}`);
    else holed.push({ key: `${prefix}.${key}`, names, pattern: new RegExp(`^${text.split(/%\{\w+\}/).map(escape).join('(.+?)')}$`) });
  }
  return (text) => {
    const key = exact.get(text);
    if (key) return { key };
    for (const h of holed) {
      const m = h.pattern.exec(text);
      if (m) return { key: h.key, args: Object.fromEntries(h.names.map((name, i) => [name, m[i + 1]])) };
    }
    return undefined;
  };
}

/** Reads back the texts of these catalogue sections, the first that knows a text winning. */
export function readBackAll(sections: [Record<string, unknown>, string][]): ServerText {
  const finders = sections.map(([section, prefix]) => finder(section, prefix));
  return (translate, text) => {
    if (!text) return '';
    for (const find of finders) {
      const found = find(text);
      if (found) return translate(found.key, found.args);
    }
    return text;
  };
}

/** Reads back the texts of one catalogue section to `prefix.<key>`. */
export const readBack = (section: Record<string, unknown>, prefix: string): ServerText => readBackAll([[section, prefix]]);

/**
 * The refusals the generic lists and forms may meet on any page that shows them (a description library
 * or function in use, a user's, role's or place's refusal): what they read back when their page names none.
 */
export const generalRefusal = readBackAll([
  [LIBRARY_REFUSALS, 'library.refusals'],
  [SYSTEM_REFUSALS, 'sys.refusals'],
  [PLACE_REFUSALS, 'places.refusals'],
]);

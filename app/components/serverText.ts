/**
 * The server words its answers in Chinese whatever the console's language (DESIGN §4). A page that knows
 * the texts it may get back reads them back to its catalogue keys and shows them in the console's
 * language; any other text (a legacy backend's own words) is shown as it came.
 */
type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A server text in the console's language ('' for none). */
export type ServerText = (translate: Translate, text: string | undefined) => string;

/** Reads back the texts of one catalogue section (its zh-CN words, the server's) to `prefix.<key>`. */
export function readBack(section: Record<string, unknown>, prefix: string): ServerText {
  const keys = new Map<string, string>();
  for (const [key, text] of Object.entries(section)) if (typeof text === 'string') keys.set(text, `${prefix}.${key}`);
  return (translate, text) => {
    if (!text) return '';
    const key = keys.get(text);
    return key ? translate(key) : text;
  };
}

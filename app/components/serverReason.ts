/**
 * A reason the server gave for refusing a save or a delete, in the console's language. The refusals of
 * the neutral modules beside the adapters are read back to their catalogue keys (a name the server
 * filled in for %{name} is carried over); any other reason is shown as it came.
 */
import { LIBRARY_REFUSALS } from '../../adapters/library';

type Translate = (key: string, options?: Record<string, unknown>) => string;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each known refusal as a pattern over the server's text, with its key and the names of its holes. */
const KNOWN = Object.entries(LIBRARY_REFUSALS).map(([key, template]) => {
  const names = [...template.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]);
  const pattern = new RegExp(`^${template.split(/%\{\w+\}/).map(escape).join('(.+?)')}$`);
  return { key: `library.refusals.${key}`, names, pattern };
});

export function serverReason(translate: Translate, message: string): string {
  for (const { key, names, pattern } of KNOWN) {
    const found = pattern.exec(message);
    if (found) return translate(key, Object.fromEntries(names.map((name, i) => [name, found[i + 1]])));
  }
  return message;
}

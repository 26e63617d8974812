/** Times leave the server as `YYYY-MM-DD HH:mm:ss` in the configured time zone (DESIGN.md §4). */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function formatTime(date: Date, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    // The Swedish locale writes dates as ISO does: 2026-11-22 14:30:00.
    f = new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
    formatters.set(timeZone, f);
  }
  return f.format(date);
}

export function formatRow<T extends Record<string, unknown>>(row: T, timeZone: string): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = v instanceof Date ? formatTime(v, timeZone) : v;
  return out as T;
}

/**
 * How the API document says so: a time column is a string of this custom format, with the pattern any
 * JSON Schema validator checks (`format: date-time` would promise RFC 3339, which answers do not carry).
 * Validators that check formats (tests/e2e/contract.ts) register TIME_FORMATS.
 */
export const TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';
export const TIME_SCHEMA = { format: 'local-date-time', pattern: TIME_PATTERN } as const;
export const TIME_FORMATS: Record<string, RegExp> = { 'local-date-time': new RegExp(TIME_PATTERN) };

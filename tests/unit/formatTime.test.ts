/**
 * Times are written in the configured zone from an offset worked out once per quarter hour
 * (server/crud/format.ts); they must read exactly as Intl writes them, across changes of offset too.
 */
import { describe, expect, it } from 'vitest';
import { formatTime } from '../../server/crud/format';

// One formatter per zone: making one is what costs, thousands of times more than using it.
const formatters = new Map<string, Intl.DateTimeFormat>();
const intl = (d: Date, timeZone: string) => {
  let f = formatters.get(timeZone);
  if (!f) formatters.set(timeZone, (f = new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false })));
  return f.format(d);
};

describe('formatTime', () => {
  it('writes every time as Intl does, in zones with and without summer time and with odd offsets', () => {
    const zones = ['Asia/Shanghai', 'Asia/Taipei', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Chatham', 'UTC'];
    // Around this year's and last year's changes of offset, every 7 minutes and 13 seconds, plus odd instants.
    const starts = [Date.UTC(2026, 2, 27), Date.UTC(2026, 9, 24), Date.UTC(2025, 3, 4), Date.UTC(2025, 8, 26), Date.UTC(2026, 10, 26)];
    let checked = 0;
    for (const timeZone of zones) {
      for (const start of starts) {
        for (let ms = start; ms < start + 4 * 86_400_000; ms += 433_000) {
          const d = new Date(ms + (checked % 997));
          expect(formatTime(d, timeZone), `${timeZone} ${d.toISOString()}`).toBe(intl(d, timeZone));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(30_000);
  });

  it('leaves times before standard time, and far years, to Intl', () => {
    for (const iso of ['1890-06-01T03:04:05.678Z', '1901-01-01T00:00:00Z', '0999-12-31T23:59:59Z', '2026-11-26T23:59:59.999Z']) {
      const d = new Date(iso);
      expect(formatTime(d, 'Asia/Shanghai')).toBe(intl(d, 'Asia/Shanghai'));
    }
  });
});

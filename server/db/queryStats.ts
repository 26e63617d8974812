/**
 * The time of every statement this server runs, by its text (Kysely's statements carry parameters, so
 * one text is one kind of query): the database monitor's "slowest statements" where the server has no
 * pg_stat_statements (PGlite, or a PostgreSQL without the extension).
 */
import type { LogEvent } from 'kysely';

/** Distinct statements kept; a new one beyond this replaces the least called. */
const MAX_STATEMENTS = 500;
const MAX_TEXT = 2000;

export interface StatementFigures {
  query: string;
  calls: number;
  totalMs: number;
  meanMs: number;
  maxMs: number;
  errors: number;
}

export class QueryStats {
  readonly #byText = new Map<string, { calls: number; totalMs: number; maxMs: number; errors: number }>();

  readonly log = (event: LogEvent) => {
    const text = event.query.sql.length > MAX_TEXT ? event.query.sql.slice(0, MAX_TEXT) + '…' : event.query.sql;
    let s = this.#byText.get(text);
    if (!s) {
      if (this.#byText.size >= MAX_STATEMENTS) {
        let least: string | undefined;
        for (const [k, v] of this.#byText) if (!least || v.calls < this.#byText.get(least)!.calls) least = k;
        this.#byText.delete(least!);
      }
      s = { calls: 0, totalMs: 0, maxMs: 0, errors: 0 };
      this.#byText.set(text, s);
    }
    s.calls++;
    s.totalMs += event.queryDurationMillis;
    s.maxMs = Math.max(s.maxMs, event.queryDurationMillis);
    if (event.level === 'error') s.errors++;
  };

  /** The statements with the longest mean time first. */
  slowest(limit: number): StatementFigures[] {
    const round = (v: number) => Math.round(v * 100) / 100;
    return [...this.#byText.entries()]
      .map(([query, s]) => ({ query, calls: s.calls, totalMs: round(s.totalMs), meanMs: round(s.totalMs / s.calls), maxMs: round(s.maxMs), errors: s.errors }))
      .sort((a, b) => b.meanMs - a.meanMs)
      .slice(0, limit);
  }

  get statements(): number {
    return this.#byText.size;
  }
}

/**
 * What must hold after a fault, read from the database and from the clients' own records (./workload.ts),
 * never from the servers' logs.
 */
import type pg from 'pg';
import type { Answer, DeviceRecord, WorkloadRecord } from './workload';

/** Writes of one replica further apart than this are two ingest spans. */
export const SPAN_GAP_MS = 3000;

export interface Messages {
  sent: number;
  stored: number;
  missing: number;
  duplicated: number;
  outOfOrder: number;
}

/** Readings of the devices stored, missing, stored more than once and stored after a later one. */
export async function messages(db: pg.Client, devices: DeviceRecord[]): Promise<Messages> {
  const total: Messages = { sent: 0, stored: 0, missing: 0, duplicated: 0, outOfOrder: 0 };
  for (const d of devices) {
    const { rows } = await db.query<{ voltage: number }>(
      `select t.voltage from t_device_telemetry t where t.f_device_id = $1 and t.f_time >= $2 and t.f_time < $3 order by t.f_id`,
      [d.id, new Date(d.base), new Date(d.base + d.sent)],
    );
    const seen = new Map<number, number>();
    let highest = -1;
    for (const { voltage } of rows) {
      seen.set(voltage, (seen.get(voltage) ?? 0) + 1);
      if (voltage < highest) total.outOfOrder++;
      highest = Math.max(highest, voltage);
    }
    total.sent += d.sent;
    total.stored += rows.length;
    total.missing += Array.from({ length: d.sent }, (_, i) => i).filter((i) => !seen.has(i)).length;
    total.duplicated += [...seen.values()].filter((n) => n > 1).reduce((a, n) => a + n - 1, 0);
  }
  return total;
}

/** Writes the replicas acknowledged that the database does not hold. */
export async function lostWrites(db: pg.Client, writes: Answer[]): Promise<string[]> {
  const acknowledged = writes.filter((w) => w.outcome === 'acknowledged').map((w) => w.name!);
  if (!acknowledged.length) return [];
  const { rows } = await db.query<{ f_name: string }>(`select f_name from t_group where f_name = any($1)`, [acknowledged]);
  const held = new Set(rows.map((r) => r.f_name));
  return acknowledged.filter((n) => !held.has(n));
}

export interface Span {
  replica: string;
  from: Date;
  to: Date;
  rows: number;
}

/** Each replica's ingest spans (its writes to the message log, by the database's clock), in time order. */
export async function ingestSpans(db: pg.Client, since: Date): Promise<Span[]> {
  const { rows } = await db.query<{ f_at: Date; f_replica: string; f_rows: number }>(`select f_at, f_replica, f_rows from chaos_ingest_write where f_at >= $1 order by f_at`, [since]);
  const open = new Map<string, Span>();
  const spans: Span[] = [];
  for (const w of rows) {
    const span = open.get(w.f_replica);
    if (span && w.f_at.getTime() - span.to.getTime() <= SPAN_GAP_MS) {
      span.to = w.f_at;
      span.rows += w.f_rows;
    } else {
      const fresh = { replica: w.f_replica, from: w.f_at, to: w.f_at, rows: w.f_rows };
      open.set(w.f_replica, fresh);
      spans.push(fresh);
    }
  }
  return spans;
}

/** Pairs of spans of different replicas that overlap in time: two replicas ingesting at once. */
export function overlaps(spans: Span[]): [Span, Span][] {
  const found: [Span, Span][] = [];
  for (let i = 0; i < spans.length; i++)
    for (let j = i + 1; j < spans.length; j++)
      if (spans[i].replica !== spans[j].replica && spans[i].from <= spans[j].to && spans[j].from <= spans[i].to) found.push([spans[i], spans[j]]);
  return found;
}

/** The commands of the device still pending or sent (stuck, once their deadline is past), and the timer's firings. */
export async function commandsAndTimer(db: pg.Client, record: WorkloadRecord) {
  const { rows } = await db.query<{ f_state: string; f_source: string }>(`select f_state, f_source from t_device_command where f_device_id = $1`, [record.commandDevice.id]);
  const states: Record<string, number> = {};
  for (const r of rows) states[r.f_state] = (states[r.f_state] ?? 0) + 1;
  // When the timer fired, by the database's clock, against when it was due.
  const fired = record.timer
    ? (await db.query<{ f_at: Date }>(`select f_at from chaos_command_write where f_device_id = $1 and f_source = 'timer' order by f_at limit 1`, [record.commandDevice.id])).rows[0]
    : undefined;
  return {
    states,
    stuck: rows.filter((r) => r.f_state === 'pending' || r.f_state === 'sent').length,
    timerFirings: rows.filter((r) => r.f_source === 'timer').length,
    timerLateMs: fired && record.timer ? fired.f_at.getTime() - record.timer.due.getTime() : undefined,
  };
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** How a replica answered in a window: counts by outcome, and the 99th percentile of the answers' times. */
export function answered(answers: Answer[], replica: string, from: number, to: number) {
  const mine = answers.filter((a) => a.replica === replica && a.at >= from && a.at < to);
  const outcomes: Partial<Record<Answer['outcome'], number>> = {};
  for (const a of mine) outcomes[a.outcome] = (outcomes[a.outcome] ?? 0) + 1;
  return { asked: mine.length, outcomes, p99Ms: percentile(mine.filter((a) => a.outcome !== 'no answer').map((a) => a.ms), 99) };
}

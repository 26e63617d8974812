/**
 * The faults, and one run of each: the workload going, the fault put on the replica that ingests (the one
 * whose loss matters most), taken off after its time, and then what must hold checked (./invariants.ts).
 */
import type { Cluster, Replica } from './cluster';
import { answered, commandsAndTimer, ingestSpans, lostWrites, messages, overlaps, type Messages } from './invariants';
import { startWorkload } from './workload';
import { ADMIN } from '../api/harness';

export interface Fault {
  name: string;
  /** What is done to the replica's link. */
  what: string;
  ms: number;
  /** The replica cannot reach its database: it must answer 503, not wait or answer wrong. */
  cutsDatabase: boolean;
  apply(cluster: Cluster, target: Replica): void | Promise<void>;
  /** Takes the fault off; by default the link's rules and delay. */
  heal?(cluster: Cluster, target: Replica): Promise<void>;
  /** The first replica's clock offset (faketime): such a fault runs on a cluster of its own. */
  clock?: string;
}

/**
 * The first replica — the one that ingests, having started first — runs with its clock `offset` away from
 * the other's and the database's (faketime, started so: `clock`); nothing else is done to it.
 */
const skewed = (name: string, offset: string, what: string): Fault => ({
  name, what, ms: 75_000, cutsDatabase: false, clock: offset,
  apply: () => undefined,
  heal: async () => undefined,
});

/** The command that runs a replica with its clock `offset` (`+120s`) away; monotonic time stays true. */
export const clockWrap = (offset: string) => ['env', 'FAKETIME_DONT_FAKE_MONOTONIC=1', 'faketime', '-f', offset];

const cut = (name: string, what: string, services: ('database' | 'broker')[], ms: number): Fault => ({
  name, what, ms, cutsDatabase: services.includes('database'),
  apply: (cluster, target) => cluster.network.cut(target.link, services),
});

export const FAULTS: Fault[] = [
  cut('cut-database', 'the ingesting replica cut from PostgreSQL for 40 s', ['database'], 40_000),
  cut('cut-broker', 'the ingesting replica cut from the broker for 40 s', ['broker'], 40_000),
  cut('cut-both', 'the ingesting replica cut from PostgreSQL and the broker for 40 s', ['database', 'broker'], 40_000),
  { name: 'loss-20', what: '20 % of the packets between the ingesting replica and PostgreSQL and the broker dropped (iptables statistic) for 30 s', ms: 30_000, cutsDatabase: false, apply: (c, t) => c.network.lose(t.link, ['database', 'broker'], 0.2) },
  { name: 'latency-500', what: "500 ms added to every byte on the ingesting replica's broker link (a delaying relay) for 30 s", ms: 30_000, cutsDatabase: false, apply: (_c, t) => void (t.relay.delayMs = 500) },
  cut('partition-heals', 'the ingesting replica partitioned from everything it needs, healed after 30 s', ['database', 'broker'], 30_000),
  skewed('clock-ahead', '+120s', "the ingesting replica's clock two minutes ahead (faketime), a timer due meanwhile"),
  skewed('clock-behind', '-120s', "the ingesting replica's clock two minutes behind (faketime), a timer due meanwhile"),
];

/** A sign-in's issue time must be within this of the database's clock (the token counts whole seconds). */
const TOKEN_WITHIN_MS = 3000;

/** Signs in on `replica` and reads its token's times (a JWT's payload) against the database's clock. */
async function signInClock(cluster: Cluster, replica: Replica): Promise<{ issuedOffMs: number; lifetimeS: number }> {
  const res = await fetch(replica.url + '/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName: ADMIN.phone, password: ADMIN.password }) });
  const token: string = (await res.json()).data.token;
  const { rows } = await cluster.db.query<{ ms: number }>(`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`);
  const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { iat: number; exp: number };
  return { issuedOffMs: claims.iat * 1000 - rows[0].ms, lifetimeS: claims.exp - claims.iat };
}

/** The timer must fire within this of its minute, by the database's clock. */
const TIMER_WITHIN_MS = 15_000;

export const fault = (name: string) => {
  const found = FAULTS.find((f) => f.name === name);
  if (!found) throw new Error(`no fault named ${name} (${FAULTS.map((f) => f.name).join(', ')})`);
  return found;
};

export interface FaultResult {
  fault: string;
  what: string;
  target: string;
  messages: Messages;
  writes: { acknowledged: number; lost: number; unavailable: number; noAnswer: number };
  overlappingSpans: number;
  spans: { replica: string; from: string; to: string; rows: number }[];
  commands: Record<string, number>;
  stuckCommands: number;
  timerFirings?: number;
  /** When the timer fired against its minute, by the database's clock (negative: early). */
  timerLateMs?: number;
  /**
   * Clock faults: a sign-in on the skewed replica — its token's issue time against the database's clock
   * (ms), and its lifetime in seconds.
   */
  token?: { issuedOffMs: number; lifetimeS: number };
  /** During the fault: the other replicas' answers, and the target's. */
  healthy: ReturnType<typeof answered>[];
  cutOff: ReturnType<typeof answered>;
  /** From the fault's end until every reading sent is stored and every replica answers its health check. */
  convergeMs: number;
  /** What did not hold: empty when all did. */
  violations: string[];
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * Latency a healthy replica must keep under during a fault (p99 of its answers), on a two-core machine
 * shared with other work: it takes the ingest over and catches up with what the broker kept meanwhile.
 */
export const HEALTHY_P99_MS = 3000;
/** A replica cut from its database may take this long to notice before it must answer 503. */
const NOTICE_MS = 8000;
const CONVERGE_MS = 90_000;

/** The replica that wrote the message log last, by the database's record; the first one otherwise. */
async function ingesting(cluster: Cluster): Promise<Replica> {
  const { rows } = await cluster.db.query<{ f_replica: string }>(`select f_replica from chaos_ingest_write order by f_id desc limit 1`);
  return cluster.replicas.find((r) => r.name === rows[0]?.f_replica) ?? cluster.replicas[0];
}

async function healthy(replica: Replica) {
  return fetch(replica.url + '/healthz', { signal: AbortSignal.timeout(3000) }).then((r) => r.ok, () => false);
}

export async function runFault(cluster: Cluster, f: Fault, { timer = false, log = console.log }: { timer?: boolean; log?: (line: string) => void } = {}): Promise<FaultResult> {
  const started = new Date();
  const workload = await startWorkload(cluster, { timerAfterMs: timer ? 15_000 : undefined });
  const { record } = workload;
  let convergeMs = -1;
  let target: Replica;
  let window: [number, number];
  try {
    await pause(8000);
    target = await ingesting(cluster);
    log(`${f.name}: ${f.what} (target ${target.name})`);
    window = [Date.now(), 0];
    await f.apply(cluster, target);
    await pause(f.ms);
    if (f.heal) await f.heal(cluster, target);
    else {
      cluster.network.heal(target.link);
      target.relay.delayMs = 0;
    }
    window[1] = Date.now();
    log(`${f.name}: healed`);
    await pause(5000);
  } finally {
    await workload.stop();
  }
  // Converged: every reading the devices sent is stored, and every replica answers.
  for (;;) {
    const m = await messages(cluster.db, record.devices);
    if (m.stored - m.duplicated >= m.sent && (await Promise.all(cluster.replicas.map(healthy))).every(Boolean)) {
      convergeMs = Date.now() - window[1];
      break;
    }
    if (Date.now() - window[1] > CONVERGE_MS) break;
    await pause(500);
  }
  // Every command has had its deadline (COMMAND_TIMEOUT_MS + the sweep), the timer its minute.
  await pause(12_000);
  if (record.timer) await pause(Math.max(0, record.timer.due.getTime() + 10_000 - Date.now()));
  // A late duplicate shows after the count was reached.
  const m = await messages(cluster.db, record.devices);
  const lost = await lostWrites(cluster.db, record.writes);
  const spans = await ingestSpans(cluster.db, started);
  const overlapping = overlaps(spans);
  const commands = await commandsAndTimer(cluster.db, record);
  const others = cluster.replicas.filter((r) => r !== target);
  const during = [...record.writes, ...record.probes];
  const healthyAnswers = others.map((r) => answered(during, r.name, window[0], window[1]));
  const cutOff = answered(during, target.name, window[0] + NOTICE_MS, window[1]);

  const token = f.clock ? await signInClock(cluster, cluster.replicas[0]) : undefined;

  const violations: string[] = [];
  if (token && Math.abs(token.issuedOffMs) > TOKEN_WITHIN_MS) violations.push(`a sign-in on the skewed replica was issued ${Math.round(token.issuedOffMs / 1000)} s off the database's clock`);
  if (lost.length) violations.push(`${lost.length} acknowledged writes lost (${lost.slice(0, 3).join(', ')}…)`);
  if (m.missing) violations.push(`${m.missing} device readings never stored`);
  if (m.duplicated) violations.push(`${m.duplicated} device readings stored twice`);
  if (m.outOfOrder) violations.push(`${m.outOfOrder} device readings stored after a later one`);
  if (overlapping.length) violations.push(`${overlapping.length} pairs of ingest spans of two replicas overlap (${overlapping[0][0].replica} and ${overlapping[0][1].replica})`);
  if (commands.stuck) violations.push(`${commands.stuck} commands still pending or sent past their deadline`);
  if (record.timer && commands.timerFirings !== 1) violations.push(`the timer fired ${commands.timerFirings} times`);
  if (commands.timerLateMs !== undefined && Math.abs(commands.timerLateMs) > TIMER_WITHIN_MS) violations.push(`the timer fired ${Math.round(commands.timerLateMs / 1000)} s from its minute (database clock)`);
  for (const [i, h] of healthyAnswers.entries()) {
    if (h.outcomes['no answer'] || h.outcomes.unavailable) violations.push(`healthy replica ${others[i].name} left ${(h.outcomes['no answer'] ?? 0) + (h.outcomes.unavailable ?? 0)} of ${h.asked} calls unanswered or refused`);
    if (h.p99Ms > HEALTHY_P99_MS) violations.push(`healthy replica ${others[i].name} answered in ${h.p99Ms} ms (p99) > ${HEALTHY_P99_MS} ms`);
  }
  if (f.cutsDatabase) {
    const wrong = (cutOff.outcomes['no answer'] ?? 0) + (cutOff.outcomes.acknowledged ?? 0) + (cutOff.outcomes.refused ?? 0);
    if (wrong) violations.push(`the replica cut from its database answered ${wrong} of ${cutOff.asked} calls otherwise than 503 (${JSON.stringify(cutOff.outcomes)})`);
  }
  if (convergeMs < 0) violations.push(`not converged ${CONVERGE_MS / 1000} s after healing`);

  const result: FaultResult = {
    fault: f.name, what: f.what, target: target!.name, messages: m,
    writes: {
      acknowledged: record.writes.filter((w) => w.outcome === 'acknowledged').length, lost: lost.length,
      unavailable: record.writes.filter((w) => w.outcome === 'unavailable').length, noAnswer: record.writes.filter((w) => w.outcome === 'no answer').length,
    },
    overlappingSpans: overlapping.length,
    spans: spans.map((s) => ({ replica: s.replica, from: s.from.toISOString(), to: s.to.toISOString(), rows: s.rows })),
    commands: commands.states, stuckCommands: commands.stuck, timerFirings: record.timer ? commands.timerFirings : undefined, timerLateMs: commands.timerLateMs,
    healthy: healthyAnswers, cutOff, convergeMs, violations, token,
  };
  log(`${f.name}: ${m.sent} readings sent, ${m.stored} stored, ${m.missing} lost, ${m.duplicated} twice, ${m.outOfOrder} out of order; converged in ${convergeMs} ms; ${violations.length ? `VIOLATED: ${violations.join('; ')}` : 'all held'}`);
  return result;
}

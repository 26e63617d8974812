/**
 * Fires device timers and switch schedules. Once a minute, on the minute, in the configured time zone,
 * each replica claims the due rows with `FOR UPDATE SKIP LOCKED` and moves them on (next run, executed
 * mark) in one short transaction, so with several replicas every row fires exactly once; the commands
 * go out after the commit, so no row lock waits on a device's acknowledgement.
 *
 * A timer's reverse action is a row too (fReverseTime, the time it is due), claimed the same way and
 * cleared as it is claimed, so it runs once. The claim that fires the timer tells every replica through
 * the relay when the reverse is due, and each wakes then: the reverse keeps its seconds even when the
 * replica that fired the timer has stopped since (a restart picks it up at the next minute otherwise).
 */
import { clockOf } from '../db/clock';
import { Refusal } from '../http/envelope';
import type { Query } from '../crud/types';
import type { DB } from '../db';
import type { LiveDevices } from './live';
import { publish, type Relay } from '../relay';
import { COMMAND_DEADLINE_MS, sendCommand, type CommandOutcome } from './commands';
import { words } from './words';
import type { Language } from '../../contract/reasons';
import { hhmm, localTime, nextRunTime, zonedInstant, OPT_ON, VALID_ONCE } from './deviceTiming';

/**
 * A row more than this late (a server that was down, a clock jump) moves on without switching: a
 * device switched hours after its time would surprise whoever set it.
 */
export const GRACE_MS = 5 * 60_000;
/** How often a firing waiting for the device's command in flight asks again. */
const IN_FLIGHT_RETRY_MS = 1000;
/** Rows claimed per table and tick; the rest wait for the next tick rather than one long transaction. */
const BATCH = 500;

export interface SchedulerOptions {
  db: DB;
  live: LiveDevices;
  timeZone?: string;
  /** The clock; tests pass their own. */
  now?: () => Date;
  /** Every replica's events: reverse actions due soon wake each replica. Without it, only this one wakes. */
  relay?: Relay;
  log?: (message: string) => void;
}

export type FiringKind = 'timer' | 'reverse' | 'schedule';

export interface Firing {
  kind: FiringKind;
  /** fId of the timer or schedule. */
  id: number;
  deviceId: number;
  value: 0 | 1;
  /** The schedule's channel (fWhich). */
  channel?: number;
  outcome?: CommandOutcome;
  /** Why nothing was sent (a rule of the command service refused it). */
  refused?: string;
}

export interface TickReport {
  at: Date;
  fired: Firing[];
  /** Rows found too late to fire, moved on without switching. */
  skipped: number;
}

export interface Scheduler {
  /** Claims and fires what is due at `at` (default: the clock's now). */
  tick(at?: Date): Promise<TickReport>;
  start(): void;
  stop(): Promise<void>;
}

type Row = Record<string, unknown>;

const asDate = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

/**
 * Claims the due rows the query selects, earliest first, a batch at a time: locked until the claiming
 * transaction ends, and skipped by every other replica's claim meanwhile, so each row fires once.
 */
const claim = (due: Query, earliest: string) => due.orderBy(earliest).limit(BATCH).forUpdate().skipLocked().execute() as Promise<Row[]>;

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { db, live } = options;
  const timeZone = options.timeZone ?? 'Asia/Shanghai';
  // The database's clock is the installation's (server/db/clock.ts): a replica whose own clock runs ahead
  // or behind still fires timers on the database's minute. Measured again before every tick.
  const databaseClock = clockOf(db);
  const clock = options.now ?? (() => new Date(databaseClock.now()));
  const syncClock = async () => {
    if (!options.now) await databaseClock.sync();
  };
  const log = options.log ?? ((m: string) => console.warn(`scheduler: ${m}`));
  let minuteTimer: ReturnType<typeof setTimeout> | undefined;
  const reverseTimers = new Map<number, ReturnType<typeof setTimeout>>();
  let stopListening: (() => void) | undefined;
  let running = false;
  const inFlight = new Set<Promise<unknown>>();

  async function claimTimers(at: Date): Promise<{ fire: Firing[]; reverses: Date[]; skipped: number }> {
    return db.transaction().execute(async (trx) => {
      const due = await claim(trx.selectFrom('t_device_timing').selectAll().where('fState', '=', 1).where('fRunNextTime', '<=', at), 'fRunNextTime');
      const fire: Firing[] = [];
      const reverses: Date[] = [];
      let skipped = 0;
      for (const t of due) {
        const scheduled = asDate(t.fRunNextTime)!;
        const late = at.getTime() - scheduled.getTime() > GRACE_MS;
        const once = Number(t.fValidType) === VALID_ONCE;
        const after = new Date(Math.max(at.getTime(), scheduled.getTime()));
        const set: Row = once ? { fState: 0, fRunNextTime: null } : { fRunNextTime: nextRunTime(String(t.fTime), Number(t.fValidType), after, timeZone) };
        if (late) {
          skipped++;
        } else {
          set.fRunTime = at;
          const seconds = Number(t.fReverseSecond) > 0 ? Number(t.fReverseSecond) : 60;
          if (Number(t.fReverse) === 1) {
            set.fReverseTime = new Date(at.getTime() + seconds * 1000);
            reverses.push(set.fReverseTime as Date);
          }
          fire.push({ kind: 'timer', id: t.fId as number, deviceId: t.fDeviceId as number, value: Number(t.fOpt) === OPT_ON ? 1 : 0 });
        }
        await trx.updateTable('t_device_timing').set(set).where('fId', '=', t.fId as number).execute();
      }
      // Heard on every replica when the claim commits; one wake-up per distinct second is enough.
      if (options.relay) await publish(trx, 'reverse', [...new Set(reverses.map((r) => r.toISOString()))].map((iso) => ({ at: iso })));
      return { fire, reverses, skipped };
    });
  }

  async function claimReverses(at: Date): Promise<{ fire: Firing[]; skipped: number }> {
    return db.transaction().execute(async (trx) => {
      const due = await claim(trx.selectFrom('t_device_timing').select(['fId', 'fDeviceId', 'fOpt', 'fReverseTime']).where('fReverseTime', '<=', at), 'fReverseTime');
      const fire: Firing[] = [];
      let skipped = 0;
      for (const t of due) {
        await trx.updateTable('t_device_timing').set({ fReverseTime: null }).where('fId', '=', t.fId as number).execute();
        if (at.getTime() - asDate(t.fReverseTime)!.getTime() > GRACE_MS) skipped++;
        // The opposite of what the timer did.
        else fire.push({ kind: 'reverse', id: t.fId as number, deviceId: t.fDeviceId as number, value: Number(t.fOpt) === OPT_ON ? 0 : 1 });
      }
      return { fire, skipped };
    });
  }

  /** A schedule is due from its time today until GRACE_MS later, unless it already ran today. */
  async function claimSchedules(at: Date): Promise<Firing[]> {
    const now = hhmm(at, timeZone);
    const windowStart = new Date(at.getTime() - GRACE_MS);
    const today = localTime(at, timeZone);
    const from = localTime(windowStart, timeZone).day === today.day ? hhmm(windowStart, timeZone) : '00:00';
    const midnight = zonedInstant(today.year, today.month, today.day, 0, 0, timeZone);
    return db.transaction().execute(async (trx) => {
      const due = await claim(
        trx
          .selectFrom('t_device_switch')
          .select(['fId', 'fDeviceId', 'fSwitch', 'fWhich'])
          .where('fBeginTime', '<=', now)
          .where('fBeginTime', '>=', from)
          .where((eb) => eb.or([eb('fIsExecute', 'is', null), eb('fIsExecute', '=', 0), eb('fExecuteTime', 'is', null), eb('fExecuteTime', '<', midnight)])),
        'fBeginTime',
      );
      if (due.length) {
        await trx
          .updateTable('t_device_switch')
          .set({ fIsExecute: 1, fExecuteTime: at })
          .where('fId', 'in', due.map((r) => r.fId as number))
          .execute();
      }
      return due.map((s) => ({ kind: 'schedule' as const, id: s.fId as number, deviceId: s.fDeviceId as number, value: (Number(s.fSwitch) === 1 ? 1 : 0) as 0 | 1, channel: Number(s.fWhich) }));
    });
  }

  const NAMES: Record<FiringKind, Record<Language, string>> = { timer: words('command.name.timer'), reverse: words('command.name.reverse'), schedule: words('command.name.schedule') };

  /**
   * A firing was claimed and will not come again: while another command to the device is still in flight
   * (a console user's, or one a replica cut off from the broker left `sent`), it waits for that one to
   * end — at the latest its deadline — instead of being refused and lost.
   */
  async function send(f: Firing) {
    const giveUpAt = Date.now() + COMMAND_DEADLINE_MS + IN_FLIGHT_RETRY_MS;
    for (;;) {
      try {
        await sendOnce(f);
        return;
      } catch (error) {
        // Only the in-flight refusal comes here (sendOnce keeps the others).
        if (Date.now() > giveUpAt) {
          f.refused = (error as Error).message;
          return;
        }
        await new Promise((r) => setTimeout(r, IN_FLIGHT_RETRY_MS));
      }
    }
  }

  async function sendOnce(f: Firing) {
    try {
      f.outcome = await sendCommand(
        { db, live, now: clock },
        {
          deviceId: f.deviceId,
          command: { bid: 'switch', value: f.value, ...(f.channel ? { channel: f.channel } : {}) },
          user: null,
          source: 'timer',
          name: NAMES[f.kind],
        },
      );
      if (!f.outcome.ok) log(`${f.kind} ${f.id} on device ${f.deviceId}: ${f.outcome.message}`);
    } catch (error) {
      if (error instanceof Refusal && error.reason?.code === 'command.inFlight') throw error;
      f.refused = (error as Error).message;
      if (!(error instanceof Refusal)) log(`${f.kind} ${f.id} on device ${f.deviceId}: ${f.refused}`);
    }
  }

  /** One device's commands go one after another (the command service allows one in flight); devices in parallel. */
  async function sendAll(firings: Firing[]) {
    const byDevice = new Map<number, Firing[]>();
    for (const f of firings) byDevice.set(f.deviceId, [...(byDevice.get(f.deviceId) ?? []), f]);
    await Promise.all([...byDevice.values()].map(async (list) => {
      for (const f of list) await send(f);
    }));
  }

  async function tick(at: Date = clock()): Promise<TickReport> {
    const reverses = await claimReverses(at);
    const timers = await claimTimers(at);
    const schedules = await claimSchedules(at);
    const fired = [...reverses.fire, ...timers.fire, ...schedules];
    await sendAll(fired);
    // A reverse due before the next minute's tick gets its own wake-up, so it keeps its seconds (on
    // every replica, through the relay, when there is one).
    if (running && !options.relay) for (const due of timers.reverses) wakeAt(due);
    return { at, fired, skipped: reverses.skipped + timers.skipped };
  }

  function guarded(at?: Date) {
    const p = syncClock()
      .catch((error) => log(`clock: ${(error as Error).message}`))
      .then(() => tick(at))
      .catch((error) => log(`tick failed: ${(error as Error).message}`));
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }

  /** A tick just after `due`; one per instant however many reverses share it. */
  function wakeAt(due: Date) {
    const key = due.getTime();
    if (reverseTimers.has(key)) return;
    const handle = setTimeout(() => {
      reverseTimers.delete(key);
      if (running) guarded();
    }, Math.max(0, key - clock().getTime()) + 50);
    reverseTimers.set(key, handle);
  }

  function scheduleMinute() {
    const now = clock().getTime();
    const delay = 60_000 - (now % 60_000);
    minuteTimer = setTimeout(() => {
      if (!running) return;
      guarded();
      scheduleMinute();
    }, delay);
  }

  return {
    tick,
    start() {
      if (running) return;
      running = true;
      stopListening = options.relay?.on('reverse', (r) => running && wakeAt(new Date(r.at)));
      void syncClock()
        .catch((error) => log(`clock: ${(error as Error).message}`))
        .finally(() => running && scheduleMinute());
    },
    async stop() {
      running = false;
      clearTimeout(minuteTimer);
      stopListening?.();
      for (const h of reverseTimers.values()) clearTimeout(h);
      reverseTimers.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
}

export function startScheduler(options: SchedulerOptions): Scheduler {
  const scheduler = createScheduler(options);
  scheduler.start();
  return scheduler;
}

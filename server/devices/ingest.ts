/**
 * Storing what devices say, in batches: while one batch is being written, the next collects whatever
 * arrives, and is then written in a few statements however many messages it holds (message log and
 * telemetry as one JSON parameter each — JSON.stringify escapes a batch's payloads several times faster
 * than pg's array literals — device alarms as array inserts, one update of t_device for all devices).
 *
 * A batch is written in lanes side by side, each on a connection of its own: the message log (its
 * payload index makes it the costliest write by far; on PostgreSQL it is split by device over two
 * connections) and the devices' own rows (telemetry, alarms, state). No lane reads what another writes,
 * so the database works on them at once; the batch is done, and its messages acknowledged, when every
 * lane has committed. A lane that fails is written again on its own.
 *
 * - A device's messages keep their order: batches are written one after another, rows within a batch in
 *   arrival order, and a device's online and switch state is folded over its messages in order, so one
 *   update per device gives what applying each message in turn would have given. Switch and lock follow
 *   a reading only when its time is not older than the state stored (fStateTime), since an acknowledged
 *   command may have overtaken it.
 * - Memory is bounded: past HIGH_WATER waiting messages `room()` asks the transport to stop reading.
 * - `committed()` tells the transport when it may acknowledge a QoS 1 message to the broker.
 */
import { sql } from 'kysely';
import type { DB } from '../db';
import { businessId, type Readings, type SecurityMessage } from '../mqtt/protocol';
import type { IngestSink } from '../mqtt/transport';
import { publish, type DeviceChange } from '../relay';
import type { DeviceAlarmEvent } from '../../contract/deviceAlarm';
import { FENCE_KEY, LOCK_KEY } from './leader';

/**
 * Where messages come from: a broker connection. Once `abandoned`, what it delivered and is not yet stored
 * is dropped instead: those messages were not acknowledged, so the broker gives them to whoever holds the
 * session next (an ingesting replica that lost its lock must not store them as well).
 */
export interface IngestSource {
  abandoned: boolean;
  /**
   * The backend pid of the ingest lock's session (server/devices/leader.ts) when this is the ingest
   * connection on PostgreSQL: its messages are written only while that session holds the lock.
   */
  fence?: number;
}

/**
 * The write was refused because this replica's ingest lock session no longer holds the lock: another
 * replica may be storing the same messages. They are not acknowledged; the broker gives them to the
 * session's next holder.
 */
class FencedOut extends Error {}

/**
 * In the write's own transaction: the fence taken shared (a new leader waits for it), then the lock
 * sessions the items were read under still hold the ingest lock — or nothing is written.
 */
async function checkFence(trx: DB, items: IngestItem[]): Promise<void> {
  const fences = [...new Set(items.map((i) => i.source?.fence).filter((f): f is number => f !== undefined))];
  if (!fences.length) return;
  const { rows } = await sql<{ held: number }>`
    select count(distinct l.pid)::int as held from (select pg_advisory_xact_lock_shared(${FENCE_KEY})) f, pg_locks l
    where l.locktype = 'advisory' and l.classid = 0 and l.objid = ${LOCK_KEY} and l.objsubid = 1 and l.granted and l.pid = any(${fences}::int[])`.execute(trx);
  if (rows[0].held !== fences.length) throw new FencedOut('this replica no longer holds the ingest lock');
}

export type IngestItem = { source?: IngestSource } & (
  | { kind: 'log'; deviceNumber: string; productNumber: string; direction: 'up' | 'down'; topic: string; payload: string; bid?: string | null }
  | { kind: 'telemetry'; deviceNumber: string; readings: Readings; time: Date; redelivered?: boolean }
  | { kind: 'status'; deviceNumber: string; online: boolean; version?: string; at: Date }
  | { kind: 'alarm'; deviceNumber: string; alarm: { kind: string; field: string; value: number; limit: number; level: string; active: boolean } }
  | { kind: 'security'; deviceNumber: string; event: SecurityMessage }
);

/**
 * What the console hears of a device after a batch: its online state, and switch and lock when a reading
 * set them. Relayed to every replica (server/relay.ts) with the batch's commit.
 */
export type { DeviceChange } from '../relay';

export interface IngestHandlers {
  /** Security events need their own queries (house binding, person); they are rare. */
  security(deviceNumber: string, event: SecurityMessage): Promise<void>;
  warn(error: Error): void;
}

export interface IngestOptions {
  /** Waiting messages past which the transport stops reading from the broker. */
  highWater?: number;
  /**
   * Statements the message log of a batch is split into, each on a connection of its own, by device
   * (1 by default). Its payload index makes the log the costliest write by far, and one statement keeps
   * one database process busy however many cores the database has.
   */
  logWriters?: number;
}

/** How a device's row changes over one batch, its messages applied in order. */
interface Fold {
  online?: number;
  lastOnline?: Date;
  version?: string;
  /** The newest reading's switch and lock (the later one of equal times). */
  state?: { time: Date; switch: number; lock: number };
  /** A status message came: the console hears of the device even when nothing changed. */
  status: boolean;
}

interface Deferred {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

interface Batch {
  items: IngestItem[];
  done: Deferred;
  /** When its first item arrived (Date.now()). */
  since?: number;
}

/** What the intake has taken and stored since it started, in messages, and how far behind it is now. */
export interface IntakeCounts {
  offered: number;
  stored: number;
  waiting: number;
  /** How long the oldest message not yet stored has waited, in milliseconds (0 when none waits). */
  lagMs: number;
}

/**
 * A reporting device's last online time is moved on once it is this much behind, not with every batch:
 * it is indexed (the device list sorts by it), so each change writes a new entry in every index of
 * t_device, whereas a row whose indexed columns stay the same is updated in place (a HOT update, with
 * room kept in t_device's pages by migration 025). A status message, and a device coming online or
 * going offline, always set it.
 */
export const LAST_SEEN_STEP_S = 60;

/** A device's messages all go to the same log writer, so they are stored in order. */
function writerOf(deviceNumber: string, writers: number): number {
  let h = 0;
  for (let i = 0; i < deviceNumber.length; i++) h = (h * 31 + deviceNumber.charCodeAt(i)) | 0;
  return (h >>> 0) % writers;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Refusals that say nothing of what is written, only that another writer held the rows meanwhile. */
const TRANSIENT = new Set(['40P01', '40001']);
/** SQLSTATE disk_full (server/db/diskSpace.ts). */
const DISK_FULL = '53100';
const TRANSIENT_TRIES = 5;

/** Runs a write, again (a few times, a little later each time) while it fails for another writer's locks. */
async function retryingTransient(write: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= TRANSIENT_TRIES || !TRANSIENT.has((error as { code?: string }).code ?? '')) throw error;
      await sleep(20 * attempt);
    }
  }
}

export class Ingest implements IngestSink {
  /** Device numbers -> ids, so a device costs no lookup once seen. */
  readonly #ids = new Map<string, number>();
  readonly #numbers = new Map<number, string>();
  #next: Batch = { items: [], done: deferred() };
  #writing?: Batch;
  #running?: Promise<void>;
  #room?: Deferred;
  #closed = false;
  #offered = 0;
  #stored = 0;
  readonly #highWater: number;
  readonly #logWriters: number;

  constructor(
    readonly db: DB,
    readonly handlers: IngestHandlers,
    options: IngestOptions = {},
  ) {
    this.#highWater = options.highWater ?? 20_000;
    this.#logWriters = Math.max(1, options.logWriters ?? 1);
  }

  /** Messages received and not yet stored. */
  get waiting(): number {
    return this.#next.items.length + (this.#writing?.items.length ?? 0);
  }

  /** The intake's figures (server/monitor/intake.ts): messages are counted by their log items, one each. */
  counts(): IntakeCounts {
    const since = this.#writing?.since ?? this.#next.since;
    return { offered: this.#offered, stored: this.#stored, waiting: this.waiting, lagMs: since === undefined ? 0 : Date.now() - since };
  }

  push(item: IngestItem): void {
    if (item.kind === 'log') this.#offered++;
    this.#next.since ??= Date.now();
    this.#next.items.push(item);
    this.#running ??= this.#loop();
  }

  committed(): Promise<void> {
    if (this.#next.items.length) return this.#next.done.promise;
    return this.#writing?.done.promise ?? Promise.resolve();
  }

  room(): Promise<void> | undefined {
    if (this.#next.items.length < this.#highWater) return undefined;
    this.#room ??= deferred();
    return this.#room.promise;
  }

  /**
   * Writes what is waiting, once; the transport must be closed first so nothing more arrives. A batch
   * the database refuses now is not retried: its QoS 1 messages were not acknowledged, so a persistent
   * session gets them again after the restart.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#running;
  }

  async #loop(): Promise<void> {
    // Let the messages of the same socket read join the first batch.
    await new Promise((r) => setImmediate(r));
    while (this.#next.items.length) {
      const batch = this.#next;
      this.#writing = batch;
      this.#next = { items: [], done: deferred() };
      this.#room?.resolve();
      this.#room = undefined;
      const writers = this.#logWriters;
      const logs: IngestItem[][] = Array.from({ length: writers }, () => []);
      const devices: IngestItem[] = [];
      for (const item of batch.items) {
        if (item.kind === 'log') logs[writerOf(item.deviceNumber, writers)].push(item);
        else devices.push(item);
      }
      await Promise.all([...logs.map((l) => this.#write(l, (items) => this.#storeLog(items))), this.#write(devices, (items) => this.#storeDevices(items))]);
      this.#writing = undefined;
      this.#stored += batch.items.filter((i) => i.kind === 'log' && !i.source?.abandoned).length;
      batch.done.resolve();
    }
    this.#running = undefined;
  }

  /**
   * Writes one lane of a batch. When the database cannot be reached it is tried again (reading from the
   * broker stops meanwhile, unacknowledged messages stay with the broker); when another writer held the
   * same rows (a deadlock, a serialization failure) the same write is tried again at once; when it fails
   * for what it holds, each message is written alone so that one bad message costs only itself. A lane
   * that committed is never written again because another one failed.
   */
  async #write(batch: IngestItem[], store: (items: IngestItem[]) => Promise<void>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const items = batch.filter((i) => !i.source?.abandoned);
      if (!items.length) return;
      try {
        await retryingTransient(() => store(items));
        return;
      } catch (error) {
        // Another replica ingests now, or the embedded database's disk is full: these wait, unacknowledged
        // (the broker keeps them), until this connection is abandoned or space has come back.
        if (error instanceof FencedOut || (error as { code?: string }).code === DISK_FULL) {
          if (attempt === 0) this.handlers.warn(new Error(`storing ${items.length} device messages: ${(error as Error).message}; ${error instanceof FencedOut ? 'left to the replica that holds it' : 'waiting for space'}`));
          if (this.#closed) return;
          await sleep(500);
          continue;
        }
        if (items.length > 1 && (await this.#reachable())) {
          for (const item of items) await retryingTransient(() => store([item])).catch((e: Error) => this.handlers.warn(e));
          return;
        }
        if (items.length === 1 && (await this.#reachable())) return this.handlers.warn(error as Error);
        this.handlers.warn(new Error(`storing ${items.length} device messages: ${(error as Error).message}; trying again`));
        if (this.#closed) return;
        await sleep(Math.min(250 * 2 ** attempt, 5000));
      }
    }
  }

  async #reachable(): Promise<boolean> {
    return sql`select 1`.execute(this.db).then(() => true, () => false);
  }

  async #resolveIds(items: IngestItem[]): Promise<void> {
    const unknown = [...new Set(items.map((i) => i.deviceNumber).filter((n) => !this.#ids.has(n)))];
    if (!unknown.length) return;
    const rows = await this.db.selectFrom('t_device').select(['fId', 'fNumber']).where('fNumber', 'in', unknown).execute();
    for (const r of rows) {
      this.#ids.set(r.fNumber as string, r.fId as number);
      this.#numbers.set(r.fId as number, r.fNumber as string);
    }
  }

  /** The message log's lane: one statement, its own transaction. */
  async #storeLog(items: IngestItem[]): Promise<void> {
    await this.#resolveIds(items);
    const rows = items.flatMap((l) =>
      l.kind === 'log'
        ? [{ d: this.#ids.get(l.deviceNumber) ?? null, n: l.deviceNumber, p: l.productNumber, dir: l.direction, t: l.topic, b: l.bid !== undefined ? l.bid : bidOf(l.payload), pl: l.payload }]
        : [],
    );
    // Its trigger updates the dashboard's counters (migration 021), whose rows every batch of every
    // replica shares, so they stay locked only for this one statement (and the fence's check before it).
    await this.db.transaction().execute(async (trx) => {
      await checkFence(trx, items);
      await sql`
        insert into t_emq_message_publish (f_device_id, f_device_number, f_product_number, f_direction, f_topic, f_bid, f_payload)
        select d, n, p, dir, t, b, pl from rows from (json_to_recordset(${JSON.stringify(rows)}::json)
          as (d int, n text, p text, dir text, t text, b text, pl text)
        ) with ordinality as v(d, n, p, dir, t, b, pl, o) order by o`.execute(trx);
    });
  }

  /** The devices' lane: telemetry, alarms and state in one transaction, then security events. */
  async #storeDevices(items: IngestItem[]): Promise<void> {
    await this.#resolveIds(items);
    const id = (n: string) => this.#ids.get(n);
    type Alarm = Extract<IngestItem, { kind: 'alarm' }>['alarm'] & { deviceId: number };
    const readings: { deviceId: number; time: Date; r: Readings; redelivered: boolean }[] = [];
    const alarms: Alarm[] = [];
    const security: Extract<IngestItem, { kind: 'security' }>[] = [];
    const folds = new Map<number, Fold>();
    const fold = (deviceId: number) => {
      let f = folds.get(deviceId);
      if (!f) folds.set(deviceId, (f = { status: false }));
      return f;
    };
    const now = new Date();
    for (const item of items) {
      const deviceId = id(item.deviceNumber);
      if (item.kind === 'security') security.push(item);
      else if (deviceId === undefined || item.kind === 'log') continue;
      else if (item.kind === 'alarm') alarms.push({ deviceId, ...item.alarm });
      else if (item.kind === 'status') {
        const f = fold(deviceId);
        f.status = true;
        f.online = item.online ? 1 : 0;
        // Online until this moment, whichever way it went.
        f.lastOnline = item.at;
        if (item.version) f.version = item.version;
      } else {
        readings.push({ deviceId, time: item.time, r: item.readings, redelivered: item.redelivered === true });
        // A device that reports is online, even when its status message was missed.
        const f = fold(deviceId);
        f.online = 1;
        // Heard now at the latest: a device whose clock runs ahead must not put its last online time in
        // the future, where the readings of a corrected clock could not move it on.
        f.lastOnline = item.time > now ? now : item.time;
        if (!f.state || f.state.time <= item.time) f.state = { time: item.time, switch: item.readings.switch, lock: item.readings.lock };
      }
    }

    const numbers = this.#numbers;
    if (readings.length || alarms.length || folds.size) {
      await this.db.transaction().execute(async (trx) => {
        await checkFence(trx, items);
        if (readings.length) {
          const rows = readings.map((x) => ({
            d: x.deviceId, t: x.time.toISOString(), v: num(x.r.voltage), c: num(x.r.current), p: num(x.r.power), e: num(x.r.energy),
            te: num(x.r.temperature), l: num(x.r.leakage), s: int(x.r.switch), dup: x.redelivered,
          }));
          await sql`
            insert into t_device_telemetry (f_device_id, f_time, voltage, current, power, energy, temperature, leakage, switch)
            select d, t, v, c, p, e, te, l, s from rows from (json_to_recordset(${JSON.stringify(rows)}::json)
              as (d int, t timestamptz, v float8, c float8, p float8, e float8, te float8, l float8, s int, dup bool)
            ) with ordinality as v(d, t, v, c, p, e, te, l, s, dup, o)
            -- A message the broker sent again (the server stopped before acknowledging it) may have been
            -- stored already: a device's reading is known by its time.
            where not (dup and exists (select 1 from t_device_telemetry x where x.f_device_id = v.d and x.f_time = v.t))
            order by o`.execute(trx);
        }
        if (alarms.length) {
          // The device's number travels with the event, so a console can name the device without asking.
          const raised = await sql<DeviceAlarmEvent>`
            with raised as (
            insert into t_device_alarm (f_device_id, f_kind, f_field, f_value, f_limit, f_level, f_active)
            select d, k, f, v, l, lv, a from unnest(
              ${alarms.map((a) => a.deviceId)}::int[], ${alarms.map((a) => String(a.kind))}::text[], ${alarms.map((a) => String(a.field))}::text[],
              ${alarms.map((a) => num(a.value))}::float8[], ${alarms.map((a) => num(a.limit))}::float8[], ${alarms.map((a) => String(a.level))}::text[],
              ${alarms.map((a) => (a.active ? 1 : 0))}::int[]
            ) with ordinality as v(d, k, f, v, l, lv, a, o) order by o
            returning f_id, f_device_id, f_kind, f_field, f_value, f_limit, f_level, f_active)
            select r.f_id as "fId", r.f_device_id as "fDeviceId", d.f_number as "fNumber", r.f_kind as kind, r.f_field as field,
              r.f_value as value, r.f_limit as "limit", r.f_level as level, r.f_active = 1 as active
            from raised r join t_device d on d.f_id = r.f_device_id order by r.f_id`.execute(trx);
          await publish(trx, 'deviceAlarm', raised.rows);
        }
        if (folds.size) await updateDevices(trx);
      });
    }

    async function updateDevices(trx: DB) {
      // Rows are locked in id order, so two replicas writing overlapping batches cannot deadlock.
      const ids = [...folds.keys()].sort((a, b) => a - b);
      const f = ids.map((i) => folds.get(i)!);
      const result = await sql<{ id: number; online: number; sw: number; lk: number; wason: number | null; wassw: number | null; waslk: number | null; fresh: boolean }>`
        with v as (
          select * from unnest(
            ${ids}::int[], ${f.map((x) => x.online ?? null)}::int[], ${f.map((x) => x.lastOnline?.toISOString() ?? null)}::timestamptz[],
            ${f.map((x) => x.version ?? null)}::text[], ${f.map((x) => x.state?.time.toISOString() ?? null)}::timestamptz[],
            ${f.map((x) => x.state?.switch ?? null)}::int[], ${f.map((x) => x.state?.lock ?? null)}::int[], ${f.map((x) => x.status)}::bool[]
          ) as v(id, online, last_time, version, st_time, sw, lk, status)
        ),
        b as (
          select d.f_id, d.t_online, d.switch_status, d.f_lock, d.f_state_time,
                 (v.st_time is not null and (d.f_state_time is null or d.f_state_time <= v.st_time)) as fresh
          from t_device d join v on v.id = d.f_id
          order by d.f_id
          for update of d
        )
        update t_device d set
          t_online = coalesce(v.online, d.t_online),
          f_last_online_time = case
            when v.last_time is not null and (v.status or d.f_last_online_time is null or v.online is distinct from d.t_online
              or v.last_time >= d.f_last_online_time + ${sql.lit(`${LAST_SEEN_STEP_S} seconds`)}::interval) then v.last_time
            else d.f_last_online_time end,
          f_version = coalesce(v.version, d.f_version),
          switch_status = case when b.fresh then v.sw else d.switch_status end,
          f_lock = case when b.fresh then v.lk else d.f_lock end,
          f_state_time = case when b.fresh then v.st_time else d.f_state_time end
        from v join b on b.f_id = v.id
        where d.f_id = v.id
        returning d.f_id as id, d.t_online as online, d.switch_status as sw, d.f_lock as lk,
                  b.t_online as wason, b.switch_status as wassw, b.f_lock as waslk, b.fresh as fresh`.execute(trx);
      const changes: DeviceChange[] = [];
      for (const c of result.rows) {
        const changed = c.fresh && (c.wassw !== c.sw || c.waslk !== c.lk);
        if (!folds.get(c.id)?.status && !changed && c.wason === c.online) continue;
        changes.push({ fId: c.id, fNumber: numbers.get(c.id)!, tOnline: c.online, ...(c.fresh ? { switchStatus: c.sw, fLock: c.lk } : {}) });
      }
      // One event per device and batch, heard on every replica once the batch is committed.
      await publish(trx, 'device', changes);
    }

    for (const s of security) await this.handlers.security(s.deviceNumber, s.event).catch((e: Error) => this.handlers.warn(e));
  }
}

/** The business id of a log item pushed without one; a malformed payload is logged as it came. */
function bidOf(payload: string): string | null {
  try {
    return businessId(JSON.parse(payload));
  } catch {
    return null;
  }
}

/** A reading that is not a finite number is stored as missing rather than failing the batch. */
function num(v: unknown): number | null {
  const n = typeof v === 'number' ? v : Number(v);
  return v === null || v === undefined || !Number.isFinite(n) ? null : n;
}

function int(v: unknown): number | null {
  const n = num(v);
  return n === null ? null : Math.trunc(n);
}

/**
 * Energy roll-ups: how many kWh each device used per hour and per day, from the cumulative `energy`
 * readings its telemetry carries (t_device_telemetry). The statistics and the dashboard read these
 * tables, so they never scan the raw readings.
 *
 * Consumption of an hour is the sum of the increases between consecutive readings whose later reading
 * falls in that hour; the step from the last reading before the hour counts too, so hours add up to
 * days exactly and nothing is lost between them. A reading lower than the one before is a counter that
 * started again (command 415 clears it, a device restart may reset it): that step counts nothing and
 * the new reading is the new base, so a reset never shows as negative or huge consumption.
 */
import { sql, type RawBuilder } from 'kysely';
import type { DB } from '../db';
import { periodic, type PeriodicJob } from '../periodic';

/** The name of the roll-up's row in t_energy_rollup_state. */
const STATE = 'energy';
/** Keeps replicas from doing the same work at the same time; the upserts make overlap harmless anyway. */
const LOCK_KEY = 4243;
/** Readings may arrive late (a device that buffered while offline): the hour before the mark is redone. */
const LATE_HOURS = 1;
/** A run redoes two hours at most, so running often is cheap and keeps today's figures fresh. */
export const ROLLUP_INTERVAL_MS = Number(process.env.ENERGY_ROLLUP_MS) || 60_000;

export interface RollupOptions {
  /** The time zone whose calendar days the daily table follows (the server's TZ). */
  timeZone: string;
  /** Roll up from this time (rounded down to the hour) instead of the stored mark; for a backfill. */
  since?: Date;
  /** The present; the roll-up covers hours up to and including the one `now` is in. */
  now?: Date;
}

export interface RollupResult {
  from: string;
  to: string;
  hours: number;
  days: number;
}

/**
 * Rolls up the hours since the last run (or `since`), the current partial hour included, and the days
 * they touch. Answers null when there was nothing to do or another replica is doing it right now.
 */
export async function rollUpEnergy(db: DB, options: RollupOptions): Promise<RollupResult | null> {
  const tz = options.timeZone;
  const now = (options.now ?? new Date()).toISOString();
  return db.transaction().execute(async (trx) => {
    const locked = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(${LOCK_KEY}) as ok`.execute(trx);
    if (!locked.rows[0]?.ok) return null;

    const hourOf = (t: RawBuilder<unknown>) => sql`(date_trunc('hour', ${t} at time zone ${tz}::text) at time zone ${tz}::text)`;
    const state = await trx.selectFrom('t_energy_rollup_state').select('fUntil').where('fName', '=', STATE).executeTakeFirst();
    let start: Date | undefined = options.since;
    if (!start && state) start = new Date((state.fUntil as Date).getTime() - LATE_HOURS * 3_600_000);
    if (!start) {
      const first = await trx.selectFrom('t_device_telemetry').select((eb) => eb.fn.min('fTime').as('t')).executeTakeFirst();
      if (!first?.t) return null;
      start = new Date(first.t as Date);
    }
    const bounds = await sql<{ lo: Date; hi: Date; mark: Date }>`
      select ${hourOf(sql`${start.toISOString()}::timestamptz`)} as lo,
             ${hourOf(sql`${now}::timestamptz`)} + interval '1 hour' as hi,
             ${hourOf(sql`${now}::timestamptz`)} as mark`.execute(trx);
    const { lo: from, hi: to, mark } = bounds.rows[0];
    if (from >= to) return null;
    const f = sql`${from.toISOString()}::timestamptz`;
    const t = sql`${to.toISOString()}::timestamptz`;

    const hours = await sql`
      with win as (
        select f_device_id, f_time, f_id, energy from t_device_telemetry
        where f_time >= ${f} and f_time < ${t} and energy is not null
      ),
      before as (
        select d.f_device_id, p.f_time, p.f_id, p.energy
        from (select distinct f_device_id from win) d
        cross join lateral (
          select x.f_time, x.f_id, x.energy from t_device_telemetry x
          where x.f_device_id = d.f_device_id and x.f_time < ${f} and x.energy is not null
          order by x.f_time desc, x.f_id desc limit 1
        ) p
      ),
      steps as (
        select f_device_id, f_time,
               energy - lag(energy) over (partition by f_device_id order by f_time, f_id) as delta
        from (select * from win union all select * from before) s
      )
      insert into t_device_energy_hour (f_device_id, f_hour, f_energy, f_samples, f_update_time)
      select f_device_id, ${hourOf(sql`f_time`)}, coalesce(sum(greatest(delta, 0)), 0), count(*), now()
      from steps
      where f_time >= ${f}
      group by 1, 2
      on conflict (f_device_id, f_hour) do update
        set f_energy = excluded.f_energy, f_samples = excluded.f_samples, f_update_time = excluded.f_update_time`.execute(trx);

    const days = await sql`
      insert into t_device_energy_day (f_device_id, f_day, f_energy, f_update_time)
      select f_device_id, (f_hour at time zone ${tz}::text)::date, sum(f_energy), now()
      from t_device_energy_hour
      where f_hour >= (date_trunc('day', ${f} at time zone ${tz}::text) at time zone ${tz}::text)
        and f_hour < ((date_trunc('day', ${t} at time zone ${tz}::text) + interval '1 day') at time zone ${tz}::text)
      group by 1, 2
      on conflict (f_device_id, f_day) do update
        set f_energy = excluded.f_energy, f_update_time = excluded.f_update_time`.execute(trx);

    // The current hour is still filling up: the mark stays at its start, so the next run redoes it.
    await trx
      .insertInto('t_energy_rollup_state')
      .values({ fName: STATE, fUntil: mark, fUpdateTime: new Date() })
      .onConflict((oc) => oc.column('fName').doUpdateSet({ fUntil: sql`greatest(t_energy_rollup_state.f_until, excluded.f_until)`, fUpdateTime: new Date() }))
      .execute();
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      hours: Number(hours.numAffectedRows ?? 0),
      days: Number(days.numAffectedRows ?? 0),
    };
  });
}

export type EnergyJob = PeriodicJob<RollupResult | null>;

/** The periodic roll-up of a server process: once at start, then every `intervalMs`. */
export function startEnergyRollup(db: DB, options: { timeZone: string; intervalMs?: number }): EnergyJob {
  return periodic('energy roll-up', () => rollUpEnergy(db, { timeZone: options.timeZone }), options.intervalMs ?? ROLLUP_INTERVAL_MS);
}

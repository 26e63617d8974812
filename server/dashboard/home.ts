/**
 * The home dashboard's figures: devices online by product type, the message log and warnings of today
 * and this month with their history, the rental houses' alarms of the caller's jurisdiction (those who
 * handle them), users by kind (administrators only) and the load of this server (the system monitor's
 * or the alarm lists' holders: contract/dashboard.ts).
 * Every answer is `data.data`, as the legacy dashboard reads it; device figures respect the caller's
 * scope (docs/api.md), and so do the messages and warnings, which belong to devices.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { registerCall } from '../http/route';
import type { DeclaredCallName } from '../../contract/generated/calls';
import type { RouteContext } from '../http/context';
import { isAdmin, type Query, type User } from '../crud/types';
import { deviceScope as scope } from '../devices';
import { alarmScope } from '../security';
import { SYSTEM_LOAD_CODES } from '../../contract/dashboard';
import { systemLoad } from '../monitor/load';
import { reason, textOf } from '../http/envelope';
import type { PlainReasonCode } from '../../contract/generated/reasons';

/** The alarm lists' permission: who has it sees the alarms card of the dashboard. */
const ALARM_LIST = 'alarm:list';

/**
 * A name the legacy dashboard shows as it is (zh-CN, from the catalogue); the console names a counter or
 * a series by its key in its own language.
 */
const named = (code: PlainReasonCode) => textOf(reason(code));

/** Product types 1–6 of the specification; the dashboard shows one counter pair for each. */
export const DEVICE_TYPES: Record<number, PlainReasonCode> = { 1: 'home.type485', 2: 'home.typeWifiGateway', 3: 'home.type4g', 4: 'home.type4gGateway', 5: 'home.typeWifiSingle', 6: 'home.typeBreaker' };

export interface Chart {
  categories: string[];
  series: { key: string; name: string; data: number[] }[];
}

/** History ranges of the dashboard's radio: last hour, 1 day, 7 days, 30 days. */
const HISTORY: Record<number, { span: string; unit: 'minute' | 'hour' | 'day'; label: string }> = {
  0: { span: '1 hour', unit: 'minute', label: 'HH24:MI' },
  1: { span: '1 day', unit: 'hour', label: 'HH24:00' },
  2: { span: '7 days', unit: 'hour', label: 'MM-DD HH24:00' },
  3: { span: '30 days', unit: 'day', label: 'MM-DD' },
};
const WALL_TIME = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;

export function registerHomeRoutes(app: FastifyInstance, ctx: RouteContext) {
  const { db } = ctx;
  const tz = sql`${ctx.timeZone}::text`;
  const local = (t: RawBuilder<unknown>) => sql`(${t} at time zone ${tz})`;
  const startOf = (unit: 'day' | 'month') => sql`(date_trunc(${unit}, now() at time zone ${tz}) at time zone ${tz})`;

  /** The ids of the devices the user sees, as a subquery; null for an administrator (everything). */
  const visibleIds = (user: User) => (isAdmin(user) ? null : scope(db.selectFrom('t_device').select('t_device.fId'), user));

  // The dashboard's calls wrap their answer once more: the envelope's data is `{ data: … }`.
  const home = (call: DeclaredCallName, handler: (user: User, body: Record<string, unknown>) => Promise<unknown>) =>
    registerCall(app, ctx, { call, tag: 'home', handler: async ({ user, body }) => ({ data: await handler(user!, body) }) });

  /** The days of this month so far (YYYY-MM-DD), in the server's time zone. */
  async function monthDays(): Promise<string[]> {
    return (
      await sql<{ day: string }>`
        select to_char(g, 'YYYY-MM-DD') as day
        from generate_series(date_trunc('month', now() at time zone ${tz}), date_trunc('day', now() at time zone ${tz}), interval '1 day') g`.execute(db)
    ).rows.map((r) => r.day);
  }

  /** A chart of this month, one category per day (MM-DD), from rows keyed by day; missing days are 0. */
  function byDay(days: string[], rows: Record<string, unknown>[], series: { key: string; name: string }[]): Chart {
    const found = new Map(rows.map((r) => [String(r.day), r]));
    return {
      categories: days.map((d) => d.slice(5)),
      series: series.map((s) => ({ key: s.key, name: s.name, data: days.map((d) => Number(found.get(d)?.[s.key] ?? 0)) })),
    };
  }

  /**
   * The message roll-ups the user may read: every device's for an administrator (t_message_count_hour),
   * else the per-device hours of the devices it sees. Kept by the log's insert trigger (migration 021),
   * so the dashboard never counts the log itself.
   */
  const messageCounts = (user: User): SelectQueryBuilder<any, any, object> => {
    const ids = visibleIds(user);
    return ids ? db.selectFrom('t_message_count_device_hour').where('fDeviceId', 'in', ids) : db.selectFrom('t_message_count_hour');
  };

  /** Daily counts of warnings this month so far. */
  async function monthlyWarnings(user: User): Promise<Chart> {
    const ids = visibleIds(user);
    let q = db
      .selectFrom('t_device_alarm')
      .select([sql<string>`to_char(${local(sql`f_intime`)}, 'YYYY-MM-DD')`.as('day'), (eb) => eb.fn.countAll<number>().as('warn'), sql<number>`count(*) filter (where f_deal = 0)`.as('noDeal')])
      .where('fIntime', '>=', startOf('month'))
      .where('fActive', '=', 1)
      .groupBy(sql`1`);
    if (ids) q = q.where('fDeviceId', 'in', ids);
    return byDay(await monthDays(), (await q.execute()) as Record<string, unknown>[], [
      { key: 'warn', name: named('home.seriesWarnings') },
      { key: 'noDeal', name: named('home.seriesUnhandled') },
    ]);
  }

  /**
   * Devices by product, own type (0: none) and online state: read from the counters the device table's
   * triggers keep (migration 024) for an administrator, counted among the devices in scope for anyone
   * else; with every product's type and name, so the two device counters below agree.
   */
  async function deviceCounts(user: User) {
    const counted = isAdmin(user)
      ? db.selectFrom('t_device_count').select(['fProductId as product', 'fTypeId as type', 'fOnline as online', 'fCount as n'])
      : scope(db.selectFrom('t_device'), user)
          .select([
            sql<number>`coalesce(t_device.f_product_id, 0)`.as('product'),
            sql<number>`coalesce(t_device.f_type_id, 0)`.as('type'),
            sql<number>`coalesce(t_device.t_online, -1)`.as('online'),
            (eb) => eb.fn.countAll<number>().as('n'),
          ])
          .groupBy(sql`1, 2, 3`);
    const [rows, products] = await Promise.all([
      (counted as SelectQueryBuilder<any, any, { product: number; type: number; online: number; n: number }>).execute(),
      db.selectFrom('t_product').select(['fId', 'fName', 'fDeviceType']).orderBy('fId').execute(),
    ]);
    return { rows: rows.map((r) => ({ product: Number(r.product), type: Number(r.type), online: Number(r.online) === 1, n: Number(r.n) })), products };
  }

  /** Devices and those online, summed by the key each row is given. */
  function tally<R extends { online: boolean; n: number }, K>(rows: R[], key: (r: R) => K) {
    const sums = new Map<K, { deviceCount: number; deviceOnlineCount: number }>();
    rows.forEach((r) => {
      const k = key(r);
      const t = sums.get(k) ?? { deviceCount: 0, deviceOnlineCount: 0 };
      t.deviceCount += r.n;
      if (r.online) t.deviceOnlineCount += r.n;
      sums.set(k, t);
    });
    return sums;
  }

  home('home.devices', async (user) => {
    const { rows, products } = await deviceCounts(user);
    const productType = new Map(products.map((p) => [p.fId, Number(p.fDeviceType ?? 0)]));
    const byType = tally(rows, (r) => r.type || (productType.get(r.product) ?? 0));
    const all = tally(rows, () => 'all').get('all') ?? { deviceCount: 0, deviceOnlineCount: 0 };
    const out: Record<string, unknown> = { allCount: all.deviceCount, onlineCount: all.deviceOnlineCount, offlineCount: all.deviceCount - all.deviceOnlineCount };
    for (const type of Object.keys(DEVICE_TYPES).map(Number)) {
      out[`device${type}`] = { type, name: named(DEVICE_TYPES[type]), deviceCount: byType.get(type)?.deviceCount ?? 0, deviceOnlineCount: byType.get(type)?.deviceOnlineCount ?? 0 };
    }
    return out;
  });

  // Devices and those online per product, for the bar chart beside the six type counters.
  home('home.devicesOnline', async (user) => {
    const { rows, products } = await deviceCounts(user);
    const byProduct = tally(rows, (r) => r.product);
    const shown = products.filter((p) => (byProduct.get(p.fId)?.deviceCount ?? 0) > 0);
    return {
      categories: shown.map((p) => String(p.fName)),
      series: [
        { key: 'deviceCount', name: named('home.seriesDevices'), data: shown.map((p) => byProduct.get(p.fId)!.deviceCount) },
        { key: 'deviceOnlineCount', name: named('home.seriesOnline'), data: shown.map((p) => byProduct.get(p.fId)!.deviceOnlineCount) },
      ],
    } satisfies Chart;
  });

  home('home.messages', async (user) => {
    const row = await messageCounts(user)
      .select([
        sql<number>`coalesce(sum(f_up + f_down) filter (where f_hour >= ${startOf('day')}), 0)`.as('dayCount'),
        sql<number>`coalesce(sum(f_up + f_down), 0)`.as('monthCount'),
      ])
      .where('fHour', '>=', startOf('month'))
      .executeTakeFirstOrThrow();
    return { dayCount: Number(row.dayCount), monthCount: Number(row.monthCount) };
  });

  home('home.messagesByMonth', async (user) => {
    const rows = await messageCounts(user)
      .select([sql<string>`to_char(${local(sql`f_hour`)}, 'YYYY-MM-DD')`.as('day'), sql<number>`sum(f_up)`.as('up'), sql<number>`sum(f_down)`.as('down')])
      .where('fHour', '>=', startOf('month'))
      .groupBy(sql`1`)
      .execute();
    return byDay(await monthDays(), rows, [
      { key: 'up', name: named('home.seriesUp') },
      { key: 'down', name: named('home.seriesDown') },
    ]);
  });

  // A warning is an alarm raised (f_active 1); the message that clears it is not another warning.
  home('home.warnings', async (user) => {
    const ids = visibleIds(user);
    let q = db
      .selectFrom('t_device_alarm')
      .select([
        sql<number>`count(*) filter (where f_intime >= ${startOf('day')})`.as('dayCount'),
        (eb) => eb.fn.countAll<number>().as('monthCount'),
        sql<number>`count(*) filter (where f_intime >= ${startOf('day')} and f_deal = 0)`.as('dayNoDealCount'),
        sql<number>`count(*) filter (where f_deal = 0)`.as('monthNoDealCount'),
      ])
      .where('fIntime', '>=', startOf('month'))
      .where('fActive', '=', 1);
    if (ids) q = q.where('fDeviceId', 'in', ids);
    const row = await q.executeTakeFirstOrThrow();
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
  });

  home('home.warningsByMonth', (user) => monthlyWarnings(user));

  // The rental houses' alarms (t_alarm) in the caller's jurisdiction, as the alarm lists show them: the
  // officers' work, counted by when they happened. Anyone without the alarm lists gets no data and the
  // card stays hidden.
  const rentalAlarms = (user: User) => alarmScope(db.selectFrom('t_alarm') as unknown as Query, user).where('t_alarm.fAlarmTime', '>=', startOf('month'));
  home('home.alarms', async (user) => {
    if (!user.permissions.has(ALARM_LIST)) return null;
    const row = await rentalAlarms(user)
      .select([
        sql<number>`count(*) filter (where t_alarm.f_alarm_time >= ${startOf('day')})`.as('dayCount'),
        (eb) => eb.fn.countAll<number>().as('monthCount'),
        sql<number>`count(*) filter (where t_alarm.f_alarm_time >= ${startOf('day')} and t_alarm.f_status = 0)`.as('dayNoDealCount'),
        sql<number>`count(*) filter (where t_alarm.f_status = 0)`.as('monthNoDealCount'),
      ])
      .executeTakeFirstOrThrow();
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
  });
  home('home.alarmsByMonth', async (user) => {
    if (!user.permissions.has(ALARM_LIST)) return null;
    const rows = await rentalAlarms(user)
      .select([sql<string>`to_char(${local(sql`t_alarm.f_alarm_time`)}, 'YYYY-MM-DD')`.as('day'), (eb) => eb.fn.countAll<number>().as('alarm'), sql<number>`count(*) filter (where t_alarm.f_status = 0)`.as('unsigned')])
      .groupBy(sql`1`)
      .execute();
    return byDay(await monthDays(), rows as Record<string, unknown>[], [
      { key: 'alarm', name: named('home.seriesAlarms') },
      { key: 'unsigned', name: named('home.seriesUnsigned') },
    ]);
  });

  // Users by kind are the administrators' business; anyone else gets no data and the card stays hidden.
  home('home.users', async (user) => {
    if (!isAdmin(user)) return null;
    const row = await db
      .selectFrom('t_sys_user')
      .select([
        (eb) => eb.fn.countAll<number>().as('allCount'),
        sql<number>`count(*) filter (where f_admin = 1)`.as('adminCount'),
        sql<number>`count(*) filter (where f_admin = 2)`.as('agentCount'),
        sql<number>`count(*) filter (where coalesce(f_admin, 0) = 0)`.as('generalCount'),
      ])
      // The console's users; tenants and visitors (fUserType 2) are counted on the rental side.
      .where('fUserType', '=', 1)
      .executeTakeFirstOrThrow();
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]));
  });

  // The host's figures need a code (contract/dashboard.ts): the system monitor's or the alarm lists'.
  registerCall(app, ctx, { call: 'home.load', permission: SYSTEM_LOAD_CODES, tag: 'home', handler: async () => ({ data: await systemLoad() }) });

  home('home.messagesMore', async (user, body) => {
    const type = [0, 1, 2, 3].includes(Number(body.type)) ? Number(body.type) : 3;
    let { span, unit, label } = HISTORY[type];
    const begin = typeof body.beginTime === 'string' && WALL_TIME.test(body.beginTime.trim()) ? body.beginTime.trim() : null;
    const end = typeof body.endTime === 'string' && WALL_TIME.test(body.endTime.trim()) ? body.endTime.trim() : null;
    // An explicit range replaces the radio's; its length decides the step, so a chart stays readable.
    let from = sql`(now() - ${span}::interval)`;
    let to = sql`now()`;
    if (begin && end && begin < end) {
      from = sql`(${begin}::timestamp at time zone ${tz})`;
      to = sql`(${end}::timestamp at time zone ${tz})`;
      const hours = Number((await sql<{ h: number }>`select extract(epoch from (${to} - ${from})) / 3600 as h`.execute(db)).rows[0].h);
      [unit, label] = hours <= 2 ? ['minute', 'HH24:MI'] : hours <= 8 * 24 ? ['hour', 'MM-DD HH24:00'] : ['day', 'MM-DD'];
    }
    const step = sql.raw(`interval '1 ${unit}'`);
    const buckets = (
      await sql<{ key: string; label: string }>`
        select to_char(g, 'YYYY-MM-DD HH24:MI') as key, to_char(g, ${label}) as label
        from generate_series(date_trunc(${unit}, ${local(from)}), ${local(to)}, ${step}) g
        order by g`.execute(db)
    ).rows;
    const bucketOf = sql<string>`to_char(date_trunc(${unit}, ${local(sql`f_intime`)}), 'YYYY-MM-DD HH24:MI')`;
    // Minutes come from the log itself only for a user who sees some devices (the roll-ups per device
    // are hourly): at most two hours of its own devices, read through the (device, time) index.
    const ids = visibleIds(user);
    const [table, at] =
      unit === 'minute' ? (ids ? ['t_emq_message_publish', 'f_intime'] : ['t_message_count_minute', 'f_minute']) : ids ? ['t_message_count_device_hour', 'f_hour'] : ['t_message_count_hour', 'f_hour'];
    const counted = table === 't_emq_message_publish' ? [sql`count(*) filter (where f_direction = 'up')`, sql`count(*) filter (where f_direction = 'down')`] : [sql`sum(f_up)`, sql`sum(f_down)`];
    let messages = db
      .selectFrom(table)
      .select([sql<string>`to_char(date_trunc(${unit}, ${local(sql.ref(at))}), 'YYYY-MM-DD HH24:MI')`.as('bucket'), counted[0].as('up'), counted[1].as('down')])
      .where(sql.ref(at), '>=', sql`date_trunc(${unit}, ${local(from)}) at time zone ${tz}`)
      .where(sql.ref(at), '<=', to)
      .groupBy(sql`1`);
    let alarms = db
      .selectFrom('t_device_alarm')
      .select([bucketOf.as('bucket'), (eb) => eb.fn.countAll<number>().as('warn')])
      .where('fActive', '=', 1)
      .where('fIntime', '>=', sql`date_trunc(${unit}, ${local(from)}) at time zone ${tz}`)
      .where('fIntime', '<=', to)
      .groupBy(sql`1`);
    if (ids) {
      messages = messages.where('fDeviceId', 'in', ids);
      alarms = alarms.where('fDeviceId', 'in', ids);
    }
    const m = new Map((await messages.execute()).map((r) => [String(r.bucket), r]));
    const a = new Map((await alarms.execute()).map((r) => [String(r.bucket), r]));
    return {
      type,
      categories: buckets.map((b) => b.label),
      series: [
        { key: 'up', name: named('home.seriesUp'), data: buckets.map((b) => Number(m.get(b.key)?.up ?? 0)) },
        { key: 'down', name: named('home.seriesDown'), data: buckets.map((b) => Number(m.get(b.key)?.down ?? 0)) },
        { key: 'warn', name: named('home.seriesWarnings'), data: buckets.map((b) => Number(a.get(b.key)?.warn ?? 0)) },
      ],
    } satisfies Chart & { type: number };
  });
}

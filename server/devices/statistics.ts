/**
 * Energy statistics of the statistics page and the device drawer's statistics tab: consumption per
 * device by day or by hour over a time range, read from the roll-ups of server/devices/energy.ts, as
 * totals and chart series or as a spreadsheet. Only devices in the caller's scope are counted.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { authenticate, registerCall } from '../http/route';
import { sendFile } from '../http/files';
import type { RouteContext } from '../http/context';
import { checkBody } from '../http/catalog';
import { declaredBody, declaredCodes, describeCall } from '../http/calls';
import { Forbidden, refuse } from '../http/envelope';
import { zh } from './words';
import type { User } from '../crud/types';
import { XLSX_TYPE, newWorkbook } from '../platform';
import { scope } from './device';
import { idList } from '../http/guard';

export const TIME_TYPE_DAY = 1;
export const TIME_TYPE_HOUR = 2;
export const SUM_NAME = zh('statistics.sum');
export const EXPORT_FILE_NAME = `${zh('statistics.sheet')}.xlsx`;

/** An hourly chart of a month has 744 points, a daily one of ten years 3,653: beyond that nobody reads it. */
const MAX_HOURS = 31 * 24;
const MAX_DAYS = 3660;

export interface DeviceTotal {
  total: { name: string; value: number }[];
  chart: { categories: string[]; series: { name: string; data: number[] }[] };
}

interface Request {
  deviceIds: number[];
  stime: string;
  etime: string;
  timeType: number;
}

const TIME = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;

/** Kilowatt-hours to three decimals: the meters count watt-hours, and sums of doubles leave dust. */
const kwh = (v: number) => Math.round(v * 1000) / 1000;


function wallTime(value: unknown, endOfDay: boolean): string | null {
  if (typeof value !== 'string' || !TIME.test(value.trim())) return null;
  const v = value.trim();
  if (v.length === 10) return `${v} ${endOfDay ? '23:59:59' : '00:00:00'}`;
  return v.length === 16 ? `${v}:${endOfDay ? '59' : '00'}` : v;
}

function parse(body: Record<string, unknown>): Request {
  const deviceIds = idList(body.deviceIds, 'deviceIds');
  if (!deviceIds.length) throw refuse('statistics.noDevice');
  // The console may send the range as one pair, as the legacy date pickers did.
  const range = Array.isArray(body.time) ? body.time : [];
  const stime = wallTime(body.stime ?? range[0], false);
  const etime = wallTime(body.etime ?? range[1], true);
  if (!stime || !etime || stime > etime) throw refuse('statistics.noRange');
  const timeType = Number(body.timeType) === TIME_TYPE_HOUR ? TIME_TYPE_HOUR : TIME_TYPE_DAY;
  return { deviceIds, stime, etime, timeType };
}

export async function deviceTotal(ctx: RouteContext, user: User, body: Record<string, unknown>): Promise<DeviceTotal> {
  const req = parse(body);
  const tz = ctx.timeZone;
  const visible = await scope(ctx.db.selectFrom('t_device').select(['t_device.fId', 't_device.fNumber', 't_device.fName']).where('t_device.fId', 'in', req.deviceIds), user).execute();
  // Devices outside the caller's scope are treated as not chosen.
  const devices = req.deviceIds.map((id) => visible.find((d) => d.fId === id)).filter((d): d is { fId: number; fNumber: string; fName: string | null } => !!d);
  if (!devices.length) throw refuse('statistics.noDevice');
  const deviceIds = devices.map((d) => d.fId);

  const hourly = req.timeType === TIME_TYPE_HOUR;
  const span = await sql<{ n: number }>`
    select ${hourly ? sql`(extract(epoch from (${req.etime}::timestamp - date_trunc('hour', ${req.stime}::timestamp))) / 3600)` : sql`(${req.etime}::date - ${req.stime}::date)`}::integer + 1 as n`.execute(ctx.db);
  if (Number(span.rows[0].n) > (hourly ? MAX_HOURS : MAX_DAYS)) throw refuse(hourly ? 'statistics.hourlyTooLong' : 'statistics.rangeTooLong');

  const categories = (
    await sql<{ label: string }>`
      select to_char(g, ${hourly ? 'YYYY-MM-DD HH24:00' : 'YYYY-MM-DD'}) as label
      from generate_series(date_trunc(${hourly ? 'hour' : 'day'}, ${req.stime}::timestamp), ${req.etime}::timestamp, ${hourly ? sql`interval '1 hour'` : sql`interval '1 day'`}) g
      order by g`.execute(ctx.db)
  ).rows.map((r) => r.label);

  const rows = hourly
    ? await sql<{ deviceId: number; label: string; energy: number }>`
        select f_device_id as device_id, to_char(f_hour at time zone ${tz}::text, 'YYYY-MM-DD HH24:00') as label, f_energy as energy
        from t_device_energy_hour
        where f_device_id in (${sql.join(deviceIds)})
          and f_hour >= (date_trunc('hour', ${req.stime}::timestamp) at time zone ${tz}::text)
          and f_hour <= (${req.etime}::timestamp at time zone ${tz}::text)`.execute(ctx.db)
    : await sql<{ deviceId: number; label: string; energy: number }>`
        select f_device_id as device_id, to_char(f_day, 'YYYY-MM-DD') as label, f_energy as energy
        from t_device_energy_day
        where f_device_id in (${sql.join(deviceIds)})
          and f_day >= ${req.stime}::date and f_day <= ${req.etime}::date`.execute(ctx.db);

  const index = new Map(categories.map((c, i) => [c, i]));
  const series = devices.map((d) => ({ fId: d.fId, name: d.fName || d.fNumber, data: categories.map(() => 0) }));
  const byId = new Map(series.map((s) => [s.fId, s]));
  for (const r of rows.rows) {
    const i = index.get(r.label);
    const s = byId.get(Number(r.deviceId));
    if (i !== undefined && s) s.data[i] += Number(r.energy);
  }
  for (const s of series) s.data = s.data.map(kwh);
  const total = series.map((s) => ({ name: s.name, value: kwh(s.data.reduce((a, b) => a + b, 0)) }));
  total.push({ name: SUM_NAME, value: kwh(total.reduce((a, b) => a + b.value, 0)) });
  return { total, chart: { categories, series: series.map(({ name, data }) => ({ name, data })) } };
}

/** The same figures as a workbook: one row per day or hour, one column per device, and the sums. */
export async function deviceTotalWorkbook(result: DeviceTotal, timeType: number): Promise<Buffer> {
  const book = await newWorkbook();
  book.created = new Date();
  const sheet = book.addWorksheet(zh('statistics.sheet'));
  const { categories, series } = result.chart;
  sheet.columns = [
    { header: zh(timeType === TIME_TYPE_HOUR ? 'statistics.time' : 'statistics.date'), key: 'time', width: 20 },
    ...series.map((s, i) => ({ header: `${s.name} (kWh)`, key: `d${i}`, width: Math.max(14, s.name.length * 2 + 8) })),
    { header: `${SUM_NAME} (kWh)`, key: 'sum', width: 14 },
  ];
  categories.forEach((c, row) => {
    const values: Record<string, unknown> = { time: c };
    series.forEach((s, i) => (values[`d${i}`] = s.data[row]));
    values.sum = kwh(series.reduce((a, s) => a + s.data[row], 0));
    sheet.addRow(values);
  });
  const sums: Record<string, unknown> = { time: SUM_NAME };
  result.total.slice(0, series.length).forEach((t, i) => (sums[`d${i}`] = t.value));
  sums.sum = result.total[result.total.length - 1].value;
  const last = sheet.addRow(sums);
  sheet.getRow(1).font = { bold: true };
  last.font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1, xSplit: 1 }];
  return Buffer.from(await book.xlsx.writeBuffer());
}

export function registerStatisticsRoutes(app: FastifyInstance, ctx: RouteContext) {
  registerCall(app, ctx, {
    call: 'device.statistics',
    handler: async ({ user, body }) => deviceTotal(ctx, user!, body),
  });

  // A file, not an envelope; refusals still answer the envelope, so the console can show the message.
  const codes = declaredCodes('device.statisticsExport') ?? [];
  const url = describeCall(ctx.catalog, 'device.statisticsExport', { tag: 'device', produces: XLSX_TYPE });
  // The chart's filters (resources/calls/device.json), checked here as registerCall checks an enveloped call's.
  const filters = declaredBody('device.statisticsExport');
  app.route({
    method: 'POST',
    url,
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const user = await authenticate(ctx, request, reply);
      if (!codes.some((c) => user.permissions.has(c))) throw new Forbidden();
      checkBody({ body: filters }, request.body ?? {});
      const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
      const result = await deviceTotal(ctx, user, body);
      const file = await deviceTotalWorkbook(result, Number(body.timeType) === TIME_TYPE_HOUR ? TIME_TYPE_HOUR : TIME_TYPE_DAY);
      return sendFile(reply, file, XLSX_TYPE, EXPORT_FILE_NAME, 'statistics.xlsx');
    },
  });
}

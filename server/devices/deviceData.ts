/**
 * What the device drawer shows beyond the device row: its latest readings (/app/device/device-elec),
 * plus the share and message-log calls of ./deviceShares and ./messageRecords. Every call reaches only
 * the devices the user may see.
 */
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { formatTime } from '../crud/format';
import type { Services, User } from '../crud/types';
import { deviceType, visibleDevice, type VisibleDevice } from './deviceAccess';
import { refuse } from '../http/envelope';
import { sendCommand } from './commands';
import { words, zh } from './words';
import { registerShareRoutes } from './deviceShares';
import { registerMessageRecordRoutes } from './messageRecords';

/** Columns of the readings table; the console translates by key and falls back to the title (zh-CN, the legacy one). */
export const READING_COLUMNS = [
  { key: 'fTime', title: zh('deviceData.time'), unit: '' },
  { key: 'voltage', title: zh('deviceData.voltage'), unit: 'V' },
  { key: 'current', title: zh('deviceData.current'), unit: 'A' },
  { key: 'power', title: zh('deviceData.power'), unit: 'W' },
  { key: 'energy', title: zh('deviceData.energy'), unit: 'kWh' },
  { key: 'temperature', title: zh('deviceData.temperature'), unit: '°C' },
  { key: 'leakage', title: zh('deviceData.leakage'), unit: 'mA' },
  { key: 'switch', title: zh('deviceData.switch'), unit: '' },
] as const;

const ROWS = 10;
/** How long a refresh waits for the sample the device sends after acknowledging. */
const FRESH_SAMPLE_WAIT_MS = 3000;

async function latestSampleId(ctx: Services, deviceId: number): Promise<number> {
  const row = await ctx.db.selectFrom('t_device_telemetry').select('fId').where('fDeviceId', '=', deviceId).orderBy('fId', 'desc').limit(1).executeTakeFirst();
  return row ? Number(row.fId) : 0;
}

/** Asks the device for fresh values and waits briefly for the sample; an offline or busy device just keeps its last one. */
async function refresh(ctx: RouteContext, user: User, deviceId: number) {
  const before = await latestSampleId(ctx, deviceId);
  const outcome = await sendCommand({ db: ctx.db, live: ctx.live }, { deviceId, command: { bid: 'refresh' }, user, source: 'refresh', name: words('command.name.refresh') }).catch(() => undefined);
  if (!outcome?.ok) return;
  const until = Date.now() + FRESH_SAMPLE_WAIT_MS;
  while (Date.now() < until) {
    if ((await latestSampleId(ctx, deviceId)) > before) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const round = (v: unknown, digits: number) => (v === null || v === undefined ? null : Math.round(Number(v) * 10 ** digits) / 10 ** digits);

export function registerDeviceDataRoutes(app: FastifyInstance, ctx: RouteContext) {
  /** The latest samples of a device; `isSendCmd` first asks the device for fresh ones. */
  async function readings(user: User, device: VisibleDevice, body: Record<string, unknown>) {
    if (body.isSendCmd === true || body.isSendCmd === 1 || body.isSendCmd === 'true') await refresh(ctx, user, device.fId);
    const rows = await ctx.db
      .selectFrom('t_device_telemetry')
      .select(['fTime', 'voltage', 'current', 'power', 'energy', 'temperature', 'leakage', 'switch'])
      .where('fDeviceId', '=', device.fId)
      .orderBy('fId', 'desc')
      .limit(ROWS)
      .execute();
    return {
      tableCols: READING_COLUMNS,
      table: rows.map((r) => ({
        fTime: formatTime(new Date(r.fTime as Date), ctx.timeZone),
        voltage: round(r.voltage, 1),
        current: round(r.current, 3),
        power: round(r.power, 1),
        energy: round(r.energy, 3),
        temperature: round(r.temperature, 1),
        leakage: round(r.leakage, 1),
        switch: r.switch === null ? null : Number(r.switch),
      })),
    };
  }

  registerCall(app, ctx, {
    call: 'device.readings',
    handler: async ({ user, body }) => readings(user!, await visibleDevice(ctx, user!, body.fId ?? body.deviceId), body),
  });

  // The type-6 drawer's data display: the same samples, for plastic-case breakers only.
  registerCall(app, ctx, {
    call: 'device.readings6',
    handler: async ({ user, body }) => {
      const device = await visibleDevice(ctx, user!, body.fId ?? body.deviceId);
      if ((await deviceType(ctx, device)) !== 6) throw refuse('command.notBreaker');
      return readings(user!, device, body);
    },
  });

  registerShareRoutes(app, ctx);
  registerMessageRecordRoutes(app, ctx);
}

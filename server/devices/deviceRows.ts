/**
 * The tables whose rows each belong to one device (switch schedules, alarm-cabinet thresholds) are
 * listed one device at a time, the way the device drawer shows them. Their scope and the start of a
 * save are deviceTiming.ts's (scopeByDevice, settleDeviceRow), which the timers use too.
 */
import { refuse } from '../http/envelope';
import type { CallContext } from '../crud/types';
import { present, scoped } from '../crud/engine';

type Row = Record<string, unknown>;

/** The list handler of such a table: every row of the device `{ fDeviceId }` names, by `order`, then by fId. */
export function rowsOfDevice(order: string) {
  return async (ctx: CallContext) => {
    const condition = (ctx.body.condition ?? {}) as Row;
    const deviceId = Number(ctx.body.fDeviceId ?? condition.fDeviceId);
    if (!Number.isInteger(deviceId) || deviceId <= 0) throw refuse('device.required');
    const table = ctx.entity.table;
    const rows = await scoped(ctx, ctx.entity, ctx.user)
      .where(`${table}.fDeviceId`, '=', deviceId)
      .orderBy(`${table}.${order}`)
      .orderBy(`${table}.fId`)
      .execute();
    return present(ctx, ctx.entity, rows);
  };
}

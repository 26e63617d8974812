/**
 * Firmware upgrades over MQTT (spec 000 §4, docs/mqtt.md "Firmware upgrade progress"): a push sends
 * the `upgrade` command to each online device of the waiting records (fStatus 0) and marks them 1
 * sending; the acknowledgement and then the device's progress steps end them at 2 success or -1 failed.
 * Progress arrives through the shared `up` subscription, so whichever replica receives a step updates
 * the record from the database, not from memory.
 */
import type { FastifyInstance } from 'fastify';
import { Answer, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { Refusal, reason, refuse, textOf } from '../http/envelope';
import { entity, scoped } from '../crud/engine';
import type { User } from '../crud/types';
import type { DB } from '../db';
import type { ProgressEvent } from '../mqtt/transport';
import { UPGRADE } from './firmwareUpdateDevice';
import { sendMessage } from '../platform';
import { sendCommand } from './commands';
import { words, zh } from './words';
import type { LiveDevices } from './live';

type Row = Record<string, unknown>;

export interface PushSummary {
  sent: number;
  failed: number;
  offline: number;
}

async function update(db: DB, id: number, values: Row) {
  await db.updateTable('t_firmware_update_device').set({ ...values, fUpdateTime: new Date() }).where('fId', '=', id).execute();
}

/** Sends one record's upgrade; the record is claimed first so two pushes never send it twice. */
async function pushOne(ctx: { db: DB; live: LiveDevices }, user: User | null, record: Row, firmware: Row): Promise<'sent' | 'failed' | 'offline'> {
  const claimed = await ctx.db
    .updateTable('t_firmware_update_device')
    .set({ fStatus: UPGRADE.sending, fProgress: 0, fMessage: null, fUpdateTime: new Date() })
    .where('fId', '=', record.fId as number)
    .where('fStatus', '=', UPGRADE.waiting)
    .returning('fId')
    .executeTakeFirst();
  if (!claimed) return 'failed';
  const command = {
    bid: 'upgrade' as const,
    version: String(firmware.fVersion),
    ...(firmware.fMd5Sign ? { md5: String(firmware.fMd5Sign) } : {}),
    ...(firmware.fFileName ? { url: `/api/upload/firmware/${String(firmware.fFileName)}` } : {}),
  };
  try {
    const outcome = await sendCommand(ctx, { deviceId: record.fDeviceId as number, command, user, source: 'batch', name: words('command.name.upgrade') });
    if (!outcome.ok) {
      // An offline device keeps waiting for the next push rather than counting as a failed upgrade.
      if (outcome.reason.code === 'command.offline') {
        await update(ctx.db, record.fId as number, { fStatus: UPGRADE.waiting, fMessage: outcome.message });
        return 'offline';
      }
      await update(ctx.db, record.fId as number, { fStatus: UPGRADE.failed, fMessage: outcome.message });
      return 'failed';
    }
    // Progress steps may already have moved the record on; only a record still sending takes the mid.
    await ctx.db
      .updateTable('t_firmware_update_device')
      .set({ fMid: `cmd-${outcome.commandId}`, fMessage: outcome.ack?.message ?? null, fUpdateTime: new Date() })
      .where('fId', '=', record.fId as number)
      .execute();
    return 'sent';
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    // The command service refused (another command in flight): nothing reached the device, so it waits.
    await update(ctx.db, record.fId as number, { fStatus: UPGRADE.waiting, fMessage: error.message });
    return 'failed';
  }
}

/** The record a progress step belongs to: by the command's mid, else the device's one upgrade in flight. */
async function recordOf(db: DB, event: ProgressEvent): Promise<Row | undefined> {
  const mid = event.progress.mid;
  if (mid) {
    const byMid = await db.selectFrom('t_firmware_update_device').selectAll().where('fMid', '=', String(mid)).orderBy('fId', 'desc').executeTakeFirst();
    if (byMid) return byMid;
  }
  const deviceNumber = event.progress.ClientID || event.deviceNumber;
  return db
    .selectFrom('t_firmware_update_device as u')
    .innerJoin('t_device as d', 'd.fId', 'u.fDeviceId')
    .selectAll('u')
    .where('d.fNumber', '=', deviceNumber)
    .where('u.fStatus', '=', UPGRADE.sending)
    .orderBy('u.fUpdateTime', 'desc')
    .executeTakeFirst();
}

export async function applyProgress(db: DB, event: ProgressEvent) {
  const record = await recordOf(db, event);
  if (!record || Number(record.fStatus) !== UPGRADE.sending) return;
  const p = event.progress;
  const values: Row =
    p.step === 'done'
      ? { fStatus: UPGRADE.success, fProgress: 100, fMessage: null }
      : p.step === 'failed'
        ? // The record keeps the device's own words only: the status says it failed, in any language.
          { fStatus: UPGRADE.failed, fMessage: p.message ?? null }
        : { fProgress: Number(p.progress) || 0 };
  const ended = await db
    .updateTable('t_firmware_update_device')
    .set({ ...values, fUpdateTime: new Date() })
    .where('fId', '=', record.fId as number)
    .where('fStatus', '=', UPGRADE.sending)
    .returning('fId')
    .executeTakeFirst();
  // Only the replica whose update ended the record tells of the result, so it is told once.
  if (ended && (p.step === 'done' || p.step === 'failed')) await announceResult(db, record, p.step === 'done', values.fMessage as string | null);
}

/** The upgrade's result goes to whoever pushed it and to the device's owner. */
async function announceResult(db: DB, record: Row, success: boolean, why: string | null) {
  const device = await db.selectFrom('t_device').select(['fNumber', 'fUserId']).where('fId', '=', record.fDeviceId as number).executeTakeFirst();
  const firmware = await db.selectFrom('t_firmware').select('fVersion').where('fId', '=', record.fFirmwareId as number).executeTakeFirst();
  const mid = /^cmd-(\d+)$/.exec(String(record.fMid ?? ''));
  const command = mid ? await db.selectFrom('t_device_command').select('fUserId').where('fId', '=', Number(mid[1])).executeTakeFirst() : undefined;
  await sendMessage(db, {
    userIds: [command?.fUserId as number | undefined, device?.fUserId as number | undefined],
    kind: 'firmware',
    params: {
      device: device?.fNumber ?? '',
      version: firmware?.fVersion ?? '',
      result: zh(success ? 'upgrade.result.success' : 'upgrade.result.failure'),
      reason: success ? '' : textOf(reason('upgrade.result.reason', { reason: why ?? zh('upgrade.failed') })),
      time: new Date(),
    },
  });
}

export function registerUpgradeRoutes(app: FastifyInstance, ctx: RouteContext) {
  const onProgress = (event: ProgressEvent) => void applyProgress(ctx.db, event).catch((error: Error) => console.warn(`upgrade progress: ${error.message}`));
  ctx.live.on('progress', onProgress);
  app.addHook('onClose', async () => {
    ctx.live.off('progress', onProgress);
  });

  const records = entity('firmwareUpdateDevice');

  /**
   * Body { fFirmwareId } pushes every waiting record of the firmware the user may see; { fId } pushes one
   * record, and a failed one is sent again.
   */
  registerCall(app, ctx, {
    call: 'command.upgrade',
    write: true,
    handler: async ({ user, body }) => {
      let q = scoped(ctx, records, user!);
      const one = Number(body.fId);
      if (Number.isInteger(one) && one > 0) {
        q = q.where('t_firmware_update_device.fId', '=', one);
        const row = await q.executeTakeFirst();
        if (!row) throw refuse('data.notFound');
        if (Number(row.fStatus) === UPGRADE.failed) await update(ctx.db, one, { fStatus: UPGRADE.waiting });
      } else {
        const firmwareId = Number(body.fFirmwareId);
        if (!Number.isInteger(firmwareId) || firmwareId <= 0) throw refuse('firmware.notFound');
        q = q.where('t_firmware_update_device.fFirmwareId', '=', firmwareId);
      }
      const waiting = await q.where('t_firmware_update_device.fStatus', '=', UPGRADE.waiting).orderBy('t_firmware_update_device.fId').execute();
      if (!waiting.length) throw refuse('upgrade.nothingWaiting');
      const firmwareIds = [...new Set(waiting.map((r) => r.fFirmwareId as number))];
      const firmwares = new Map((await ctx.db.selectFrom('t_firmware').selectAll().where('fId', 'in', firmwareIds).execute()).map((f) => [f.fId, f]));
      const online = new Set(
        (await ctx.db.selectFrom('t_device').select('fId').where('fId', 'in', waiting.map((r) => r.fDeviceId as number)).where('tOnline', '=', 1).execute()).map((d) => d.fId),
      );
      const summary: PushSummary = { sent: 0, failed: 0, offline: 0 };
      const outcomes = await Promise.all(
        waiting.map((r) => {
          const firmware = firmwares.get(r.fFirmwareId);
          if (!firmware) return Promise.resolve('failed' as const);
          if (!online.has(r.fDeviceId)) return Promise.resolve('offline' as const);
          return pushOne(ctx, user, r, firmware);
        }),
      );
      for (const o of outcomes) summary[o]++;
      const { sent, offline, failed } = summary;
      if (!sent) {
        if (offline && failed) throw refuse('upgrade.allOfflineFailed', { offline, failed });
        if (offline) throw refuse('upgrade.allOffline', { offline });
        if (failed) throw refuse('upgrade.allFailed', { failed });
        throw refuse('upgrade.noneSent');
      }
      if (offline && failed) return new Answer(summary, reason('upgrade.sentSomeOfflineFailed', { sent, offline, failed }));
      if (offline) return new Answer(summary, reason('upgrade.sentSomeOffline', { sent, offline }));
      if (failed) return new Answer(summary, reason('upgrade.sentSomeFailed', { sent, failed }));
      return new Answer(summary, reason('upgrade.sent', { sent }));
    },
  });
}

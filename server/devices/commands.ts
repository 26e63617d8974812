/**
 * Sending a command to a device, with the platform's rules held by the server (spec 000 §4): an
 * offline device is refused, one command per device is in flight at a time, a user's commands to a
 * device are at least 3 s apart, and sensitive ones need a fresh login-password check. Every command
 * is a row that ends acknowledged, failed or timed out.
 */
import { hostname } from 'node:os';
import { Refusal, reason, refuse, textOf, type Reason } from '../http/envelope';
import { CommandError } from '../mqtt/transport';
import type { Ack, AckCode, Command } from '../mqtt/protocol';
import type { DB } from '../db';
import type { User } from '../crud/types';
import type { LiveDevices } from './live';
import { publish } from '../relay';
import { paramIn, type ParamValue } from '../../contract/reasons';

export const THROTTLE_MS = 3000;
export const COMMAND_TIMEOUT_MS = Number(process.env.COMMAND_TIMEOUT_MS ?? 10_000);
/**
 * A command still pending or sent this long after it was asked for has nobody waiting for it: the
 * replica that sent it ends every command by its timeout, so it stopped (killed, crashed) before it
 * could. Any replica's sweeper then ends it, and the device takes commands again.
 */
export const COMMAND_DEADLINE_MS = COMMAND_TIMEOUT_MS + 5000;
/** How often each replica looks for commands past their deadline. */
const SWEEP_MS = 5000;
/** Which replica sent a command (the running-status list shows it): REPLICA_ID, else host and process. */
export const REPLICA_ID = (process.env.REPLICA_ID || `${hostname()}/${process.pid}`).slice(0, 100);
/** How long a successful /check-password opens sensitive commands. */
export const PASSWORD_CHECK_MS = 5 * 60_000;

export type CommandSource = 'console' | 'timer' | 'batch' | 'refresh';

export interface CommandRequest {
  deviceId: number;
  command: Command;
  /** Who asked; null for the scheduler. */
  user: User | null;
  source: CommandSource;
  /** The command's name for its notice (`command.sent`): its words per language (`words`), or a library's own name. */
  name: ParamValue;
  /** Sensitive commands need the user's login password checked within PASSWORD_CHECK_MS. */
  sensitive?: boolean;
}

export interface CommandOutcome {
  commandId: number;
  ok: boolean;
  state: 'acknowledged' | 'failed' | 'timed_out';
  /** Why, by code: the command sent, or why it failed (the device's refusal by its ack code). */
  reason: Reason;
  /** The legacy words (zh-CN) the record keeps and the answer's message carries: a device's refusal in its own words. */
  message: string;
  ack?: Ack;
}

/** A device's refusal by its acknowledgement's code (docs/mqtt.md); the device's own words stay its message. */
const DEVICE_REFUSALS: Record<AckCode, Reason> = {
  'bad-password': reason('command.device.badPassword'),
  'out-of-range': reason('command.device.outOfRange'),
  locked: reason('command.device.locked'),
  unsupported: reason('command.device.unsupported'),
  'bad-request': reason('command.device.badRequest'),
  'no-child': reason('command.device.noChild'),
  offline: reason('command.device.childOffline'),
};

/** An outcome by its reason, its message the reason's zh-CN text unless the device said something of its own. */
const outcomeOf = (o: Omit<CommandOutcome, 'commandId' | 'message'>, message?: string): Omit<CommandOutcome, 'commandId'> => ({ ...o, message: message ?? textOf(o.reason) });

/** The refusal a failed command answers the console with: its reason by code, its message the legacy words. */
export function refusalOf(outcome: Pick<CommandOutcome, 'reason' | 'message'>): Refusal {
  return new Refusal(outcome.reason, { message: outcome.message });
}

export interface CommandContext {
  db: DB;
  live: LiveDevices;
  /** Overridable in tests. */
  now?: () => Date;
}

async function requireFreshPasswordCheck(db: DB, user: User, now: Date) {
  const row = await db.selectFrom('t_sys_user').select('fPasswordCheckedAt').where('fId', '=', user.fId).executeTakeFirst();
  const at = row?.fPasswordCheckedAt as Date | null | undefined;
  if (!at) throw refuse('command.passwordRequired');
  if (now.getTime() - new Date(at).getTime() > PASSWORD_CHECK_MS) throw refuse('command.passwordFailed');
}

/**
 * Claims the device for one command: under a row lock on the device, so two replicas or two clicks
 * cannot both pass the in-flight and throttle checks. An offline device's command is recorded as failed.
 */
async function claim(ctx: CommandContext, req: CommandRequest, now: Date): Promise<{ id: number; offline: boolean }> {
  return ctx.db.transaction().execute(async (trx) => {
    const device = await trx.selectFrom('t_device').select(['fId', 'tOnline']).where('fId', '=', req.deviceId).forUpdate().executeTakeFirst();
    if (!device) throw refuse('command.deviceMissing');
    const busy = await trx
      .selectFrom('t_device_command')
      .select('fId')
      .where('fDeviceId', '=', req.deviceId)
      .where('fState', 'in', ['pending', 'sent'])
      .where('fIntime', '>', new Date(now.getTime() - COMMAND_DEADLINE_MS))
      .executeTakeFirst();
    if (busy) throw refuse('command.inFlight');
    if (req.user && req.source === 'console') {
      const recent = await trx
        .selectFrom('t_device_command')
        .select('fId')
        .where('fDeviceId', '=', req.deviceId)
        .where('fUserId', '=', req.user.fId)
        .where('fSource', '=', 'console')
        .where('fIntime', '>', new Date(now.getTime() - THROTTLE_MS))
        .executeTakeFirst();
      if (recent) throw refuse('command.throttled');
    }
    const offline = device.tOnline !== 1;
    const row = await trx
      .insertInto('t_device_command')
      .values({
        fDeviceId: req.deviceId,
        fUserId: req.user?.fId ?? null,
        fSource: req.source,
        fName: String(paramIn(req.name, 'zh-CN')),
        fBid: String(req.command.bid),
        fPayload: JSON.stringify(req.command),
        fState: offline ? 'failed' : 'pending',
        fMessage: offline ? textOf(reason('command.offline')) : null,
        fReason: offline ? JSON.stringify(reason('command.offline')) : null,
        fIntime: now,
        fDoneTime: offline ? now : null,
        fReplica: REPLICA_ID,
      })
      .returning('fId')
      .executeTakeFirstOrThrow();
    return { id: row.fId, offline };
  });
}

/**
 * Writes what the acknowledgement says the device now is, so lists show it without waiting for
 * telemetry, and tells the consoles of every replica.
 */
async function applyState(db: DB, device: { fId: number; fNumber: string }, state: Record<string, unknown> | undefined) {
  if (!state) return;
  const set: { switchStatus?: number; fLock?: number } = {};
  if (state.switch === 0 || state.switch === 1) set.switchStatus = state.switch;
  if (state.lock === 0 || state.lock === 1) set.fLock = state.lock;
  if (!Object.keys(set).length) return;
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('t_device').set({ ...set, fStateTime: new Date() }).where('fId', '=', device.fId).execute();
    await publish(trx, 'device', [{ fId: device.fId, fNumber: device.fNumber, ...set }]);
  });
}

async function finish(db: DB, id: number, outcome: Omit<CommandOutcome, 'commandId'>, now: Date) {
  await db
    .updateTable('t_device_command')
    .set({ fState: outcome.state, fMessage: outcome.message, fReason: JSON.stringify(outcome.reason), fResult: outcome.ack ? JSON.stringify(outcome.ack) : null, fDoneTime: now })
    .where('fId', '=', id)
    .execute();
}

/**
 * Sends one command and waits for its acknowledgement. Refusals of the rules throw Refusal (nothing
 * is sent); a device that refuses or does not answer gives ok false with the reason.
 */
export async function sendCommand(ctx: CommandContext, req: CommandRequest): Promise<CommandOutcome> {
  const now = ctx.now?.() ?? new Date();
  if (req.sensitive && req.user) await requireFreshPasswordCheck(ctx.db, req.user, now);
  const { id, offline } = await claim(ctx, req, now);
  if (offline) {
    if (req.source === 'console') throw refuse('command.offline');
    return { commandId: id, ok: false, state: 'failed', reason: reason('command.offline'), message: textOf(reason('command.offline')) };
  }
  const device = await ctx.live.find(req.deviceId);
  let outcome: Omit<CommandOutcome, 'commandId'>;
  try {
    await ctx.db.updateTable('t_device_command').set({ fState: 'sent' }).where('fId', '=', id).execute();
    const ack = await ctx.live.send(device!, req.command, { mid: `cmd-${id}`, timeoutMs: COMMAND_TIMEOUT_MS });
    await applyState(ctx.db, device!, ack.state);
    outcome = ack.ack
      ? outcomeOf({ ok: true, state: 'acknowledged', reason: reason('command.sent', { name: req.name }), ack })
      : outcomeOf({ ok: false, state: 'failed', reason: (ack.code && DEVICE_REFUSALS[ack.code]) || reason('command.device.failed'), ack }, ack.message);
  } catch (error) {
    const code = error instanceof CommandError ? error.code : undefined;
    outcome =
      code === 'timeout'
        ? outcomeOf({ ok: false, state: 'timed_out', reason: reason('command.timeout') })
        : outcomeOf({ ok: false, state: 'failed', reason: code === 'not-connected' ? reason('command.brokerDown') : reason('command.sendFailed', { detail: (error as Error).message }) });
  }
  await finish(ctx.db, id, outcome, ctx.now?.() ?? new Date());
  return { commandId: id, ...outcome };
}

/**
 * Ends the commands past their deadline (their replica stopped before it could) as timed out; answers
 * how many. Rows are locked as they are ended, so two replicas sweeping together end each once.
 */
export async function sweepCommands(db: DB, now = new Date()): Promise<number> {
  const ended = await db
    .updateTable('t_device_command')
    .set({ fState: 'timed_out', fMessage: textOf(reason('command.abandoned')), fReason: JSON.stringify(reason('command.abandoned')), fDoneTime: now })
    .where('fState', 'in', ['pending', 'sent'])
    .where('fIntime', '<', new Date(now.getTime() - COMMAND_DEADLINE_MS))
    .returning('fId')
    .execute();
  return ended.length;
}

/** Sweeps now (what a stopped server left) and every SWEEP_MS; answers how to stop. */
export function startCommandSweeper(db: DB): () => void {
  const sweep = () => void sweepCommands(db).catch((error: Error) => console.warn(`command sweeper: ${error.message}`));
  sweep();
  const timer = setInterval(sweep, SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}

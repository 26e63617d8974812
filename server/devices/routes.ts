/**
 * The device command calls of the console: switch and lock, gateway thresholds and abilities, breaker
 * parameters, the type-6 motor, batch commands and refresh, the command records, the broker state and
 * the live event stream. Each goes through sendCommand, so the server holds the spec's rules itself.
 */
import type { AlarmEvent } from '../security';
import type { MessageEvent } from '../platform';
import type { DeviceAlarmEvent } from '../../contract/deviceAlarm';
import type { RelayEvents } from '../relay';
import type { FastifyInstance } from 'fastify';
import { Answer, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { describeCall } from '../http/calls';
import { LoginExpired, Refusal, answered, languageOfRequest, reason, refuse, textOf, type Reason } from '../http/envelope';
import { entity, scoped } from '../crud/engine';
import { formatRow } from '../crud/format';
import { isAdmin, type User } from '../crud/types';
import {
  DEVICE_PASSWORD_MAX, THRESHOLD_DEFAULTS, THRESHOLD_RULES, hasThresholds,
  validateCalibration, validateProtection, validateThresholds, type Thresholds,
} from '../../contract/deviceParams';
import type { Command } from '../mqtt/protocol';
import { refusalOf, sendCommand, type CommandOutcome, type CommandSource } from './commands';
import { inLanguages, joined, words } from './words';
import type { ParamValue } from '../../contract/reasons';
import { pageNumber } from '../crud/query';
import { idList } from '../http/guard';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { loadUser } from '../auth/users';
import { deviceType } from './deviceAccess';
import { seesAlarm } from '../auth/jurisdiction';

declare module 'fastify' {
  interface FastifyInstance {
    /** Asks the online ones of these devices (those the user sees) for fresh values; answers how many. */
    askDevicesForFresh(user: User, ids: number[]): Promise<number>;
  }
}

/** How long a stream ticket is good for: just long enough for the browser to open the stream. */
const TICKET_SECONDS = 30;

/**
 * Unused, unexpired tickets one user may hold. A console asks for one when a tab opens its stream (or
 * opens it again after a drop) and spends it within a second, so a user opening many tabs at once holds
 * a handful; twenty leaves room for that and stops a client that asks in a loop from filling the table.
 * Counted in the database (t_event_ticket), so the cap holds across replicas.
 */
export const MAX_TICKETS_PER_USER = 20;
export const TOO_MANY_TICKETS = textOf(reason('device.tooManyTickets'));
/** Serialises one user's ticket requests, so two of them cannot both take the last place (two-key advisory lock: this class, the user). */
const TICKET_LOCK_CLASS = 4246;

/**
 * Open event streams one user may hold on one replica. The console opens one stream per tab, so ten is
 * ten tabs of the console at once — more than a person watches — while each stream costs the replica a
 * socket, listeners and a device-visibility query every 25 s. Streams live in the replica that serves
 * them, so the cap is per replica (a user spread over N replicas may hold N times as many).
 *
 * Past the cap the user's oldest stream is closed, not the new one refused: the tab just opened is the
 * one in front of the user, and the oldest is most likely a tab left behind. The closed stream is told
 * (`superseded`) and its page does not reconnect until it is looked at again
 * (app/platform/events.ts), so tabs do not take the streams from each other in turn.
 */
export const MAX_STREAMS_PER_USER = 10;
/** Device ids one read of an event stream's visible set takes (see loadVisible). */
const VISIBLE_PAGE = 5_000;

/** Batch command types of the device list (spec 000 §4) and who may send them. */
const BATCH: Record<number, { name: ParamValue; permission: string; command: Command; types?: number[] }> = {
  1: { name: words('command.name.reboot'), permission: 'device:batch-reboot', command: { bid: 'reboot' }, types: [2, 4] },
  2: { name: words('command.name.timeSync'), permission: 'device:batch-time', command: { bid: 416 }, types: [2, 4, 6] },
  3: { name: words('command.name.open'), permission: 'device:batch-open', command: { bid: 'switch', value: 0 } },
  4: { name: words('command.name.close'), permission: 'device:batch-close', command: { bid: 'switch', value: 1 } },
  5: { name: words('command.name.lock'), permission: 'device:batch-locked', command: { bid: 'lock', value: 1 } },
  6: { name: words('command.name.unlock'), permission: 'device:batch-unlock', command: { bid: 'lock', value: 0 } },
};

const bit = (v: unknown, why: 'command.switchInvalid' | 'command.lockInvalid'): 0 | 1 => {
  const n = Number(v);
  if (n !== 0 && n !== 1) throw refuse(why);
  return n;
};

/** Refuses a parameter set with every problem found, each in the caller's language. */
const refuseProblems = (problems: Reason[]) => refuse('command.paramsInvalid', { problems: joined(problems, '; ') });

export function registerDeviceCommandRoutes(app: FastifyInstance, ctx: RouteContext) {
  const device = entity('device');
  /** This replica's open event streams by user, oldest first (a Set keeps insertion order): each one's closer. */
  const streams = new Map<number, Set<() => void>>();

  /** The device, if the user may see it; a device the user may not see does not exist for it. */
  async function visible(user: User, id: unknown) {
    const fId = Number(id);
    if (!Number.isInteger(fId) || fId <= 0) throw refuse('device.noneChosen');
    const row = await scoped(ctx, device, user).where('t_device.fId', '=', fId).executeTakeFirst();
    if (!row) throw refuse('device.notFound');
    return row as { fId: number; fNumber: string; fTypeId: number | null; tOnline: number | null };
  }

  /** A type-6 device (plastic-case breaker) the user may see: the /app/device6 calls take no other. */
  async function breaker(user: User, id: unknown) {
    const d = await visible(user, id);
    if ((await deviceType(ctx, d)) !== 6) throw refuse('command.notBreaker');
    return d;
  }

  const send = (user: User | null, deviceId: number, command: Command, name: ParamValue, options: { source?: CommandSource; sensitive?: boolean } = {}) =>
    sendCommand({ db: ctx.db, live: ctx.live }, { deviceId, command, user, name, source: options.source ?? 'console', sensitive: options.sensitive });

  /** A device's refusal or silence refuses the call; a success is its notice (`command.sent`). */
  const answer = (outcome: CommandOutcome, data: unknown = null) => {
    if (!outcome.ok) throw refusalOf(outcome);
    return new Answer(data ?? outcome.ack?.state ?? null, outcome.reason);
  };

  /** The last values a device acknowledged for a kind of command (thresholds survive going offline). */
  async function lastKnown(deviceId: number, bids: string[]): Promise<Record<string, unknown> | undefined> {
    const row = await ctx.db
      .selectFrom('t_device_command')
      .select('fResult')
      .where('fDeviceId', '=', deviceId)
      .where('fBid', 'in', bids)
      .where('fState', '=', 'acknowledged')
      .orderBy('fId', 'desc')
      .executeTakeFirst();
    return row?.fResult ? (JSON.parse(row.fResult).state as Record<string, unknown> | undefined) : undefined;
  }

  registerCall(app, ctx, {
    call: 'command.switch',
    write: true,
    handler: async ({ user, body }) => {
      const d = await visible(user!, body.deviceId ?? body.fId);
      const value = bit(body.onOff ?? body.switchStatus, 'command.switchInvalid');
      await ctx.db.updateTable('t_device').set({ fSendSwitchStatus: value, fSendSwitchTime: new Date() }).where('fId', '=', d.fId).execute();
      return answer(await send(user, d.fId, { bid: 'switch', value }, words(value ? 'command.name.close' : 'command.name.open')));
    },
  });

  registerCall(app, ctx, {
    call: 'command.lock',
    write: true,
    handler: async ({ user, body }) => {
      const d = await visible(user!, body.deviceId ?? body.fId);
      const value = bit(body.lock, 'command.lockInvalid');
      return answer(await send(user, d.fId, { bid: 'lock', value }, words(value ? 'command.name.lock' : 'command.name.unlock')));
    },
  });

  registerCall(app, ctx, {
    call: 'command.thresholds',
    handler: async ({ user, body }) => {
      const d = await visible(user!, body.fId ?? body.deviceId);
      if (!hasThresholds(d.fTypeId ?? 0)) throw refuse('command.noThresholds');
      if (d.tOnline === 1) {
        const outcome = await send(user, d.fId, { bid: 'read-threshold' }, words('command.name.readThresholds'), { source: 'refresh' }).catch(() => undefined);
        if (outcome?.ok) return outcome.ack?.state;
      }
      return { ...THRESHOLD_DEFAULTS, ...(await lastKnown(d.fId, ['read-threshold', 'set-threshold'])) };
    },
  });

  /**
   * Thresholds, or with `cmd` one of the abilities 2–4: change the device password (414, data1 the old
   * and data2 the new one), clear its data (415), broadcast the time (416).
   */
  async function setThresholds(user: User, d: { fId: number }, body: Record<string, unknown>) {
    const cmd = Number(body.cmd);
    if (cmd === 414) {
      const [oldPassword, newPassword] = [String(body.data1 ?? ''), String(body.data2 ?? '')];
      if (!oldPassword || !newPassword) throw refuse('command.devicePasswordRequired');
      if (newPassword.length > DEVICE_PASSWORD_MAX) throw refuse('command.devicePasswordTooLong', { max: DEVICE_PASSWORD_MAX });
      return answer(await send(user, d.fId, { bid: 414, password: oldPassword, newPassword }, words('command.name.changePassword'), { sensitive: true }));
    }
    if (cmd === 415) return answer(await send(user, d.fId, { bid: 415 }, words('command.name.clearData'), { sensitive: true }));
    if (cmd === 416) return answer(await send(user, d.fId, { bid: 416, time: Date.now() }, words('command.name.timeSync'), { sensitive: true }));
    const given: Record<string, number> = {};
    for (const key of Object.keys(THRESHOLD_RULES)) {
      if (body[key] === undefined || body[key] === null || body[key] === '') throw refuse('command.param.required', { key });
      given[key] = Number(body[key]);
    }
    const problems = validateThresholds(given, { requireAll: true });
    if (problems.length) throw refuseProblems(problems);
    const known = { ...THRESHOLD_DEFAULTS, ...(await lastKnown(d.fId, ['read-threshold', 'set-threshold'])) } as Thresholds;
    if (Object.keys(given).every((k) => known[k as keyof Thresholds] === given[k])) throw refuse('command.unchanged');
    return answer(await send(user, d.fId, { bid: 'set-threshold', ...given }, words('command.name.setThresholds'), { sensitive: true }));
  }

  registerCall(app, ctx, {
    call: 'command.setThresholds',
    write: true,
    handler: async ({ user, body }) => {
      const d = await visible(user!, body.deviceId ?? body.fId);
      if (!hasThresholds(d.fTypeId ?? 0)) throw refuse('command.noThresholds');
      return setThresholds(user!, d, body);
    },
  });

  registerCall(app, ctx, {
    call: 'command.setThresholds6',
    write: true,
    handler: async ({ user, body }) => setThresholds(user!, await breaker(user!, body.deviceId ?? body.fId), body),
  });

  registerCall(app, ctx, {
    call: 'command.setParameters',
    write: true,
    handler: async ({ user, body }) => {
      const d = await visible(user!, body.deviceId ?? body.fId);
      const data = (body.data && typeof body.data === 'object' ? body.data : {}) as Record<string, unknown>;
      const params = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Number(v)]));
      if (!Object.keys(params).length) throw refuse('command.paramsRequired');
      const calibration = body.parameter === 'calibration';
      const problems = calibration ? validateCalibration(params) : validateProtection(params);
      if (problems.length) throw refuseProblems(problems);
      return answer(await send(user, d.fId, { bid: calibration ? 'set-calibration' : 'set-parameter', params }, words(calibration ? 'command.name.calibration' : 'command.name.protection'), { sensitive: true }));
    },
  });

  for (const [call, bid, name] of [
    ['command.readCalibration', 'read-calibration', words('command.name.readCalibration')],
    ['command.readParameters', 'read-parameter', words('command.name.readProtection')],
  ] as const) {
    registerCall(app, ctx, {
      call,
      handler: async ({ user, body }) => {
        const d = await visible(user!, body.deviceId ?? body.fId);
        return answer(await send(user, d.fId, { bid }, name, { source: 'refresh' }));
      },
    });
  }

  registerCall(app, ctx, {
    call: 'command.motor6',
    write: true,
    handler: async ({ user, body }) => {
      const d = await breaker(user!, body.deviceId ?? body.fId);
      const password = typeof body.password === 'string' ? body.password : String(body.password ?? '');
      if (!password) throw refuse('command.devicePasswordRequired');
      if (password.length > DEVICE_PASSWORD_MAX) throw refuse('command.devicePasswordTooLong', { max: DEVICE_PASSWORD_MAX });
      const onOff = bit(body.onOff, 'command.switchInvalid');
      return answer(await send(user, d.fId, { bid: 'motor', onOff, password }, words(onOff ? 'command.name.close' : 'command.name.open'), { sensitive: true }));
    },
  });

  registerCall(app, ctx, {
    call: 'command.batch',
    permission: (body) => BATCH[Number(body.fCmdType)]?.permission ?? 'device:batch-reboot',
    codes: [...new Set(Object.values(BATCH).map((b) => b.permission))],
    write: true,
    handler: async ({ user, body, request }) => {
      const batch = BATCH[Number(body.fCmdType)];
      if (!batch) throw refuse('command.typeInvalid');
      const ids = idList(body.fIds, 'fIds');
      if (!ids.length) throw refuse('command.noneChosen');
      const rows = (await scoped(ctx, device, user!).where('t_device.fId', 'in', ids).execute()) as { fId: number; fNumber: string; fTypeId: number | null }[];
      const targets = rows.filter((r) => !batch.types || batch.types.includes(r.fTypeId ?? 0));
      if (!targets.length) throw refuse('command.noDevices');
      // Devices are independent: all are sent at once, and each line tells how its device answered.
      const outcomes = await Promise.all(
        targets.map(async (r) => {
          const outcome = await send(user, r.fId, batch.command, batch.name, { source: 'batch' }).catch((e: Error) => ({
            ok: false,
            reason: e instanceof Refusal && e.reason ? e.reason : reason('command.sendFailed', { detail: e.message }),
            message: e.message,
          }));
          return { number: r.fNumber, ...outcome };
        }),
      );
      // Each line in every language: zh-CN keeps the legacy words (a device's refusal as the device said it).
      const lines = inLanguages((language) => outcomes.map((o) => `${o.number}: ${language === 'zh-CN' ? o.message : textOf(o.reason, language)}`).join('\n'));
      const language = languageOfRequest(request);
      const data = body.byDevice === true || body.byDevice === 1 || body.byDevice === 'true'
        ? outcomes.map((o) => ({ fNumber: o.number, ok: o.ok, reason: answered(o.reason, language) }))
        : lines['zh-CN'];
      return new Answer(data, reason('command.batchDone', { lines }));
    },
  });

  /** Asks the online ones of these devices (those the user sees) for fresh values; answers how many. */
  async function askForFresh(user: User, ids: number[]): Promise<number> {
    const rows = (await scoped(ctx, device, user).where('t_device.fId', 'in', ids).where('t_device.tOnline', '=', 1).execute()) as { fId: number }[];
    // Answers at once: the fresh readings arrive as telemetry, and the list reloads a few seconds later.
    for (const r of rows) void send(user, r.fId, { bid: 'refresh' }, words('command.name.refresh'), { source: 'refresh' }).catch(() => undefined);
    return rows.length;
  }
  // The device list asks too, when the console's automatic refresh says so (server/devices/device.ts).
  app.decorate('askDevicesForFresh', askForFresh);

  registerCall(app, ctx, {
    call: 'command.refresh',
    handler: async ({ user, body }) => {
      const condition = (body.condition ?? {}) as Record<string, unknown>;
      const ids = idList(condition.deviceIds, 'deviceIds');
      if (!ids.length) return 0;
      return askForFresh(user!, ids);
    },
  });

  registerCall(app, ctx, {
    call: 'command.log',
    handler: async ({ user, body, request }) => {
      const d = await visible(user!, body.deviceId ?? body.fId);
      const size = Math.min(Math.max(Number(body.size) || 10, 1), 100);
      const current = pageNumber(body.current);
      const base = ctx.db.selectFrom('t_device_command').where('fDeviceId', '=', d.fId);
      const { total } = (await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()) as { total: number };
      const rows = await base
        .select(['fId', 'fBid', 'fName', 'fSource', 'fState', 'fMessage', 'fReason', 'fIntime', 'fDoneTime'])
        .orderBy('fId', 'desc')
        .limit(size)
        .offset((current - 1) * size)
        .execute();
      const language = languageOfRequest(request);
      const records = rows.map(({ fReason, ...r }) => ({ ...formatRow(r, ctx.timeZone), ...(fReason ? { reason: answered(JSON.parse(fReason as string) as Reason, language) } : {}) }));
      return { records, total: Number(total), current, size };
    },
  });

  registerCall(app, ctx, { call: 'live.state', handler: async () => ({ state: ctx.live.state }) });

  // Live events for the console: device online/switch/lock changes, new alarms and messages, and the
  // broker state.
  // EventSource cannot send headers: the console first asks for a ticket (with its token, in the header)
  // and opens the stream with it. A ticket is good once, for TICKET_SECONDS.
  registerCall(app, ctx, {
    call: 'live.ticket',
    handler: async ({ user }) => {
      const ticket = randomBytes(24).toString('hex');
      await ctx.db.deleteFrom('t_event_ticket').where('expiresAt', '<', new Date()).execute();
      await ctx.db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${sql.lit(TICKET_LOCK_CLASS)}, ${sql.lit(user!.fId)})`.execute(trx);
        const held = await trx.selectFrom('t_event_ticket').select((eb) => eb.fn.countAll<number>().as('n')).where('userId', '=', user!.fId).where('expiresAt', '>=', new Date()).executeTakeFirstOrThrow();
        if (Number(held.n) >= MAX_TICKETS_PER_USER) throw refuse('device.tooManyTickets');
        await trx.insertInto('t_event_ticket').values({ ticket, userId: user!.fId, expiresAt: new Date(Date.now() + TICKET_SECONDS * 1000) }).execute();
      });
      return { ticket };
    },
  });

  const events = describeCall(ctx.catalog, 'live.events', { tag: 'events', produces: 'text/event-stream' });
  app.get(events, async (request, reply) => {
    const ticket = String((request.query as { ticket?: unknown }).ticket ?? '');
    const used = ticket ? await ctx.db.deleteFrom('t_event_ticket').where('ticket', '=', ticket).returning(['userId', 'expiresAt']).executeTakeFirst() : undefined;
    const user = used && new Date(used.expiresAt as Date) > new Date() ? await loadUser(ctx.db, used.userId as number) : null;
    if (!user) throw new LoginExpired();
    let visibleIds: Set<number> | null = null;
    const loadVisible = async () => {
      if (isAdmin(user)) return;
      // Read in pages by id with a turn of the event loop between them: an agent may see a million devices,
      // and one statement answering all their ids would hold the embedded database, which runs in this
      // thread, for seconds (every 25 s while the stream is open).
      const ids = new Set<number>();
      for (let after = 0; ; ) {
        const page = (await scoped(ctx, device, user).clearSelect().clearOrderBy().select('t_device.fId').where('t_device.fId', '>', after).orderBy('t_device.fId').limit(VISIBLE_PAGE).execute()) as { fId: number }[];
        for (const r of page) ids.add(r.fId);
        if (page.length < VISIBLE_PAGE) break;
        after = page[page.length - 1].fId;
        await new Promise((turn) => setImmediate(turn));
      }
      visibleIds = ids;
    };
    await loadVisible();
    // The newest stream stays; the user's oldest ones on this replica make room for it (MAX_STREAMS_PER_USER).
    const mine = streams.get(user.fId) ?? new Set<() => void>();
    while (mine.size >= MAX_STREAMS_PER_USER) mine.values().next().value!();
    streams.set(user.fId, mine);
    reply.hijack();
    // A hijacked reply writes its own head: the headers set so far (the security headers) go with it.
    reply.raw.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const write = (event: string, data: unknown) => reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    write('broker', { state: ctx.live.state });
    const onDevice = (e: { fId: number }) => {
      if (!visibleIds || visibleIds.has(e.fId)) write('device', e);
    };
    const onDeviceAlarm = (e: DeviceAlarmEvent) => {
      if (!visibleIds || visibleIds.has(e.fDeviceId)) write('deviceAlarm', e);
    };
    const onState = (state: string) => write('broker', { state });
    // New alarms go to those whose alarm lists would show them (server/security/alarm.ts scope), as the
    // user is now: a jurisdiction or role changed while the stream is open applies to the next alarm.
    const onAlarm = (e: AlarmEvent) => {
      void ctx.sessions.user(user.fId).then((now) => {
        if (now?.permissions.has('alarm:list') && seesAlarm(now, e)) write('alarm', { fId: e.fId, fAlarmType: e.fAlarmType });
      }, () => undefined);
    };
    // A new message goes to its addressee only (server/platform/messageCentre.ts).
    const onMessage = (e: MessageEvent) => {
      if (e.userId === user.fId) write('message', { msg_id: e.msg_id, title: e.title });
    };
    // How far the user's own device import has got (server/devices/deviceTransfer.ts), whichever replica runs it.
    const onImport = ({ userId, ...progress }: RelayEvents['deviceImport']) => {
      if (userId === user.fId) write('deviceImport', progress);
    };
    // Whichever replica handled the device message or wrote the row (server/relay.ts); the broker state is this replica's own.
    const stops = [ctx.relay.on('device', onDevice), ctx.relay.on('deviceAlarm', onDeviceAlarm), ctx.relay.on('alarm', onAlarm), ctx.relay.on('message', onMessage), ctx.relay.on('deviceImport', onImport)];
    ctx.live.on('state', onState);
    // A comment line keeps proxies from closing an idle stream; the visible set follows new shares.
    const keepAlive = setInterval(() => {
      reply.raw.write(': keep-alive\n\n');
      void loadVisible().catch(() => undefined);
    }, 25_000);
    let closed = false;
    const release = () => {
      if (closed) return;
      closed = true;
      clearInterval(keepAlive);
      for (const stop of stops) stop();
      ctx.live.off('state', onState);
      mine.delete(supersede);
      if (!mine.size && streams.get(user.fId) === mine) streams.delete(user.fId);
    };
    // Closed for a newer stream of the same user: the page is told why, so it waits before opening another.
    const supersede = () => {
      try {
        write('superseded', { max: MAX_STREAMS_PER_USER });
        reply.raw.end();
      } finally {
        release();
      }
    };
    mine.add(supersede);
    request.raw.on('close', release);
    reply.raw.on('close', release);
    // The page may have gone while the stream was being opened.
    if (request.raw.socket.destroyed) release();
  });
}

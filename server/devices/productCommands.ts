/**
 * The product command panels of the device drawer: the send libraries a device's product offers
 * (POST /biz/t-product-json/send) and sending one of them, or reading its values back through its
 * query library (POST /api/emq/send). Sending goes through sendCommand, so the platform's rules
 * (offline, one in flight, 3 s throttle) and the command record are the same as for every command.
 */
import type { FastifyInstance } from 'fastify';
import { Answer, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { refuse } from '../http/envelope';
import type { User } from '../crud/types';
import type { DB } from '../db';
import type { Command } from '../mqtt/protocol';
import { refusalOf, sendCommand } from './commands';
import { visibleDevice } from './deviceAccess';
import { SEND } from './productJson';
import { storedIdList } from '../http/guard';
import { parseSwitches, type SwitchOption } from './productJsonConf';

/** Keys of the message envelope: the server fills them, so the panels neither show nor send them. */
export const ENVELOPE_KEYS = ['ClientID', 'bid', 'mid', 'Children'];

/** How deep entity fields may nest sub-libraries; a library that names itself must not loop. */
const MAX_DEPTH = 3;

interface Library {
  fId: number;
  fName: string;
  fBid: string;
  fDes: string | null;
  fType: number;
  fIsShowApp: number | null;
  fSearchJsonId: number | null;
}

/** A value of a library (t_product_json_conf) as a panel shows it, column for column. */
interface ConfFields {
  fId: number;
  fJsonKey: string;
  fJsonName: string;
  fJsonReadKey: string | null;
  fJsonDes: string | null;
  fDataType: number;
  fDefaultValue: string | null;
  fFunctionType: string | null;
}

/** The row as read: its library, its sub-library and its switch options as stored. */
interface Conf extends ConfFields {
  fProductJsonId: number;
  fJsonSubId: number | null;
  fSwitches: string | null;
}

/** The value as the panels get it: its sub-library's values and its switch options resolved. */
export interface ConfEntry extends ConfFields {
  productJsonSub: ConfEntry[] | null;
  productJsonConfSwitches: (SwitchOption & { defaultValue: string | null })[];
}

export interface CommandEntry {
  fId: number;
  fName: string;
  fBid: string;
  fDes: string | null;
  fSearchJsonId: number | null;
  productJsonConfs: ConfEntry[];
}

async function librariesById(db: DB, ids: number[]): Promise<Map<number, Library>> {
  if (!ids.length) return new Map();
  const rows = (await db
    .selectFrom('t_product_json')
    .select(['fId', 'fName', 'fBid', 'fDes', 'fType', 'fIsShowApp', 'fSearchJsonId'])
    .where('fId', 'in', ids)
    .execute()) as Library[];
  return new Map(rows.map((r) => [r.fId, r]));
}

async function confsOf(db: DB, libraryIds: number[], depth = 0): Promise<Map<number, ConfEntry[]>> {
  const out = new Map<number, ConfEntry[]>();
  if (!libraryIds.length) return out;
  const rows = (await db
    .selectFrom('t_product_json_conf')
    .select(['fId', 'fProductJsonId', 'fJsonKey', 'fJsonName', 'fJsonReadKey', 'fJsonDes', 'fDataType', 'fDefaultValue', 'fFunctionType', 'fJsonSubId', 'fSwitches'])
    .where('fProductJsonId', 'in', libraryIds)
    .orderBy('fId')
    .execute()) as Conf[];
  const subIds = [...new Set(rows.map((r) => r.fJsonSubId).filter((id): id is number => !!id))];
  const subs = depth < MAX_DEPTH ? await confsOf(db, subIds, depth + 1) : new Map<number, ConfEntry[]>();
  for (const r of rows) {
    const list = out.get(r.fProductJsonId) ?? [];
    list.push({
      fId: r.fId,
      fJsonKey: r.fJsonKey,
      fJsonName: r.fJsonName,
      fJsonReadKey: r.fJsonReadKey,
      fJsonDes: r.fJsonDes,
      fDataType: r.fDataType,
      fDefaultValue: r.fDefaultValue,
      fFunctionType: r.fFunctionType,
      productJsonSub: r.fJsonSubId ? subs.get(r.fJsonSubId) ?? [] : null,
      productJsonConfSwitches: parseSwitches(r.fSwitches).map((s) => ({ ...s, defaultValue: r.fDefaultValue })),
    });
    out.set(r.fProductJsonId, list);
  }
  return out;
}

/** The device as the user may see it, with its product's send libraries. */
async function deviceOf(ctx: RouteContext, user: User, id: unknown) {
  const device = await visibleDevice(ctx, user, id);
  const product = device.fProductId
    ? await ctx.db.selectFrom('t_product').select(['fId', 'fSendJsonIds']).where('fId', '=', device.fProductId).executeTakeFirst()
    : undefined;
  return { device, sendIds: storedIdList(product?.fSendJsonIds) };
}

/** The command panels of a device: its product's send libraries in the product's order. */
export async function commandConfig(ctx: RouteContext, user: User, body: Record<string, unknown>): Promise<CommandEntry[]> {
  const { sendIds } = await deviceOf(ctx, user, body.fId);
  const forApp = body.fIsApp === true || Number(body.fIsApp) === 1;
  const libraries = await librariesById(ctx.db, sendIds);
  const chosen = sendIds
    .map((id) => libraries.get(id))
    .filter((l): l is Library => !!l && l.fType === SEND && (!forApp || l.fIsShowApp === 1));
  const confs = await confsOf(ctx.db, chosen.map((l) => l.fId));
  return chosen.map((l) => ({
    fId: l.fId,
    fName: l.fName,
    fBid: l.fBid,
    fDes: l.fDes,
    fSearchJsonId: l.fSearchJsonId,
    productJsonConfs: confs.get(l.fId) ?? [],
  }));
}

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** Legacy devices know numeric bids; named ones (switch, read-threshold) go out as they are. */
export function wireBid(bid: string): string | number {
  return /^\d+$/.test(bid) ? Number(bid) : bid;
}

function parseJson(conf: ConfEntry, raw: unknown, shape: 'object' | 'array'): unknown {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw refuse('command.valueFormat', { name: conf.fJsonName });
    }
  }
  const fits = shape === 'array' ? Array.isArray(value) : !!value && typeof value === 'object' && !Array.isArray(value);
  if (!fits) throw refuse('command.valueFormat', { name: conf.fJsonName });
  return value;
}

/**
 * A form value as the library's field says it travels: numbers for types 1 and 2, a list for the
 * comma-separated types 3 and 4, and a switch's open or close value for a switch.
 */
export function wireValue(conf: ConfEntry, raw: unknown): unknown {
  let value = raw;
  const option = conf.productJsonConfSwitches[0];
  if (option && typeof value === 'boolean') value = value ? option.fOpenValue : option.fCloseValue;
  switch (Number(conf.fDataType)) {
    case 1: {
      const n = Number(value);
      if (typeof value === 'boolean' || !Number.isInteger(n) || blank(value)) throw refuse('command.valueInteger', { name: conf.fJsonName });
      return n;
    }
    case 2: {
      const n = Number(value);
      if (typeof value === 'boolean' || !Number.isFinite(n) || blank(value)) throw refuse('command.valueNumber', { name: conf.fJsonName });
      return n;
    }
    case 3:
    case 4: {
      const items = Array.isArray(value) ? value : String(value).split(/[,，]/);
      const cleaned = items.map((i) => (typeof i === 'string' ? i.trim() : i)).filter((i) => !blank(i));
      return Number(conf.fDataType) === 4 ? cleaned.map((i) => (typeof i === 'string' && i !== '' && Number.isFinite(Number(i)) ? Number(i) : i)) : cleaned.map(String);
    }
    case 5:
      return value === true || value === 1 || value === '1' || value === 'true';
    case 7:
      return parseJson(conf, value, 'object');
    case 8:
      return parseJson(conf, value, 'array');
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

/** The command a panel's values make: the library's bid and each field given (or its default). */
export function buildCommand(bid: string, confs: ConfEntry[], values: Record<string, unknown>): Command {
  const command: Command = { bid: wireBid(bid) };
  for (const conf of confs) {
    if (ENVELOPE_KEYS.includes(conf.fJsonKey)) continue;
    const raw = blank(values[conf.fJsonKey]) ? conf.fDefaultValue : values[conf.fJsonKey];
    if (blank(raw)) continue;
    command[conf.fJsonKey] = wireValue(conf, raw);
  }
  return command;
}

/** A value the device reported, in the panel's terms: a switch's read value becomes its open/close value. */
function panelValue(conf: ConfEntry, reported: unknown): unknown {
  const option = conf.productJsonConfSwitches[0];
  if (!option) return reported;
  const text = String(reported);
  if (text === (option.fOpenReadValue ?? option.fOpenValue)) return wireValue(conf, option.fOpenValue);
  if (text === (option.fCloseReadValue ?? option.fCloseValue)) return wireValue(conf, option.fCloseValue);
  return reported;
}

/** The panel's values as the device acknowledged them (its state), else as they were sent. */
export function acknowledgedValues(confs: ConfEntry[], state: Record<string, unknown> | undefined, sent: Command | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const conf of confs) {
    if (ENVELOPE_KEYS.includes(conf.fJsonKey)) continue;
    const readKey = conf.fJsonReadKey || conf.fJsonKey;
    if (state && readKey in state) out[conf.fJsonKey] = panelValue(conf, state[readKey]);
    else if (sent && conf.fJsonKey in sent) out[conf.fJsonKey] = sent[conf.fJsonKey];
  }
  return out;
}

export async function sendProductCommand(ctx: RouteContext, user: User, body: Record<string, unknown>) {
  const productJson = body.productJson && typeof body.productJson === 'object' && !Array.isArray(body.productJson) ? (body.productJson as Record<string, unknown>) : null;
  const libraryId = Number(productJson?.fId);
  if (!productJson || !Number.isInteger(libraryId) || libraryId <= 0) throw refuse('command.libraryRequired');
  const { device, sendIds } = await deviceOf(ctx, user, body.gateWayId ?? body.deviceId);
  if (!sendIds.includes(libraryId)) throw refuse('command.libraryNotOffered');
  const libraries = await librariesById(ctx.db, [libraryId]);
  const library = libraries.get(libraryId);
  if (!library || library.fType !== SEND) throw refuse('command.libraryNotOffered');
  const confs = (await confsOf(ctx.db, [libraryId])).get(libraryId) ?? [];
  const search = body.isSearch === true || Number(body.isSearch) === 1 || body.isSearch === 'true';

  let command: Command;
  let name: string;
  if (search) {
    if (!library.fSearchJsonId) throw refuse('command.noQuery');
    const query = (await librariesById(ctx.db, [library.fSearchJsonId])).get(library.fSearchJsonId);
    if (!query) throw refuse('library.searchMissing');
    command = { bid: wireBid(query.fBid) };
    name = query.fName;
  } else {
    command = buildCommand(library.fBid, confs, productJson);
    name = library.fName;
  }

  const outcome = await sendCommand({ db: ctx.db, live: ctx.live }, { deviceId: device.fId, command, user, source: 'console', name });
  if (!outcome.ok) throw refusalOf(outcome);
  const values = acknowledgedValues(confs, outcome.ack?.state, search ? undefined : command);
  return new Answer({ productJson: { fId: library.fId, fName: library.fName, ...values }, commandId: outcome.commandId }, outcome.reason);
}

export function registerProductCommandRoutes(app: FastifyInstance, ctx: RouteContext) {
  registerCall(app, ctx, {
    call: 'command.panel',
    handler: async ({ user, body }) => commandConfig(ctx, user!, body),
  });
  registerCall(app, ctx, {
    call: 'command.raw',
    write: true,
    handler: async ({ user, body }) => sendProductCommand(ctx, user!, body),
  });
}

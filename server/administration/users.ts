/**
 * System users (spec 002 screen 4) and tenants (spec 001 §2.7), declared by resources/user.resource.json:
 * these are its handlers. Every answer is built from an explicit column list that never names f_password;
 * the password is hashed here, a password change or reset ends the user's sessions, and an administrator
 * cannot disable or delete the account it is signed in with. Tenants are the users of fUserType 2 and
 * share the list and status calls: the resource's `variantBy` decides the variant once (the list's
 * condition.userType 2 needs tenant:list; a status change needs tenant:status for a stored tenant, user:edit
 * for anyone else) and the handlers act on that decision (`ctx.variant`), never on the body again.
 * Every user a read reaches is one of the caller's scope (the resource's `scope`: administrators anyone,
 * others the people renting in their jurisdiction), tenants, staff and the profile's people alike. The template,
 * the Excel import and the export are file calls registered by registerUserFileRoutes.
 */
import type { FastifyInstance } from 'fastify';
import { Answer, authenticate } from '../http/route';
import type { RouteContext } from '../http/context';
import { declaredCodes, describeCall } from '../http/calls';
import type { DeclaredCallName } from '../../contract/generated/calls';
import { Forbidden, NotFound, Refusal, languageOfRequest, reason, refuse, textOf } from '../http/envelope';
import { REASONS, type PlainReasonCode, type ReasonCode } from '../../contract/generated/reasons';
import { LANGUAGES, type Language } from '../../contract/reasons';
import { roleName } from '../db/menus';
import { bodyText, isId, storedIdList } from '../http/guard';
import { checkJurisdiction, jurisdictionNames } from '../auth/jurisdiction';
import { maskRows, scopeQuery } from '../crud/scope';
import { hashPassword } from '../auth/passwords';
import { formatRow } from '../crud/format';
import { maskIdcard } from '../../contract/personal';
import { isPicture } from '../../contract/picture';
import { fieldReason, fieldRefusal } from '../crud/validate';
import type { CallContext, Query, Services, User } from '../crud/types';
import { entity, pageAnswer, pageOf } from '../crud/engine';
import type { DB } from '../db';
import { amongValues, pageAt, containing } from '../crud/query';
import { personDetail, profileInfo } from '../security';
import { sendFile } from '../http/files';
import { registerSheetImport } from '../http/upload';
import { checkRows, newWorkbook, openSheet, receiveSheet, refuseBadRows, SHEET_LIMIT_BYTES, templateBook, XLSX_TYPE } from '../platform';

const TENANT = 2;
/** The variant the list's and the status call's `variantBy` names for tenants. */
const TENANT_VARIANT = String(TENANT);

/** What /resetUserPwd sets when the body names no password; the user is expected to change it. */
export const DEFAULT_PASSWORD = '123456';

const PHONE = /^1[3-9]\d{9}$/;

/** The only columns of t_sys_user an answer may carry. */
const PUBLIC_COLUMNS = ['fId', 'fChineseName', 'fPhone', 'fAdmin', 'fUserType', 'fStatus', 'fPic', 'fExpireTime', 'fAreaIds', 'streets', 'fCreateTime', 'fLastloginDate'] as const;

function idOf(body: Record<string, unknown>): number {
  const id = body.fId ?? body.id;
  if (!isId(id)) throw refuse('system.badParameter');
  return id;
}

function roleIds(value: unknown): number[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' && value ? value.split(',') : [];
  const ids = list.map((v) => Number(typeof v === 'object' && v !== null ? (v as { id?: unknown }).id : v)).filter(isId);
  return [...new Set(ids)];
}

interface Condition {
  keyword?: string;
  status?: number;
  kind?: number;
  userType: number;
}

function conditionOf(body: Record<string, unknown>, tenants: boolean): Condition {
  const c = (body.condition && typeof body.condition === 'object' ? body.condition : body) as Record<string, unknown>;
  const kindRaw = c.fAdmin;
  const statusRaw = c.status ?? c.fStatus;
  const kind = kindRaw === '' || kindRaw === null || kindRaw === undefined ? NaN : Number(kindRaw);
  const status = statusRaw === '' || statusRaw === null || statusRaw === undefined ? NaN : Number(statusRaw);
  return {
    keyword: typeof c.keyword === 'string' && c.keyword.trim() ? c.keyword.trim() : undefined,
    // fAdmin is the kind of a system user (0 user, 1 administrator, 2 agent); userType 2 lists tenants.
    kind: [0, 1, 2].includes(kind) ? kind : undefined,
    status: [0, 1].includes(status) ? status : undefined,
    userType: tenants ? TENANT : 1,
  };
}

/** The users of the caller's scope (server/crud/scope.ts, as resources/user.resource.json declares it). */
const usersSeenBy = (db: DB, caller: User) => scopeQuery(db.selectFrom('t_sys_user') as unknown as Query, entity('user'), caller, {}) as unknown as ReturnType<typeof allUsers>;
/** The table's query type, which the scoped query keeps. */
const allUsers = (db: DB) => db.selectFrom('t_sys_user');

/** The users a list or the export may show: those of the caller's scope. */
function filtered(db: DB, c: Condition, caller: User) {
  let q = usersSeenBy(db, caller).where('fUserType', '=', c.userType);
  if (c.kind !== undefined) q = q.where('fAdmin', '=', c.kind);
  if (c.status !== undefined) q = q.where('fStatus', '=', c.status);
  if (c.keyword) {
    const like = containing(c.keyword);
    q = q.where((eb) => eb.or([eb('fChineseName', 'ilike', like), eb('fPhone', 'like', like)]));
  }
  return q;
}

async function rolesOf(db: DB, userIds: number[], language: Language): Promise<Map<number, { id: number; name: string }[]>> {
  const out = new Map<number, { id: number; name: string }[]>();
  if (!userIds.length) return out;
  const rows = await db
    .selectFrom('t_sys_user_role as ur')
    .innerJoin('t_sys_role as r', 'r.id', 'ur.roleId')
    .select(['ur.userId', 'r.id', 'r.name', 'r.alias'])
    .where('ur.userId', 'in', userIds)
    .orderBy('r.id')
    .execute();
  for (const r of rows) {
    const list = out.get(r.userId) ?? [];
    list.push({ id: r.id, name: roleName(r, language) });
    out.set(r.userId, list);
  }
  return out;
}

/** The names of a user's regions and streets, for the form's chips. */
function jurisdictionOf(r: Record<string, unknown>, names: Awaited<ReturnType<typeof jurisdictionNames>>) {
  return {
    areaNames: storedIdList(r.fAreaIds).map((id) => ({ id, name: names.areas.get(id) ?? String(id) })),
    streetNames: storedIdList(r.streets).map((id) => ({ id, name: names.streets.get(id) ?? String(id) })),
  };
}

/** The users with their roles and regions; the roles' names in the caller's language (a built-in role's). */
async function withRoles(ctx: Services, rows: Record<string, unknown>[], language: Language = 'zh-CN'): Promise<(Record<string, unknown> & { roles: number[]; roleids: { id: number; name: string }[]; roleNames: string })[]> {
  const [roles, names] = await Promise.all([rolesOf(ctx.db, rows.map((r) => Number(r.fId)), language), jurisdictionNames(ctx.db, rows)]);
  return rows.map((r) => {
    const held = roles.get(Number(r.fId)) ?? [];
    // roles / roleids as the legacy screens read them; fRoleIds and roleNames for the declared form and list.
    return {
      ...formatRow(r, ctx.timeZone),
      roles: held.map((x) => x.id),
      roleids: held,
      fRoleIds: held.map((x) => x.id).join(','),
      roleNames: held.map((x) => x.name).join(language === 'en-US' ? ', ' : '、'),
      ...jurisdictionOf(r, names),
    };
  });
}

export async function userPage(ctx: Services, body: Record<string, unknown>, tenants: boolean, caller: User, language: Language = 'zh-CN') {
  const c = conditionOf(body, tenants);
  const p = await pageOf(ctx, filtered(ctx.db, c, caller).select([...PUBLIC_COLUMNS]) as Query, pageAt(body, 10, 999), [{ column: 'fId', asc: true }], { searching: !!c.keyword });
  const records = c.userType === TENANT ? await tenantRows(ctx, p.rows.map((r) => Number(r.fId))) : await withRoles(ctx, p.rows, language);
  maskRows(entity('user'), records, caller);
  return pageAnswer<Record<string, unknown>>(p, records);
}

/**
 * The tenant row (spec 001 §3 "tenant user"): the public columns, gender, e-mail, work unit and address,
 * the ID number masked, and the current lease (a renting one, the latest first) with its house and room.
 */
async function tenantRows(ctx: Services, ids: number[]) {
  if (!ids.length) return [];
  const people = await ctx.db
    .selectFrom('t_sys_user')
    .select([...PUBLIC_COLUMNS, 'fIdcard', 'fGender', 'fEmail', 'fWorkUnit', 'fWorkAddress'])
    .where('fId', 'in', ids)
    .orderBy('fId')
    .execute();
  const leases = await ctx.db
    .selectFrom('t_tenant_house as l')
    .leftJoin('t_house_info as h', 'h.fHouseId', 'l.fHouseId')
    .leftJoin('t_rental_room as r', 'r.fId', 'l.fRoomId')
    .select(['l.fUserId', 'l.fHouseId', 'l.fRoomId', 'l.fStartTime', 'l.fEndTime', 'h.fHouseName', 'h.fAddress', 'r.fRoom'])
    .where('l.fUserId', 'in', ids)
    .where('l.fStatus', '=', 2)
    .orderBy('l.fStartTime', 'desc')
    .execute();
  const leaseOf = new Map<number, Record<string, unknown>>();
  for (const l of leases) if (!leaseOf.has(Number(l.fUserId))) leaseOf.set(Number(l.fUserId), formatRow(l as Record<string, unknown>, ctx.timeZone));
  return people.map((p) => {
    const lease = leaseOf.get(Number(p.fId)) ?? null;
    const leaseName = lease ? [lease.fHouseName, lease.fRoom].filter(Boolean).join(' ') : null;
    return { ...formatRow({ ...p, fIdcard: maskIdcard(p.fIdcard) || null } as Record<string, unknown>, ctx.timeZone), lease, leaseName };
  });
}


/** A rule of a user's field refused, in its schema's words (`user.<field>.<rule>`). */
const fieldRefused = (field: string, rule: string) => new Refusal(fieldReason(entity('user'), field, rule));

/**
 * The values of a user to store, checked by the spec's rules in the order the form checks them (spec
 * 002 §5), the role ids resolved; shared by the form's save and the Excel import.
 */
async function checkUser(db: DB, body: Record<string, unknown>, creating: boolean) {
  const adminRaw = body.fAdmin;
  if (adminRaw === undefined || adminRaw === null || adminRaw === '' || ![0, 1, 2].includes(Number(adminRaw))) throw fieldRefused('fAdmin', 'required');
  const name = bodyText(body, 'fChineseName');
  if (!name) throw fieldRefused('fChineseName', 'required');
  if (name.length > 50) throw fieldRefused('fChineseName', 'maxLength');
  const phone = bodyText(body, 'fPhone');
  if (!phone) throw fieldRefused('fPhone', 'required');
  if (!PHONE.test(phone)) throw fieldRefused('fPhone', 'pattern');
  const roles = roleIds(body.roles ?? body.roleids ?? body.fRoleIds);
  if (!roles.length) throw fieldRefused('fRoleIds', 'required');
  const password = typeof body.fPassword === 'string' ? body.fPassword : '';
  if (creating && !password) throw refuse('password.required');
  if (password && password.length < 6) throw refuse('password.tooShort');
  // The form sends the confirmation; other callers may leave it out.
  if (password && body.passwordCheck !== undefined && body.passwordCheck !== password) throw refuse('password.mismatch');
  const pic = bodyText(body, 'fPic');
  // The avatar is a picture field (schemas/user: "format": "picture"): an uploaded name or an http(s) address.
  if (pic && !isPicture(pic)) throw fieldRefusal(entity('user'), 'fPic', 'format');
  const known = await db.selectFrom('t_sys_role').select('id').where('id', 'in', roles).execute();
  if (known.length !== roles.length) throw refuse('user.roleMissing');
  const statusRaw = body.fStatus;
  const status = statusRaw === undefined || statusRaw === null || statusRaw === '' ? undefined : Number(statusRaw) === 0 ? 0 : 1;
  const expire = bodyText(body, 'fExpireTime');
  const values: Record<string, unknown> = {
    fChineseName: name,
    fPhone: phone,
    fAdmin: Number(adminRaw),
    fUserType: [1, 2].includes(Number(body.fUserType)) ? Number(body.fUserType) : 1,
    fPic: pic || null,
    ...(await checkJurisdiction(db, body)),
    fExpireTime: expire ? new Date(expire.replace(' ', 'T') + (/[zZ]|[+-]\d\d:?\d\d$/.test(expire) ? '' : '+08:00')) : null,
  };
  if (values.fExpireTime && Number.isNaN((values.fExpireTime as Date).getTime())) values.fExpireTime = null;
  return { values, roles, password, status, phone };
}

async function saveUser(ctx: Services, body: Record<string, unknown>, caller: number) {
  const id = Number(body.fId ?? body.id) || 0;
  const { values, roles, password, status, phone } = await checkUser(ctx.db, body, !id);
  const clash = await ctx.db.selectFrom('t_sys_user').select('fId').where('fPhone', '=', phone).executeTakeFirst();
  if (clash && clash.fId !== id) throw fieldRefusal(entity('user'), 'fPhone', 'unique', 409);

  return ctx.db.transaction().execute(async (trx) => {
    let userId = id;
    if (id) {
      const existing = await trx.selectFrom('t_sys_user').select(['fId', 'fAdmin']).where('fId', '=', id).executeTakeFirst();
      if (!existing) throw new NotFound(reason('user.notFound'));
      if (id === caller && status === 0) throw refuse('user.selfDisable');
      // A blank password on edit keeps the stored one.
      const patch: Record<string, unknown> = { ...values, ...(status !== undefined ? { fStatus: status } : {}) };
      if (password) Object.assign(patch, { fPassword: await hashPassword(password), fTokensValidAfter: new Date() });
      await trx.updateTable('t_sys_user').set(patch).where('fId', '=', id).execute();
      await trx.deleteFrom('t_sys_user_role').where('userId', '=', id).execute();
    } else {
      const created = await trx
        .insertInto('t_sys_user')
        .values({ ...values, fPassword: await hashPassword(password), fStatus: status ?? 1 })
        .returning('fId')
        .executeTakeFirstOrThrow();
      userId = created.fId;
    }
    await trx.insertInto('t_sys_user_role').values(roles.map((roleId) => ({ userId, roleId }))).execute();
    const row = await trx.selectFrom('t_sys_user').select([...PUBLIC_COLUMNS]).where('fId', '=', userId).executeTakeFirstOrThrow();
    return row;
  });
}

/** A text of the catalogue in the spreadsheets' language (zh-CN, the legacy files'). */
const sheetText = (code: PlainReasonCode) => textOf(reason(code));
/** A field's label, a column's header. */
const labelOf = (field: string) => entity('user').fields[field].label;

/** The export's columns, headed by the fields' labels (the kind by fAdmin's, the status by fStatus's). */
const exportColumns = () => [
  { key: 'fChineseName', header: labelOf('fChineseName'), width: 16 },
  { key: 'fPhone', header: labelOf('fPhone'), width: 16 },
  { key: 'kind', header: labelOf('fAdmin'), width: 12 },
  { key: 'roleNames', header: labelOf('roleNames'), width: 24 },
  { key: 'status', header: labelOf('fStatus'), width: 10 },
  { key: 'fCreateTime', header: labelOf('fCreateTime'), width: 20 },
  { key: 'fLastloginDate', header: labelOf('fLastloginDate'), width: 20 },
];
/** The kinds of user (fAdmin) as the sheets word them. */
const KINDS = { 0: 'sheet.userKindOrdinary', 1: 'sheet.userKindAdmin', 2: 'sheet.userKindAgent' } as const satisfies Record<number, ReasonCode>;
const kindText = (kind: number) => (kind in KINDS ? sheetText(KINDS[kind as keyof typeof KINDS]) : '');

async function exportWorkbook(ctx: Services, body: Record<string, unknown>, caller: User): Promise<Buffer> {
  // The export is the search result, every page of it, among the users the caller may see.
  // System users only: user:export does not reach tenants, whatever the body says.
  const rows = await filtered(ctx.db, conditionOf(body, false), caller).select([...PUBLIC_COLUMNS]).orderBy('fId').limit(100_000).execute();
  const records = await withRoles(ctx, rows);
  // Phones leave masked unless the caller may see them in full (the resource's unmask code), as in the list.
  maskRows(entity('user'), records, caller);
  const book = await newWorkbook();
  const sheet = book.addWorksheet(sheetText('sheet.userSheet'));
  sheet.columns = exportColumns().map((c) => ({ header: c.header, key: c.key, width: c.width }));
  sheet.getColumn('fPhone').numFmt = '@';
  sheet.getRow(1).font = { bold: true };
  for (const r of records) {
    sheet.addRow({
      fChineseName: r.fChineseName,
      fPhone: r.fPhone,
      kind: kindText(Number(r.fAdmin)),
      roleNames: r.roleids.map((x) => x.name).join(','),
      status: sheetText(Number(r.fStatus) === 1 ? 'sheet.enabled' : 'sheet.disabled'),
      fCreateTime: r.fCreateTime ?? '',
      fLastloginDate: r.fLastloginDate ?? '',
    });
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The user's devices: owned (fUserId) or linked (t_user_device). Homes and rooms are not kept here yet. */
async function userDevices(ctx: Services, userId: number, body: Record<string, unknown>) {
  const query = ctx.db
    .selectFrom('t_device as d')
    .leftJoin('t_product as p', 'p.fId', 'd.fProductId')
    .where((eb) => eb.or([eb('d.fUserId', '=', userId), amongValues(eb.ref('d.fId'), eb.selectFrom('t_user_device').select('fDeviceId').where('fUserId', '=', userId))]))
    .select(['d.fId', 'd.fNumber', 'd.fName', 'd.fStatus', 'd.tOnline', 'p.fName as productName', 'p.fDeviceType as productDeviceType']);
  const p = await pageOf(ctx, query as Query, pageAt(body, 10, 999), [{ column: 'd.fId', asc: true }]);
  return pageAnswer(p, p.rows.map((r) => ({ ...r, homeName: null, roomName: null, roomType: null })));
}

// ---------------------------------------------------------------------------------------------------
// Handlers of resources/user.resource.json

const languageOfCall = (ctx: CallContext): Language => (ctx.request ? languageOfRequest(ctx.request) : 'zh-CN');

export const list = (ctx: CallContext) => userPage(ctx, ctx.body, ctx.variant === TENANT_VARIANT, ctx.user, languageOfCall(ctx));

/** The holographic profile (spec 001) shares getUserInfo and getUserData: variantBy names it `profile`. */
const PROFILE_VARIANT = 'profile';

export async function info(ctx: CallContext) {
  if (ctx.variant === PROFILE_VARIANT) return profileInfo(ctx, callOf(ctx));
  const row = await usersSeenBy(ctx.db, ctx.user).select([...PUBLIC_COLUMNS]).where('fId', '=', idOf(ctx.body)).executeTakeFirst();
  if (!row) throw new NotFound(reason('user.notFound'));
  const [user] = await withRoles(ctx, [row], languageOfCall(ctx));
  maskRows(entity('user'), [user], ctx.user);
  return user;
}

export async function devices(ctx: CallContext) {
  if (ctx.variant === PROFILE_VARIANT) return personDetail(ctx, callOf(ctx));
  const id = idOf(ctx.body);
  if (!(await usersSeenBy(ctx.db, ctx.user).select('fId').where('fId', '=', id).executeTakeFirst())) throw new NotFound(reason('user.notFound'));
  return userDevices(ctx, id, ctx.body);
}

/** The profile lookups log themselves and read the request of the call. */
const callOf = (ctx: CallContext) => ({ user: ctx.user, body: ctx.body, request: ctx.request! });

export const save = async (ctx: CallContext) => formatRow(await saveUser(ctx, ctx.body, ctx.user.fId), ctx.timeZone);

export async function remove(ctx: CallContext) {
  const id = idOf(ctx.body);
  if (id === ctx.user.fId) throw refuse('user.selfDelete');
  const gone = await ctx.db.transaction().execute(async (trx) => {
    // Devices the user owned stay, without an owner.
    await trx.updateTable('t_device').set({ fUserId: null }).where('fUserId', '=', id).execute();
    return trx.deleteFrom('t_sys_user').where('fId', '=', id).executeTakeFirst();
  });
  if (!Number(gone.numDeletedRows)) throw new NotFound(reason('user.notFound'));
  return null;
}

export async function resetPassword(ctx: CallContext) {
  const { body } = ctx;
  const id = idOf(body);
  const given = typeof body.fPassword === 'string' ? body.fPassword : typeof body.password === 'string' ? body.password : '';
  if (given && given.length < 6) throw refuse('password.tooShort');
  // A reset ends every session of the user, as a password change does.
  const done = await ctx.db
    .updateTable('t_sys_user')
    .set({ fPassword: await hashPassword(given || DEFAULT_PASSWORD), fTokensValidAfter: new Date() })
    .where('fId', '=', id)
    .executeTakeFirst();
  if (!Number(done.numUpdatedRows)) throw new NotFound(reason('user.notFound'));
  return new Answer(null, given ? reason('password.resetDone') : reason('password.resetToDefault', { password: DEFAULT_PASSWORD }));
}

export async function status(ctx: CallContext) {
  const { body } = ctx;
  const id = idOf(body);
  const value = Number(body.fStatus);
  if (![0, 1].includes(value)) throw refuse('user.statusRequired');
  if (id === ctx.user.fId && value === 0) throw refuse('user.selfDisable');
  // The code was chosen by the stored row's type (ctx.variant); the update holds the row to that type, so
  // a row changed meanwhile is not reached with the other type's code. A tenant is one of the caller's scope.
  const type = Number(ctx.variant);
  if (type === TENANT && !(await usersSeenBy(ctx.db, ctx.user).select('fId').where('fId', '=', id).executeTakeFirst())) throw new NotFound(reason('user.notFound'));
  const done = await ctx.db.updateTable('t_sys_user').set({ fStatus: value }).where('fId', '=', id).where('fUserType', '=', type).executeTakeFirst();
  if (!Number(done.numUpdatedRows)) throw new NotFound(reason('user.notFound'));
  return new Answer(null, reason('user.statusChanged'));
}

// ---------------------------------------------------------------------------------------------------
// Template, import and export

/**
 * The import's columns; the role column takes role aliases or names, several separated by commas. A
 * header is found by its words before "(" (server/platform/sheetImport.ts).
 */
const importColumns = () => [
  { key: 'fChineseName', header: labelOf('fChineseName'), width: 14 },
  { key: 'fPhone', header: labelOf('fPhone'), width: 16 },
  { key: 'fAdmin', header: sheetText('sheet.userKindColumn'), width: 26 },
  { key: 'roles', header: sheetText('sheet.userRolesColumn'), width: 30 },
  { key: 'fPassword', header: sheetText('sheet.userPasswordColumn'), width: 16 },
];

export const templateWorkbook = () =>
  templateBook(sheetText('sheet.userSheet'), importColumns(), { fChineseName: sheetText('sheet.userExampleName'), fPhone: '13800138000', fAdmin: kindText(0), roles: 'user', fPassword: 'Change@123' }, ['fPhone', 'fPassword']);

/**
 * Every row checked with the form's rules (and a phone used once, in the file and in the database);
 * one bad row refuses the file naming every bad row, else all users and their roles go in one transaction.
 */
export async function importUsers(ctx: Services, file: Buffer): Promise<{ imported: number }> {
  const roles = await ctx.db.selectFrom('t_sys_role').select(['id', 'name', 'alias']).execute();
  // A kind may be written in any of the console's languages.
  const kinds = Object.fromEntries(Object.entries(KINDS).flatMap(([k, code]) => LANGUAGES.map((l) => [REASONS[code][l], k])));
  const seen = new Set<string>();
  const result = await checkRows(await openSheet(file), importColumns(), async (raw) => {
    // A role by its alias or its name, a built-in role's in any of the console's languages.
    const picked = raw.roles.split(/[,，、;；\s]+/).filter(Boolean).map((r) => roles.find((x) => x.alias === r || x.name === r || LANGUAGES.some((l) => roleName(x, l) === r))?.id ?? -1);
    if (picked.includes(-1)) throw refuse('user.roleMissing');
    const checked = await checkUser(ctx.db, { ...raw, fAdmin: kinds[raw.fAdmin] ?? raw.fAdmin, roles: picked }, true);
    if (seen.has(checked.phone)) throw refuse('user.phoneRepeated');
    seen.add(checked.phone);
    if (await ctx.db.selectFrom('t_sys_user').select('fId').where('fPhone', '=', checked.phone).executeTakeFirst()) throw fieldRefused('fPhone', 'unique');
    return { ...checked, password: await hashPassword(checked.password) };
  });
  refuseBadRows(result);
  await ctx.db.transaction().execute(async (trx) => {
    for (const u of result.rows) {
      const { fId } = await trx.insertInto('t_sys_user').values({ ...u.values, fPassword: u.password, fStatus: 1 } as never).returning('fId').executeTakeFirstOrThrow();
      await trx.insertInto('t_sys_user_role').values(u.roles.map((roleId) => ({ userId: fId, roleId }))).execute();
    }
  });
  return { imported: result.rows.length };
}

/** Where the importing user is told that an import finished (the message centre, where there is one). */
export async function importFinished(_ctx: Services, _user: User, _result: { imported: number }): Promise<void> {}

/** A file answer: the legacy export is a form post whose `json` field carries the search. */
function searchOf(raw: unknown): Record<string, unknown> {
  const body = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  if (typeof body.json !== 'string') return body;
  try {
    const parsed = JSON.parse(body.json) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    throw refuse('system.badParameter');
  }
}

export function registerUserFileRoutes(app: FastifyInstance, ctx: RouteContext) {
  void app.register(async (scope) => {
    // The legacy export is a browser form post: its fields are the search (`json`) and the session's token.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, text, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(text))));
    });
    const fileRoute = (call: DeclaredCallName, make: (body: Record<string, unknown>, user: User) => Promise<Buffer>, name: string, fallback: string) => {
      const codes = declaredCodes(call) ?? [];
      const path = describeCall(ctx.catalog, call, { tag: 't-sys-user', produces: XLSX_TYPE });
      scope.route({
        method: ['GET', 'POST'],
        url: path,
        handler: async (request, reply) => {
          const form = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
          // A form cannot send a header: its token field stands for it.
          if (!request.headers.authorization && typeof form.token === 'string' && form.token) request.headers.authorization = form.token;
          const user = await authenticate(ctx, request, reply);
          if (!codes.some((c) => user.permissions.has(c))) throw new Forbidden();
          const { token: _token, ...search } = form;
          return sendFile(reply, await make(searchOf(search), user), XLSX_TYPE, name, fallback);
        },
      });
    };
    fileRoute('sheet.userExport', (body, user) => exportWorkbook(ctx, body, user), sheetText('sheet.userExportFile'), 'users.xlsx');
    // Spec 002 §6: the template download and the import are the add button's (user:add).
    fileRoute('sheet.userTemplate', () => templateWorkbook(), sheetText('sheet.userTemplateFile'), 'users-template.xlsx');
  });

  registerSheetImport(app, ctx, {
    call: 'sheet.userImport',
    maxBytes: SHEET_LIMIT_BYTES,
    handler: async ({ user, request }) => {
      const { data } = await receiveSheet(request);
      const result = await importUsers(ctx, data);
      await importFinished(ctx, user!, result);
      return new Answer(result, reason('import.done', { count: result.imported }));
    },
  });
}

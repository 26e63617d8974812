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
import type { FastifyInstance, FastifyReply } from 'fastify';
import multipart from '@fastify/multipart';
import { Answer, authenticate, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { S, answers, describeRoute, takes } from '../http/catalog';
import { Forbidden, NotFound, Refusal } from '../http/envelope';
import { SYSTEM_REFUSALS } from '../../adapters/systemRefusals';
import { isId, storedIdList } from '../http/guard';
import { checkJurisdiction, jurisdictionNames } from './jurisdiction';
import { maskRows, scopeQuery } from '../crud/scope';
import { hashPassword } from '../auth/passwords';
import { formatRow } from '../crud/format';
import { maskIdcard } from '../../adapters/personal';
import { isPicture } from '../../adapters/picture';
import { fieldRefusal } from '../crud/validate';
import type { CallContext, Query, Services, User } from '../crud/types';
import { entity, pageAnswer, pageOf } from '../crud/engine';
import type { DB } from '../db';
import { amongValues, pageAt, containing } from '../crud/query';
import { INTEL_BODY, PERSON_DETAIL, personDetail, profileInfo } from './intel';
import { attachment } from './deviceTransfer';
import { checkRows, newWorkbook, openSheet, receiveSheet, refuseBadRows, SHEET_LIMIT_BYTES, SHEET_MESSAGES, templateBook, XLSX_TYPE } from './sheetImport';

export const USER_PATHS = {
  list: '/system/t-sys-user/pageList',
  save: '/system/t-sys-user/addOrUpdateSysUser',
  remove: '/system/t-sys-user/removeSysUser',
  resetPwd: '/system/t-sys-user/resetUserPwd',
  status: '/system/t-sys-user/statusUser',
  info: '/system/t-sys-user/getUserInfo',
  export: '/system/t-sys-user/exportTable',
  devices: '/system/t-sys-user/getUserData',
  template: '/system/t-sys-user/template',
  import: '/system/t-sys-user/importExcel',
};

export const USER_CODES = { list: 'user:list', add: 'user:add', edit: 'user:edit', export: 'user:export' };

const TENANT = 2;
/** The variant the list's and the status call's `variantBy` names for tenants. */
const TENANT_VARIANT = String(TENANT);

/** What /resetUserPwd sets when the body names no password; the user is expected to change it. */
export const DEFAULT_PASSWORD = '123456';

const PHONE = /^1[3-9]\d{9}$/;

/** The only columns of t_sys_user an answer may carry. */
const PUBLIC_COLUMNS = ['fId', 'fChineseName', 'fPhone', 'fAdmin', 'fUserType', 'fStatus', 'fPic', 'fExpireTime', 'fAreaIds', 'streets', 'fCreateTime', 'fLastloginDate'] as const;

function text(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  return typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v);
}

function idOf(body: Record<string, unknown>): number {
  const id = body.fId ?? body.id;
  if (!isId(id)) throw new Refusal('参数错误');
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

async function rolesOf(db: DB, userIds: number[]): Promise<Map<number, { id: number; name: string }[]>> {
  const out = new Map<number, { id: number; name: string }[]>();
  if (!userIds.length) return out;
  const rows = await db
    .selectFrom('t_sys_user_role as ur')
    .innerJoin('t_sys_role as r', 'r.id', 'ur.roleId')
    .select(['ur.userId', 'r.id', 'r.name'])
    .where('ur.userId', 'in', userIds)
    .orderBy('r.id')
    .execute();
  for (const r of rows) {
    const list = out.get(r.userId) ?? [];
    list.push({ id: r.id, name: r.name });
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

async function withRoles(ctx: Services, rows: Record<string, unknown>[]): Promise<(Record<string, unknown> & { roles: number[]; roleids: { id: number; name: string }[]; roleNames: string })[]> {
  const [roles, names] = await Promise.all([rolesOf(ctx.db, rows.map((r) => Number(r.fId))), jurisdictionNames(ctx.db, rows)]);
  return rows.map((r) => {
    const held = roles.get(Number(r.fId)) ?? [];
    // roles / roleids as the legacy screens read them; fRoleIds and roleNames for the declared form and list.
    return {
      ...formatRow(r, ctx.timeZone),
      roles: held.map((x) => x.id),
      roleids: held,
      fRoleIds: held.map((x) => x.id).join(','),
      roleNames: held.map((x) => x.name).join('、'),
      ...jurisdictionOf(r, names),
    };
  });
}

export async function userPage(ctx: Services, body: Record<string, unknown>, tenants: boolean, caller: User) {
  const c = conditionOf(body, tenants);
  const p = await pageOf(ctx, filtered(ctx.db, c, caller).select([...PUBLIC_COLUMNS]) as Query, pageAt(body, 10, 999), [{ column: 'fId', asc: true }], { searching: !!c.keyword });
  const records = c.userType === TENANT ? await tenantRows(ctx, p.rows.map((r) => Number(r.fId))) : await withRoles(ctx, p.rows);
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


/**
 * The values of a user to store, checked by the spec's rules in the order the form checks them (spec
 * 002 §5), the role ids resolved; shared by the form's save and the Excel import.
 */
async function checkUser(db: DB, body: Record<string, unknown>, creating: boolean) {
  const adminRaw = body.fAdmin;
  if (adminRaw === undefined || adminRaw === null || adminRaw === '' || ![0, 1, 2].includes(Number(adminRaw))) throw new Refusal('权限角色不能为空');
  const name = text(body, 'fChineseName');
  if (!name) throw new Refusal('姓名不能为空');
  if (name.length > 50) throw new Refusal('姓名长度超出限制');
  const phone = text(body, 'fPhone');
  if (!phone) throw new Refusal('手机号码不能为空');
  if (!PHONE.test(phone)) throw new Refusal('手机号码格式错误');
  const roles = roleIds(body.roles ?? body.roleids ?? body.fRoleIds);
  if (!roles.length) throw new Refusal('所属角色不能为空');
  const password = typeof body.fPassword === 'string' ? body.fPassword : '';
  if (creating && !password) throw new Refusal('密码不能为空');
  if (password && password.length < 6) throw new Refusal('密码长度必须大于6位');
  // The form sends the confirmation; other callers may leave it out.
  if (password && body.passwordCheck !== undefined && body.passwordCheck !== password) throw new Refusal('密码不一致!');
  const pic = text(body, 'fPic');
  // The avatar is a picture field (schemas/user: "format": "picture"): an uploaded name or an http(s) address.
  if (pic && !isPicture(pic)) throw fieldRefusal(entity('user'), 'fPic', 'format');
  const known = await db.selectFrom('t_sys_role').select('id').where('id', 'in', roles).execute();
  if (known.length !== roles.length) throw new Refusal(SYSTEM_REFUSALS.roleMissing);
  const statusRaw = body.fStatus;
  const status = statusRaw === undefined || statusRaw === null || statusRaw === '' ? undefined : Number(statusRaw) === 0 ? 0 : 1;
  const expire = text(body, 'fExpireTime');
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
  if (clash && clash.fId !== id) throw new Refusal(SYSTEM_REFUSALS.phoneTaken, 409, { field: 'fPhone', rule: 'unique' });

  return ctx.db.transaction().execute(async (trx) => {
    let userId = id;
    if (id) {
      const existing = await trx.selectFrom('t_sys_user').select(['fId', 'fAdmin']).where('fId', '=', id).executeTakeFirst();
      if (!existing) throw new NotFound('用户不存在');
      if (id === caller && status === 0) throw new Refusal(SYSTEM_REFUSALS.selfDisable);
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

const EXPORT_COLUMNS = [
  { key: 'fChineseName', header: '姓名', width: 16 },
  { key: 'fPhone', header: '手机号码', width: 16 },
  { key: 'kind', header: '用户类型', width: 12 },
  { key: 'roleNames', header: '所属角色', width: 24 },
  { key: 'status', header: '状态', width: 10 },
  { key: 'fCreateTime', header: '创建时间', width: 20 },
  { key: 'fLastloginDate', header: '最后登录时间', width: 20 },
];
const KINDS: Record<number, string> = { 0: '普通用户', 1: '管理员', 2: '代理商' };

async function exportWorkbook(ctx: Services, body: Record<string, unknown>, caller: User): Promise<Buffer> {
  // The export is the search result, every page of it, among the users the caller may see.
  // System users only: user:export does not reach tenants, whatever the body says.
  const rows = await filtered(ctx.db, conditionOf(body, false), caller).select([...PUBLIC_COLUMNS]).orderBy('fId').limit(100_000).execute();
  const records = await withRoles(ctx, rows);
  // Phones leave masked unless the caller may see them in full (the resource's unmask code), as in the list.
  maskRows(entity('user'), records, caller);
  const book = await newWorkbook();
  const sheet = book.addWorksheet('用户');
  sheet.columns = EXPORT_COLUMNS.map((c) => ({ header: c.header, key: c.key, width: c.width }));
  sheet.getColumn('fPhone').numFmt = '@';
  sheet.getRow(1).font = { bold: true };
  for (const r of records) {
    sheet.addRow({
      fChineseName: r.fChineseName,
      fPhone: r.fPhone,
      kind: KINDS[Number(r.fAdmin)] ?? '',
      roleNames: r.roleids.map((x) => x.name).join(','),
      status: Number(r.fStatus) === 1 ? '启用' : '禁用',
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

export const list = (ctx: CallContext) => userPage(ctx, ctx.body, ctx.variant === TENANT_VARIANT, ctx.user);

/** The holographic profile (spec 001) shares getUserInfo and getUserData: variantBy names it `profile`. */
const PROFILE_VARIANT = 'profile';

export async function info(ctx: CallContext) {
  if (ctx.variant === PROFILE_VARIANT) return profileInfo(ctx, callOf(ctx));
  const row = await usersSeenBy(ctx.db, ctx.user).select([...PUBLIC_COLUMNS]).where('fId', '=', idOf(ctx.body)).executeTakeFirst();
  if (!row) throw new NotFound('用户不存在');
  const [user] = await withRoles(ctx, [row]);
  maskRows(entity('user'), [user], ctx.user);
  return user;
}

export async function devices(ctx: CallContext) {
  if (ctx.variant === PROFILE_VARIANT) return personDetail(ctx, callOf(ctx));
  const id = idOf(ctx.body);
  if (!(await usersSeenBy(ctx.db, ctx.user).select('fId').where('fId', '=', id).executeTakeFirst())) throw new NotFound('用户不存在');
  return userDevices(ctx, id, ctx.body);
}

/** The profile lookups log themselves and read the request of the call. */
const callOf = (ctx: CallContext) => ({ user: ctx.user, body: ctx.body, request: ctx.request! });

export const save = async (ctx: CallContext) => formatRow(await saveUser(ctx, ctx.body, ctx.user.fId), ctx.timeZone);

export async function remove(ctx: CallContext) {
  const id = idOf(ctx.body);
  if (id === ctx.user.fId) throw new Refusal(SYSTEM_REFUSALS.selfDelete);
  const gone = await ctx.db.transaction().execute(async (trx) => {
    // Devices the user owned stay, without an owner.
    await trx.updateTable('t_device').set({ fUserId: null }).where('fUserId', '=', id).execute();
    return trx.deleteFrom('t_sys_user').where('fId', '=', id).executeTakeFirst();
  });
  if (!Number(gone.numDeletedRows)) throw new NotFound('用户不存在');
  return null;
}

export async function resetPassword(ctx: CallContext) {
  const { body } = ctx;
  const id = idOf(body);
  const given = typeof body.fPassword === 'string' ? body.fPassword : typeof body.password === 'string' ? body.password : '';
  if (given && given.length < 6) throw new Refusal('密码长度必须大于6位');
  // A reset ends every session of the user, as a password change does.
  const done = await ctx.db
    .updateTable('t_sys_user')
    .set({ fPassword: await hashPassword(given || DEFAULT_PASSWORD), fTokensValidAfter: new Date() })
    .where('fId', '=', id)
    .executeTakeFirst();
  if (!Number(done.numUpdatedRows)) throw new NotFound('用户不存在');
  return new Answer(null, given ? '密码重置成功' : `密码已重置为${DEFAULT_PASSWORD}`);
}

export async function status(ctx: CallContext) {
  const { body } = ctx;
  const id = idOf(body);
  const value = Number(body.fStatus);
  if (![0, 1].includes(value)) throw new Refusal('状态不能为空');
  if (id === ctx.user.fId && value === 0) throw new Refusal(SYSTEM_REFUSALS.selfDisable);
  // The code was chosen by the stored row's type (ctx.variant); the update holds the row to that type, so
  // a row changed meanwhile is not reached with the other type's code. A tenant is one of the caller's scope.
  const type = Number(ctx.variant);
  if (type === TENANT && !(await usersSeenBy(ctx.db, ctx.user).select('fId').where('fId', '=', id).executeTakeFirst())) throw new NotFound('用户不存在');
  const done = await ctx.db.updateTable('t_sys_user').set({ fStatus: value }).where('fId', '=', id).where('fUserType', '=', type).executeTakeFirst();
  if (!Number(done.numUpdatedRows)) throw new NotFound('用户不存在');
  return new Answer(null, '用户状态修改成功');
}

// ---------------------------------------------------------------------------------------------------
// Template, import and export

/** The import's columns; the role column takes role aliases or names, several separated by commas. */
export const IMPORT_COLUMNS = [
  { key: 'fChineseName', header: '姓名', width: 14 },
  { key: 'fPhone', header: '手机号码', width: 16 },
  { key: 'fAdmin', header: '用户类型(普通用户/管理员/代理商)', width: 26 },
  { key: 'roles', header: '所属角色(角色别名，多个用逗号分隔)', width: 30 },
  { key: 'fPassword', header: '密码(至少6位)', width: 16 },
] as const;

export const USER_IMPORT_MESSAGES = { ...SHEET_MESSAGES, duplicate: '手机号码在文件中重复', taken: SYSTEM_REFUSALS.phoneTaken };

export const templateWorkbook = () =>
  templateBook('用户', IMPORT_COLUMNS, { fChineseName: '张三', fPhone: '13800138000', fAdmin: '普通用户', roles: 'user', fPassword: 'Change@123' }, ['fPhone', 'fPassword']);

/**
 * Every row checked with the form's rules (and a phone used once, in the file and in the database);
 * one bad row refuses the file naming every bad row, else all users and their roles go in one transaction.
 */
export async function importUsers(ctx: Services, file: Buffer): Promise<{ imported: number }> {
  const roles = await ctx.db.selectFrom('t_sys_role').select(['id', 'name', 'alias']).execute();
  const kinds = Object.fromEntries(Object.entries(KINDS).map(([k, v]) => [v, k]));
  const seen = new Set<string>();
  const result = await checkRows(await openSheet(file), IMPORT_COLUMNS, async (raw) => {
    const picked = raw.roles.split(/[,，、;；\s]+/).filter(Boolean).map((r) => roles.find((x) => x.alias === r || x.name === r)?.id ?? -1);
    if (picked.includes(-1)) throw new Refusal(SYSTEM_REFUSALS.roleMissing);
    const checked = await checkUser(ctx.db, { ...raw, fAdmin: kinds[raw.fAdmin] ?? raw.fAdmin, roles: picked }, true);
    if (seen.has(checked.phone)) throw new Refusal(USER_IMPORT_MESSAGES.duplicate);
    seen.add(checked.phone);
    if (await ctx.db.selectFrom('t_sys_user').select('fId').where('fPhone', '=', checked.phone).executeTakeFirst()) throw new Refusal(USER_IMPORT_MESSAGES.taken);
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
    throw new Refusal('参数错误');
  }
}

const sendXlsx = (reply: FastifyReply, data: Buffer, name: string, fallback: string) =>
  reply.header('content-disposition', attachment(name, fallback)).header('access-control-expose-headers', 'content-disposition').type(XLSX_TYPE).send(data);

export function registerUserFileRoutes(app: FastifyInstance, ctx: RouteContext) {
  void app.register(async (scope) => {
    // The legacy export is a browser form post: its fields are the search (`json`) and the session's token.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, text, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(text))));
    });
    const fileRoute = (path: string, code: string, make: (body: Record<string, unknown>, user: User) => Promise<Buffer>, name: string, fallback: string) => {
      describeRoute(ctx.catalog, { path, methods: ['GET', 'POST'], codes: [code], public: false, tag: 't-sys-user', produces: XLSX_TYPE, body: { type: 'object', properties: { json: { type: 'string', description: 'the search as JSON (a form post)' }, token: { type: 'string', description: 'the session token (a form cannot send a header)' } } } });
      scope.route({
        method: ['GET', 'POST'],
        url: path,
        handler: async (request, reply) => {
          const form = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
          // A form cannot send a header: its token field stands for it.
          if (!request.headers.authorization && typeof form.token === 'string' && form.token) request.headers.authorization = form.token;
          const user = await authenticate(ctx, request, reply);
          if (!user.permissions.has(code)) throw new Forbidden();
          const { token: _token, ...search } = form;
          return sendXlsx(reply, await make(searchOf(search), user), name, fallback);
        },
      });
    };
    fileRoute(USER_PATHS.export, USER_CODES.export, (body, user) => exportWorkbook(ctx, body, user), '用户数据.xlsx', 'users.xlsx');
    // Spec 002 §6: the template download and the import are the add button's (user:add).
    fileRoute(USER_PATHS.template, USER_CODES.add, () => templateWorkbook(), '用户导入模板.xlsx', 'users-template.xlsx');
  });

  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: SHEET_LIMIT_BYTES, files: 1, fields: 10 } });
    registerCall(scope, ctx, {
      path: USER_PATHS.import,
      data: S.imported(),
      upload: { field: 'file', accept: 'xlsx, xls', maxBytes: SHEET_LIMIT_BYTES },
      permission: USER_CODES.add,
      write: true,
      logname: { key: 'user.import', 'zh-CN': '导入用户', 'zh-TW': '匯入使用者', 'en-US': 'Import users' },
      handler: async ({ user, request }) => {
        const { data } = await receiveSheet(request);
        const result = await importUsers(ctx, data);
        await importFinished(ctx, user!, result);
        return new Answer(result, `导入成功，共 ${result.imported} 条`);
      },
    });
  });
}

/** A device of a user's page on the user screen (userDevices); its home and room are not known there. */
const USER_DEVICE = S.object({
  fId: { type: 'integer' }, fNumber: S.string(), fName: S.string(), fStatus: { type: ['integer', 'null'] }, tOnline: { type: ['integer', 'null'] },
  productName: S.string(), productDeviceType: { type: ['integer', 'null'] }, homeName: { type: 'null' }, roomName: { type: 'null' }, roomType: { type: 'null' },
});
answers({ anyOf: [S.pageOf(USER_DEVICE), PERSON_DETAIL] }, devices);
answers(S.none(), remove);
answers(S.none(), resetPassword);
answers(S.none(), status);
/** A saved user as it is answered: the public columns (PUBLIC_COLUMNS), without roles or password. */
answers(
  S.object({
    fId: { type: 'integer' }, fChineseName: S.string(), fPhone: S.string(), fAdmin: { type: ['integer', 'null'] }, fUserType: { type: ['integer', 'null'] },
    fStatus: { type: ['integer', 'null'] }, fPic: S.string(), fExpireTime: S.string(), fCreateTime: S.string(), fLastloginDate: S.string(),
  }),
  save,
);

/** A user by fId (or id); the handlers refuse anything but a positive integer with 参数错误. */
const USER_KEY = { fId: S.id('the user'), id: S.id('the same, as older callers name it') };
// A user's devices by fId, paged; or (the holographic profile) the person by userId, phone, a phone's handle (node) or idcard.
takes(INTEL_BODY, devices);
takes(S.object(USER_KEY), remove);
takes(S.object({ ...USER_KEY, fPassword: { type: ['string', 'null'], pattern: '^(|.{6,})$', description: `at least 6 characters; empty or absent: ${DEFAULT_PASSWORD}`, 'x-messages': { pattern: '密码长度必须大于6位' } }, password: { type: ['string', 'null'], pattern: '^(|.{6,})$', description: 'the same, as older callers name it', 'x-messages': { pattern: '密码长度必须大于6位' } } }), resetPassword);
takes(
  S.object(
    { ...USER_KEY, fStatus: { enum: [0, 1, '0', '1'], description: '1 enabled, 0 disabled', 'x-message': '状态不能为空' }, fUserType: S.number('not read: the stored row\'s type decides the code'), userType: S.number('not read, as fUserType') },
    ['fStatus'],
  ),
  status,
);

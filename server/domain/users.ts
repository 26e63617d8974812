/**
 * System users (spec 002 screen 4): list, save, remove, password reset, status, detail, export and the
 * user's devices. Hand-written rather than a resource because t_sys_user holds the password hash: every
 * answer here is built from an explicit column list that never names f_password.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import ExcelJS from 'exceljs';
import { Answer, authenticate, registerCall, type RouteContext } from '../http/route';
import { S, describeRoute } from '../http/catalog';
import { Forbidden, NotFound, Refusal } from '../http/envelope';
import { isId } from '../http/guard';
import { hashPassword } from '../auth/passwords';
import { formatRow } from '../crud/format';
import type { DB } from '../db';
import { pageNumber, containing } from '../crud/query';
import { HOLOGRAM_CODE, isProfileLookup, personDetail, profileInfo } from './intel';

export const USER_PATHS = {
  list: '/system/t-sys-user/pageList',
  save: '/system/t-sys-user/addOrUpdateSysUser',
  remove: '/system/t-sys-user/removeSysUser',
  resetPwd: '/system/t-sys-user/resetUserPwd',
  status: '/system/t-sys-user/statusUser',
  info: '/system/t-sys-user/getUserInfo',
  export: '/system/t-sys-user/exportTable',
  devices: '/system/t-sys-user/getUserData',
};

export const USER_CODES = { list: 'user:list', add: 'user:add', edit: 'user:edit', export: 'user:export' };

/**
 * Tenants (spec 001 §2.7) are the users of fUserType 2 and share the list and status calls with the
 * system users; condition.userType (body fUserType on a status change) decides which of the two
 * permissions a call needs, and the handler checks the target row really is of that type.
 */
export const TENANT_CODES = { list: 'tenant:list', status: 'tenant:status' };
const TENANT = 2;

/** The user type a call is about: 2 (tenant) only when the body says so, the system users otherwise. */
function userTypeOf(body: Record<string, unknown>): number {
  const c = (body.condition && typeof body.condition === 'object' ? body.condition : body) as Record<string, unknown>;
  return Number(c.userType ?? c.fUserType ?? body.fUserType) === TENANT ? TENANT : 1;
}

/** 4401**********1234: lists and the tenant drawer never show a whole ID number. */
export function maskIdcard(id: unknown): string | null {
  if (typeof id !== 'string' || !id) return null;
  return id.length <= 8 ? id.slice(0, 2) + '*'.repeat(Math.max(id.length - 2, 0)) : id.slice(0, 4) + '*'.repeat(id.length - 8) + id.slice(-4);
}

/** What /resetUserPwd sets when the body names no password; the user is expected to change it. */
export const DEFAULT_PASSWORD = '123456';

const PHONE = /^1[3-9]\d{9}$/;

/** The only columns of t_sys_user an answer may carry. */
const PUBLIC_COLUMNS = ['fId', 'fChineseName', 'fPhone', 'fAdmin', 'fUserType', 'fStatus', 'fPic', 'fExpireTime', 'fCreateTime', 'fLastloginDate'] as const;

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

function conditionOf(body: Record<string, unknown>): Condition {
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
    userType: userTypeOf(body),
  };
}

function filtered(db: DB, c: Condition) {
  let q = db.selectFrom('t_sys_user').where('fUserType', '=', c.userType);
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

async function withRoles(ctx: RouteContext, rows: Record<string, unknown>[]): Promise<(Record<string, unknown> & { roles: number[]; roleids: { id: number; name: string }[] })[]> {
  const roles = await rolesOf(ctx.db, rows.map((r) => Number(r.fId)));
  return rows.map((r) => {
    const held = roles.get(Number(r.fId)) ?? [];
    return { ...formatRow(r, ctx.timeZone), roles: held.map((x) => x.id), roleids: held };
  });
}

export async function userPage(ctx: RouteContext, body: Record<string, unknown>) {
  const size = Math.min(Math.max(Number(body.size ?? body.pageSize) || 10, 1), 999);
  const current = pageNumber(body.current);
  const c = conditionOf(body);
  const { total } = (await filtered(ctx.db, c).select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()) as { total: number };
  const rows = await filtered(ctx.db, c)
    .select([...PUBLIC_COLUMNS])
    .orderBy('fId')
    .limit(size)
    .offset((current - 1) * size)
    .execute();
  const count = Number(total);
  const records = c.userType === TENANT ? await tenantRows(ctx, rows.map((r) => Number(r.fId))) : await withRoles(ctx, rows);
  return { records, total: count, current, size, pages: Math.ceil(count / size) };
}

/**
 * The tenant row (spec 001 §3 "tenant user"): the public columns, gender, e-mail, work unit and address,
 * the ID number masked, and the current lease (a renting one, the latest first) with its house and room.
 */
async function tenantRows(ctx: RouteContext, ids: number[]) {
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
  return people.map((p) => ({ ...formatRow({ ...p, fIdcard: maskIdcard(p.fIdcard) } as Record<string, unknown>, ctx.timeZone), lease: leaseOf.get(Number(p.fId)) ?? null }));
}

async function saveUser(ctx: RouteContext, body: Record<string, unknown>, caller: number) {
  const id = Number(body.fId ?? body.id) || 0;
  const adminRaw = body.fAdmin;
  if (adminRaw === undefined || adminRaw === null || adminRaw === '' || ![0, 1, 2].includes(Number(adminRaw))) throw new Refusal('权限角色不能为空');
  const name = text(body, 'fChineseName');
  if (!name) throw new Refusal('姓名不能为空');
  if (name.length > 50) throw new Refusal('姓名长度超出限制');
  const phone = text(body, 'fPhone');
  if (!phone) throw new Refusal('手机号码不能为空');
  if (!PHONE.test(phone)) throw new Refusal('手机号码格式错误');
  const roles = roleIds(body.roles ?? body.roleids);
  if (!roles.length) throw new Refusal('所属角色不能为空');
  const password = typeof body.fPassword === 'string' ? body.fPassword : '';
  if (!id && !password) throw new Refusal('密码不能为空');
  if (password && password.length < 6) throw new Refusal('密码长度必须大于6位');
  // The form sends the confirmation; other callers may leave it out.
  if (password && body.passwordCheck !== undefined && body.passwordCheck !== password) throw new Refusal('密码不一致!');

  const known = await ctx.db.selectFrom('t_sys_role').select('id').where('id', 'in', roles).execute();
  if (known.length !== roles.length) throw new Refusal('所属角色不存在');
  const clash = await ctx.db.selectFrom('t_sys_user').select('fId').where('fPhone', '=', phone).executeTakeFirst();
  if (clash && clash.fId !== id) throw new Refusal('该手机号码已存在', 409);
  const statusRaw = body.fStatus;
  const status = statusRaw === undefined || statusRaw === null || statusRaw === '' ? undefined : Number(statusRaw) === 0 ? 0 : 1;
  const expire = text(body, 'fExpireTime');
  const values: Record<string, unknown> = {
    fChineseName: name,
    fPhone: phone,
    fAdmin: Number(adminRaw),
    fUserType: [1, 2].includes(Number(body.fUserType)) ? Number(body.fUserType) : 1,
    fPic: text(body, 'fPic') || null,
    fExpireTime: expire ? new Date(expire.replace(' ', 'T') + (/[zZ]|[+-]\d\d:?\d\d$/.test(expire) ? '' : '+08:00')) : null,
  };
  if (values.fExpireTime && Number.isNaN((values.fExpireTime as Date).getTime())) values.fExpireTime = null;

  return ctx.db.transaction().execute(async (trx) => {
    let userId = id;
    if (id) {
      const existing = await trx.selectFrom('t_sys_user').select(['fId', 'fAdmin']).where('fId', '=', id).executeTakeFirst();
      if (!existing) throw new NotFound('用户不存在');
      if (id === caller && status === 0) throw new Refusal('不能禁用当前登录用户');
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
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function attachment(fileName: string, fallback: string): string {
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

async function exportWorkbook(ctx: RouteContext, body: Record<string, unknown>): Promise<Buffer> {
  // The export is the search result, every page of it.
  // System users only: user:export does not reach tenants, whatever the body says.
  const rows = await filtered(ctx.db, { ...conditionOf(body), userType: 1 }).select([...PUBLIC_COLUMNS]).orderBy('fId').limit(100_000).execute();
  const records = await withRoles(ctx, rows);
  const book = new ExcelJS.Workbook();
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
async function userDevices(ctx: RouteContext, userId: number, body: Record<string, unknown>) {
  const size = Math.min(Math.max(Number(body.size ?? body.pageSize) || 10, 1), 999);
  const current = pageNumber(body.current);
  const base = () =>
    ctx.db
      .selectFrom('t_device as d')
      .leftJoin('t_product as p', 'p.fId', 'd.fProductId')
      .where((eb) => eb.or([eb('d.fUserId', '=', userId), eb('d.fId', 'in', eb.selectFrom('t_user_device').select('fDeviceId').where('fUserId', '=', userId))]));
  const { total } = (await base().select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()) as { total: number };
  const rows = await base()
    .select(['d.fId', 'd.fNumber', 'd.fName', 'd.fStatus', 'd.tOnline', 'p.fName as productName', 'p.fDeviceType as productDeviceType'])
    .orderBy('d.fId')
    .limit(size)
    .offset((current - 1) * size)
    .execute();
  const records = rows.map((r) => ({ ...r, homeName: null, roomName: null, roomType: null }));
  return { records, total: Number(total), current, size, pages: Math.ceil(Number(total) / size) };
}

export function registerUserRoutes(app: FastifyInstance, ctx: RouteContext) {
  registerCall(app, ctx, {
    path: USER_PATHS.list,
    summary: { 'zh-CN': '用户列表', 'zh-TW': '用戶列表', 'en-US': 'Users (or tenants) list' },
    body: S.page({ keyword: S.keyword('name or phone'), status: S.number('1 enabled, 0 disabled'), userType: S.number('1 staff, 2 tenants') }),
    permission: (body) => (userTypeOf(body) === TENANT ? TENANT_CODES.list : USER_CODES.list),
    codes: [USER_CODES.list, TENANT_CODES.list],
    handler: async ({ body }) => userPage(ctx, body),
  });

  registerCall(app, ctx, {
    path: USER_PATHS.save,
    body: S.object({ fId: S.id('absent: add'), fChineseName: S.string(), fPhone: S.string(), fPassword: S.string(undefined, 'required on add; blank on edit keeps it'), passwordCheck: S.string(), fAdmin: S.number('0 user, 1 administrator, 2 agent'), fUserType: S.number(), roles: S.ids('role ids'), fStatus: S.number(), fExpireTime: S.string(), fPic: S.string(), fAreaIds: S.any(), department: S.any(), idcard: S.string() }),
    permission: (body) => (Number(body.fId ?? body.id) ? USER_CODES.edit : USER_CODES.add),
    codes: [USER_CODES.add, USER_CODES.edit],
    write: true,
    logname: { key: 'user.save', 'zh-CN': '保存用户', 'zh-TW': '儲存使用者', 'en-US': 'Save user' },
    handler: async ({ body, user }) => formatRow(await saveUser(ctx, body, user!.fId), ctx.timeZone),
  });

  registerCall(app, ctx, {
    path: USER_PATHS.remove,
    body: S.object({ fId: S.id(), id: S.id(), ids: S.ids() }),
    permission: USER_CODES.edit,
    write: true,
    logname: { key: 'user.delete', 'zh-CN': '删除用户', 'zh-TW': '刪除使用者', 'en-US': 'Delete user' },
    handler: async ({ body, user }) => {
      const id = idOf(body);
      if (id === user!.fId) throw new Refusal('不能删除当前登录用户');
      const gone = await ctx.db.transaction().execute(async (trx) => {
        // Devices the user owned stay, without an owner.
        await trx.updateTable('t_device').set({ fUserId: null }).where('fUserId', '=', id).execute();
        return trx.deleteFrom('t_sys_user').where('fId', '=', id).executeTakeFirst();
      });
      if (!Number(gone.numDeletedRows)) throw new NotFound('用户不存在');
      return null;
    },
  });

  registerCall(app, ctx, {
    path: USER_PATHS.resetPwd,
    body: S.object({ fId: S.id(), id: S.id() }),
    permission: USER_CODES.edit,
    write: true,
    logname: { key: 'user.resetPassword', 'zh-CN': '重置密码', 'zh-TW': '重設密碼', 'en-US': 'Reset password' },
    handler: async ({ body }) => {
      const id = idOf(body);
      const given = typeof body.fPassword === 'string' ? body.fPassword : typeof body.password === 'string' ? body.password : '';
      if (given && given.length < 6) throw new Refusal('密码长度必须大于6位');
      const done = await ctx.db
        .updateTable('t_sys_user')
        .set({ fPassword: await hashPassword(given || DEFAULT_PASSWORD), fTokensValidAfter: new Date() })
        .where('fId', '=', id)
        .executeTakeFirst();
      if (!Number(done.numUpdatedRows)) throw new NotFound('用户不存在');
      return new Answer(null, given ? '密码重置成功' : `密码已重置为${DEFAULT_PASSWORD}`);
    },
  });

  registerCall(app, ctx, {
    path: USER_PATHS.status,
    body: S.object({ fId: S.id(), fStatus: S.number('1 enabled, 0 disabled'), userType: S.number() }),
    permission: (body) => (userTypeOf(body) === TENANT ? TENANT_CODES.status : USER_CODES.edit),
    codes: [USER_CODES.edit, TENANT_CODES.status],
    write: true,
    logname: { key: 'user.status', 'zh-CN': '用户状态', 'zh-TW': '使用者狀態', 'en-US': 'Change user status' },
    handler: async ({ body, user }) => {
      const id = idOf(body);
      const status = Number(body.fStatus);
      if (![0, 1].includes(status)) throw new Refusal('状态不能为空');
      if (id === user!.fId && status === 0) throw new Refusal('不能禁用当前登录用户');
      // The code was chosen by the type the body names: the row must be of that type (a tenant:status
      // holder cannot disable a system user by calling it a tenant, nor the other way round).
      const done = await ctx.db.updateTable('t_sys_user').set({ fStatus: status }).where('fId', '=', id).where('fUserType', '=', userTypeOf(body)).executeTakeFirst();
      if (!Number(done.numUpdatedRows)) throw new NotFound('用户不存在');
      return new Answer(null, '用户状态修改成功');
    },
  });

  registerCall(app, ctx, {
    path: USER_PATHS.info,
    summary: { 'zh-CN': '用户详情', 'zh-TW': '用戶詳情', 'en-US': 'User details (or a profile lookup)' },
    body: S.object({ id: S.id(), fId: S.id(), userId: S.id(), phone: S.string(20, 'profile lookup'), idcard: S.string(18, 'profile lookup') }),
    // The holographic profile (spec 001) shares this path: it asks by userId, phone or idcard.
    permission: (body) => (isProfileLookup(body) ? HOLOGRAM_CODE : USER_CODES.list),
    codes: [USER_CODES.list, HOLOGRAM_CODE],
    handler: async (call) => {
      if (isProfileLookup(call.body)) return profileInfo(ctx, call);
      const { body } = call;
      const id = idOf(body);
      const row = await ctx.db.selectFrom('t_sys_user').select([...PUBLIC_COLUMNS]).where('fId', '=', id).executeTakeFirst();
      if (!row) throw new NotFound('用户不存在');
      return (await withRoles(ctx, [row]))[0];
    },
  });

  registerCall(app, ctx, {
    path: USER_PATHS.devices,
    summary: { 'zh-CN': '用户资产', 'zh-TW': '用戶資產', 'en-US': 'Devices of a user (or a profile lookup)' },
    body: S.object({ fId: S.id(), id: S.id(), userId: S.id(), condition: S.any(), current: S.number(), size: S.number() }),
    permission: (body) => (isProfileLookup(body) ? HOLOGRAM_CODE : USER_CODES.list),
    codes: [USER_CODES.list, HOLOGRAM_CODE],
    handler: async (call) => {
      if (isProfileLookup(call.body)) return personDetail(ctx, call);
      const { body } = call;
      const condition = (body.condition && typeof body.condition === 'object' ? body.condition : {}) as Record<string, unknown>;
      return userDevices(ctx, idOf({ fId: body.fId ?? body.id ?? body.userId ?? condition.userId ?? condition.fId }), body);
    },
  });

  const fileRoute = (path: string, code: string, make: (body: Record<string, unknown>) => Promise<Buffer>, name: string, fallback: string) => {
    describeRoute(ctx.catalog, { path, methods: ['POST'], codes: [code], public: false, tag: 't-sys-user', produces: XLSX_TYPE, body: { type: 'object', properties: { json: { type: 'string', description: 'the search as JSON (a form post)' } } } });
    app.route({
      method: 'POST',
      url: path,
      handler: async (request, reply: FastifyReply) => {
        const user = await authenticate(ctx, request, reply);
        if (!user.permissions.has(code)) throw new Forbidden();
        const raw = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
        // A form post carries the search as one json field.
        let body = raw;
        if (typeof raw.json === 'string') {
          try {
            body = JSON.parse(raw.json) as Record<string, unknown>;
          } catch {
            body = {};
          }
        }
        const file = await make(body);
        return reply.header('content-disposition', attachment(name, fallback)).header('access-control-expose-headers', 'content-disposition').type(XLSX_TYPE).send(file);
      },
    });
  };
  fileRoute(USER_PATHS.export, USER_CODES.export, (body) => exportWorkbook(ctx, body), '用户数据.xlsx', 'users.xlsx');
}

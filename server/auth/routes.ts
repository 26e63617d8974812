/** Login and session calls: /login, /get_info, /logout, /check-password, /register, password change. */
import type { FastifyInstance } from 'fastify';
import { Answer, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { Refusal } from '../http/envelope';
import { SESSION_REFUSALS } from '../../adapters/systemRefusals';
import { S } from '../http/catalog';
import { checkPassword, hashPassword } from './passwords';
import { loadUser, menusFor, publicUser } from './users';
import type { User } from '../crud/types';

const PHONE = /^1[345789]\d{9}$/;
export const LOGINWX_MESSAGES = { openId: 'openId不能为空', unavailable: '未开通微信登录，请使用手机号和密码登录' };
/** Self-registered users get this one fixed role. */
export const DEFAULT_ROLE_ALIAS = 'user';

function text(body: Record<string, unknown>, key: string): string {
  const v = body[key];
  return typeof v === 'string' ? v.trim() : v === undefined || v === null ? '' : String(v);
}

/** The password rules shared by registration and password change (spec 002 §5). */
function checkNewPassword(password: string, confirm: string | undefined) {
  if (!password) throw new Refusal('密码不能为空');
  if (password.length < 6) throw new Refusal('密码长度必须大于6位');
  if (confirm !== undefined) {
    if (!confirm) throw new Refusal('密码确认不能为空');
    if (confirm !== password) throw new Refusal('密码不一致!');
  }
}

const INT = { type: ['integer', 'null'] };
/** The signed-in user as publicUser shows it. */
const PUBLIC_USER = S.object({ fId: { type: 'integer' }, userId: { type: 'integer' }, fChineseName: S.string(), name: S.string(), fPhone: S.string(), userName: S.string(), phone: S.string(), fAdmin: INT, fUserType: INT });
/** What a session carries: the user, the menus it may open (a tree), its permission codes and the server's time zone. */
const SESSION = S.object({ user: PUBLIC_USER, menus: S.tree(S.entity('menu')), permissions: S.array({ type: 'string' }), timeZone: { type: 'string' } }, ['user', 'menus', 'permissions', 'timeZone']);

/** Login attempts a minute from one address for one account. */
const LOGIN_RATE_LIMIT = Number(process.env.LOGIN_RATE_LIMIT ?? 20);
/** Login attempts a minute for one account from all addresses together (an attacker rotating addresses). */
const LOGIN_ACCOUNT_RATE_LIMIT = Number(process.env.LOGIN_ACCOUNT_RATE_LIMIT ?? 3 * LOGIN_RATE_LIMIT);

export function registerSessionRoutes(app: FastifyInstance, ctx: RouteContext) {
  // The server's time zone: every wall-clock time the console shows or sends ('YYYY-MM-DD HH:mm:ss') is in it.
  const session = async (user: User) => ({ user: publicUser(user), menus: await menusFor(ctx.db, user), permissions: [...user.permissions].sort(), timeZone: ctx.timeZone });

  registerCall(app, ctx, {
    path: '/login',
    data: { allOf: [SESSION, S.object({ token: { type: 'string' } }, ['token'])] },
    body: S.object({ userName: S.string(undefined, 'the phone number'), password: S.string() }),
    permission: null,
    public: true,
    write: true,
    perMinute: LOGIN_RATE_LIMIT,
    perAccountPerMinute: LOGIN_ACCOUNT_RATE_LIMIT,
    logname: { key: 'session.login', 'zh-CN': '登录', 'zh-TW': '登入', 'en-US': 'Sign in' },
    handler: async ({ body, request }) => {
      const userName = text(body, 'userName');
      const password = typeof body.password === 'string' ? body.password : '';
      if (!userName) throw new Refusal('账号不能为空');
      if (!password) throw new Refusal('密码不能为空');
      const row = await ctx.db.selectFrom('t_sys_user').select(['fId', 'fPassword', 'fStatus']).where('fPhone', '=', userName).executeTakeFirst();
      // One message for an unknown account and a wrong password, so accounts cannot be probed.
      if (!row || !(await checkPassword(row.fPassword, password))) throw new Refusal(SESSION_REFUSALS.wrongPassword);
      if (row.fStatus !== 1) throw new Refusal(SESSION_REFUSALS.disabled);
      const user = await loadUser(ctx.db, row.fId);
      if (!user) throw new Refusal(SESSION_REFUSALS.expired);
      await ctx.db.updateTable('t_sys_user').set({ fLastloginDate: new Date() }).where('fId', '=', user.fId).execute();
      // The operation log records a sign-in under the account that signed in, shown by its current name.
      request.user = user;
      return new Answer({ token: await ctx.tokens.issue(user.fId), ...(await session(user)) }, '登录成功');
    },
  });

  // The legacy app signs in with a messaging-app (WeChat) openId. This installation holds no messaging-app
  // credentials and no openId bindings, so the call answers the contract's refusal and the app falls back
  // to the phone-and-password login.
  registerCall(app, ctx, {
    path: '/app/sys-user/loginwx',
    data: { type: 'null', description: 'never answered: sign-in with WeChat is refused, the phone-and-password login stands' },
    permission: null,
    tag: 'session',
    public: true,
    write: true,
    perMinute: LOGIN_RATE_LIMIT,
    logname: { key: 'session.loginwx', 'zh-CN': '微信登录', 'zh-TW': '微信登入', 'en-US': 'Sign in with WeChat' },
    body: S.object(
      { openId: { type: 'string', minLength: 1, maxLength: 64, 'x-message': LOGINWX_MESSAGES.openId }, nickName: S.string(100), avatarUrl: S.string(500), gender: S.number(), city: S.string(100), province: S.string(100), country: S.string(100) },
      ['openId'],
    ),
    handler: async () => {
      throw new Refusal(LOGINWX_MESSAGES.unavailable);
    },
  });

  registerCall(app, ctx, { path: '/get_info', methods: ['GET', 'POST'], permission: null, body: S.object({}), data: SESSION, handler: async ({ user }) => session(user!) });

  registerCall(app, ctx, {
    path: '/logout',
    data: S.none(),
    body: S.nothing(),
    permission: null,
    write: true,
    logname: { key: 'session.logout', 'zh-CN': '退出登录', 'zh-TW': '登出', 'en-US': 'Sign out' },
    handler: async ({ request }) => {
      const token = request.token!;
      await ctx.db.deleteFrom('t_sys_token_revoked').where('fExpiresAt', '<', new Date()).execute();
      await ctx.db
        .insertInto('t_sys_token_revoked')
        .values({ jti: token.jti, fExpiresAt: new Date(token.expiresAt * 1000) })
        .onConflict((oc) => oc.column('jti').doNothing())
        .execute();
      return new Answer(null, '退出成功');
    },
  });

  registerCall(app, ctx, {
    path: '/check-password',
    data: { const: true },
    body: S.object({ password: S.string() }),
    permission: null,
    handler: async ({ user, body }) => {
      const password = typeof body.password === 'string' ? body.password : '';
      if (!password) throw new Refusal('登录密码不能为空');
      const row = await ctx.db.selectFrom('t_sys_user').select('fPassword').where('fId', '=', user!.fId).executeTakeFirstOrThrow();
      if (!(await checkPassword(row.fPassword, password))) throw new Refusal('密码校验失败');
      // Opens sensitive device commands for a few minutes (server/devices/commands.ts).
      await ctx.db.updateTable('t_sys_user').set({ fPasswordCheckedAt: new Date() }).where('fId', '=', user!.fId).execute();
      return new Answer(true, '密码校验成功');
    },
  });

  registerCall(app, ctx, {
    path: '/register',
    data: S.object({ fId: { type: 'integer' }, fChineseName: S.string(), fPhone: S.string() }),
    body: S.object({ fChineseName: S.string(), fPhone: S.string(), fPassword: S.string(), passwordCheck: S.string(), fUserType: S.number(), fAdmin: S.number(), roles: S.any() }),
    permission: null,
    public: true,
    write: true,
    logname: { key: 'session.register', 'zh-CN': '用户注册', 'zh-TW': '使用者註冊', 'en-US': 'Register' },
    handler: async ({ body }) => {
      const name = text(body, 'fChineseName');
      const phone = text(body, 'fPhone');
      const password = typeof body.fPassword === 'string' ? body.fPassword : '';
      if (!name) throw new Refusal('姓名不能为空');
      if (name.length > 50) throw new Refusal('姓名长度超出限制');
      if (!phone) throw new Refusal('手机号码不能为空');
      if (!PHONE.test(phone)) throw new Refusal('手机号码格式错误');
      checkNewPassword(password, typeof body.passwordCheck === 'string' ? body.passwordCheck : '');
      if (await ctx.db.selectFrom('t_sys_user').select('fId').where('fPhone', '=', phone).executeTakeFirst()) throw new Refusal(SESSION_REFUSALS.phoneRegistered, 409);
      const created = await ctx.db.transaction().execute(async (trx) => {
        const user = await trx
          .insertInto('t_sys_user')
          .values({ fChineseName: name, fPhone: phone, fPassword: await hashPassword(password), fAdmin: 0, fUserType: 1, fStatus: 1 })
          .returning(['fId', 'fChineseName', 'fPhone'])
          .executeTakeFirstOrThrow();
        const role = await trx.selectFrom('t_sys_role').select('id').where('alias', '=', DEFAULT_ROLE_ALIAS).executeTakeFirst();
        if (role) await trx.insertInto('t_sys_user_role').values({ userId: user.fId, roleId: role.id }).execute();
        return user;
      });
      return new Answer(created, '用户注册成功');
    },
  });

  registerCall(app, ctx, {
    path: '/system/t-sys-user/updateUserPwd',
    data: S.none(),
    body: S.object({ fPassword: S.string(), passwordCheck: S.string() }),
    permission: null,
    write: true,
    logname: { key: 'session.password', 'zh-CN': '修改密码', 'zh-TW': '修改密碼', 'en-US': 'Change password' },
    handler: async ({ user, body }) => {
      const password = typeof body.fPassword === 'string' ? body.fPassword : '';
      checkNewPassword(password, typeof body.passwordCheck === 'string' ? body.passwordCheck : undefined);
      // Every session of the user ends with the old password, this one included.
      await ctx.db.updateTable('t_sys_user').set({ fPassword: await hashPassword(password), fTokensValidAfter: new Date() }).where('fId', '=', user!.fId).execute();
      return new Answer(null, '密码修改成功');
    },
  });
}

/** Login and session calls: /login, /get_info, /logout, /check-password, /register, password change. */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { Answer, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { Refusal, reason, refuse } from '../http/envelope';
import { fieldReason } from '../crud/validate';
import { entities } from '../generated/entities';
import { bodyText } from '../http/guard';
import { checkPassword, hashPassword } from './passwords';
import { loadUser, menusFor, publicUser } from './users';
import type { User } from '../crud/types';

const PHONE = /^1[345789]\d{9}$/;
/** Self-registered users get this one fixed role. */
export const DEFAULT_ROLE_ALIAS = 'user';

/** The password rules shared by registration and password change (spec 002 §5). */
function checkNewPassword(password: string, confirm: string | undefined) {
  if (!password) throw refuse('password.required');
  if (password.length < 6) throw refuse('password.tooShort');
  if (confirm !== undefined) {
    if (!confirm) throw refuse('password.confirmRequired');
    if (confirm !== password) throw refuse('password.mismatch');
  }
}

/** Login attempts a minute from one address for one account. */
const LOGIN_RATE_LIMIT = Number(process.env.LOGIN_RATE_LIMIT ?? 20);
/** Login attempts a minute for one account from all addresses together (an attacker rotating addresses). */
const LOGIN_ACCOUNT_RATE_LIMIT = Number(process.env.LOGIN_ACCOUNT_RATE_LIMIT ?? 3 * LOGIN_RATE_LIMIT);

export function registerSessionRoutes(app: FastifyInstance, ctx: RouteContext) {
  // The server's time zone: every wall-clock time the console shows or sends ('YYYY-MM-DD HH:mm:ss') is in it.
  const session = async (user: User) => ({ user: publicUser(user), menus: await menusFor(ctx.db, user), permissions: [...user.permissions].sort(), timeZone: ctx.timeZone });

  registerCall(app, ctx, {
    call: 'session.login',
    permission: null,
    write: true,
    perMinute: LOGIN_RATE_LIMIT,
    perAccountPerMinute: LOGIN_ACCOUNT_RATE_LIMIT,
    handler: async ({ body, request }) => {
      const userName = bodyText(body, 'userName');
      const password = typeof body.password === 'string' ? body.password : '';
      if (!userName) throw refuse('session.accountRequired');
      if (!password) throw refuse('password.required');
      const row = await ctx.db.selectFrom('t_sys_user').select(['fId', 'fPassword', 'fStatus']).where('fPhone', '=', userName).executeTakeFirst();
      // One message for an unknown account and a wrong password, so accounts cannot be probed.
      if (!row || !(await checkPassword(row.fPassword, password))) throw refuse('session.wrongPassword');
      if (row.fStatus !== 1) throw refuse('session.disabled');
      const user = await loadUser(ctx.db, row.fId);
      if (!user) throw refuse('session.expired');
      await ctx.db.updateTable('t_sys_user').set({ fLastloginDate: new Date() }).where('fId', '=', user.fId).execute();
      // The operation log records a sign-in under the account that signed in, shown by its current name.
      request.user = user;
      return new Answer({ token: await ctx.tokens.issue(user.fId), ...(await session(user)) }, reason('session.signedIn'));
    },
  });

  // The legacy app signs in with a messaging-app (WeChat) openId. This installation holds no messaging-app
  // credentials and no openId bindings, so the call answers the contract's refusal and the app falls back
  // to the phone-and-password login.
  registerCall(app, ctx, {
    call: 'session.loginWx',
    permission: null,
    tag: 'session',
    write: true,
    perMinute: LOGIN_RATE_LIMIT,
    handler: async () => {
      throw refuse('session.wxUnavailable');
    },
  });

  registerCall(app, ctx, { call: 'session.info', handler: async ({ user }) => session(user!) });

  registerCall(app, ctx, {
    call: 'session.logout',
    write: true,
    handler: async ({ request }) => {
      const token = request.token!;
      await ctx.db.deleteFrom('t_sys_token_revoked').where('fExpiresAt', '<', sql<Date>`now()`).execute();
      await ctx.db
        .insertInto('t_sys_token_revoked')
        .values({ jti: token.jti, fExpiresAt: new Date(token.expiresAt * 1000) })
        .onConflict((oc) => oc.column('jti').doNothing())
        .execute();
      return new Answer(null, reason('session.signedOut'));
    },
  });

  registerCall(app, ctx, {
    call: 'session.checkPassword',
    handler: async ({ user, body }) => {
      const password = typeof body.password === 'string' ? body.password : '';
      if (!password) throw refuse('password.currentRequired');
      const row = await ctx.db.selectFrom('t_sys_user').select('fPassword').where('fId', '=', user!.fId).executeTakeFirstOrThrow();
      if (!(await checkPassword(row.fPassword, password))) throw refuse('password.checkFailed');
      // Opens sensitive device commands for a few minutes (server/devices/commands.ts).
      await ctx.db.updateTable('t_sys_user').set({ fPasswordCheckedAt: new Date() }).where('fId', '=', user!.fId).execute();
      return new Answer(true, reason('password.checked'));
    },
  });

  registerCall(app, ctx, {
    call: 'session.register',
    permission: null,
    write: true,
    handler: async ({ body }) => {
      const name = bodyText(body, 'fChineseName');
      const phone = bodyText(body, 'fPhone');
      const password = typeof body.fPassword === 'string' ? body.fPassword : '';
      // The user form's own rules and words (schemas/user.schema.json).
      const refused = (field: string, rule: string) => new Refusal(fieldReason(entities.user, field, rule));
      if (!name) throw refused('fChineseName', 'required');
      if (name.length > 50) throw refused('fChineseName', 'maxLength');
      if (!phone) throw refused('fPhone', 'required');
      if (!PHONE.test(phone)) throw refused('fPhone', 'pattern');
      checkNewPassword(password, typeof body.passwordCheck === 'string' ? body.passwordCheck : '');
      if (await ctx.db.selectFrom('t_sys_user').select('fId').where('fPhone', '=', phone).executeTakeFirst()) throw refuse('register.phoneRegistered');
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
      return new Answer(created, reason('register.done'));
    },
  });

  registerCall(app, ctx, {
    call: 'session.changePassword',
    write: true,
    handler: async ({ user, body }) => {
      const password = typeof body.fPassword === 'string' ? body.fPassword : '';
      checkNewPassword(password, typeof body.passwordCheck === 'string' ? body.passwordCheck : undefined);
      // Every session of the user ends with the old password, this one included.
      await ctx.db.updateTable('t_sys_user').set({ fPassword: await hashPassword(password), fTokensValidAfter: sql<Date>`now()` }).where('fId', '=', user!.fId).execute();
      return new Answer(null, reason('password.changed'));
    },
  });
}

/**
 * One-touch alerts (t_touch_alarm): a person pressed the emergency button of the app; staff see where
 * and sign the alert off. Administrators see every alert; staff the alerts of the people renting in
 * their jurisdiction (server/auth/jurisdiction.ts); anyone else only the alerts they raised.
 * The caller's name, ID card and phone are matched on t_sys_user, which is not an entity of its own
 * (it holds password hashes), so the list resolves them to user ids first.
 */
import { sql } from 'kysely';
import { isAdmin } from '../crud/types';
import type { CallContext, Query, Services, User } from '../crud/types';
import { list } from '../crud/engine';
import { maskPhone } from '../../contract/personal';
import { rentingIn } from '../auth/jurisdiction';
import { signOne } from '../platform';
import { ALARM_REFUSALS } from './alarm';

type Row = Record<string, unknown>;

export function scope(query: Query, user: User): Query {
  if (isAdmin(user)) return query;
  const j = user.jurisdiction;
  if (!j) return query.where('t_touch_alarm.fUserId', '=', user.fId);
  // Staff also see the alerts of the people renting in their jurisdiction (a current lease, status 2).
  return query.where((eb) =>
    eb.or([
      eb('t_touch_alarm.fUserId', '=', user.fId),
      eb('t_touch_alarm.fUserId', 'in', rentingIn(eb, j)),
    ]),
  );
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => '\\' + c);

/** userName / idcard / phone become the ids of the users they match (the `in` filters on fUserId). */
export async function pageList(ctx: CallContext) {
  const condition = { ...((ctx.body.condition as Row) ?? {}) };
  const wanted = (['userName', 'idcard', 'phone'] as const).filter((k) => typeof condition[k] === 'string' && (condition[k] as string).trim());
  if (wanted.length) {
    let q = ctx.db.selectFrom('t_sys_user').select('fId');
    const column = { userName: 'fChineseName', idcard: 'fIdcard', phone: 'fPhone' } as const;
    for (const k of wanted) q = q.where(sql.ref(`t_sys_user.${column[k]}`), 'ilike', `%${escapeLike((condition[k] as string).trim())}%`);
    const ids = (await q.limit(1000).execute()).map((r) => r.fId);
    delete condition.idcard;
    delete condition.phone;
    // No match is an empty result, not an ignored filter.
    condition.userName = ids.length ? ids : [-1];
  }
  return list({ ...ctx, body: { ...ctx.body, condition } });
}

/** User name ('not verified' stays empty), phone masked 3+4, the point as "longitude,latitude", the signer's name. */
export async function afterRead(rows: Row[], ctx: Services) {
  const ids = [...new Set(rows.flatMap((r) => [r.fUserId, r.fHandleUserId]).filter((v) => v !== null && v !== undefined))] as number[];
  const users = ids.length ? await ctx.db.selectFrom('t_sys_user').select(['fId', 'fChineseName', 'fPhone', 'fIdcard']).where('fId', 'in', ids).execute() : [];
  const byId = new Map(users.map((u) => [u.fId, u]));
  for (const r of rows) {
    const u = byId.get(r.fUserId as number);
    // A person who never verified their identity has no ID number: the console shows 'not verified'.
    const verified = !!u?.fIdcard;
    r.tSysUser = u ? { fId: u.fId, chineseName: verified ? u.fChineseName : null, phone: maskPhone(u.fPhone) || null } : null;
    r.fUserName = verified ? u!.fChineseName : null;
    r.fPhone = maskPhone(u?.fPhone) || null;
    r.fHandleUserName = byId.get(r.fHandleUserId as number)?.fChineseName ?? null;
    r.fPoint = r.fLongitude !== null && r.fLongitude !== undefined && r.fLatitude !== null && r.fLatitude !== undefined ? `${r.fLongitude},${r.fLatitude}` : null;
  }
}

/** /biz/t-touch-alarm/updateStatus {fId, fHandleContent}: signed (1) by the caller, now, with the note; a signed alert stays signed. */
export const updateStatus = (ctx: CallContext) => signOne(ctx, 'touchAlarm', ALARM_REFUSALS);

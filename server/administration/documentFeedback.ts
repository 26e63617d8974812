/**
 * Platform feedback and reminder records (spec 002 §7 documents): both are read in lists that name the
 * user a row belongs to; a reminder record is marked handled through /biz/t-reminder-record/updateRecordStatus.
 */
import type { Services } from '../crud/types';

type Row = Record<string, unknown>;

export async function afterRead(rows: Row[], ctx: Services) {
  const ids = [...new Set(rows.map((r) => r.fUserId).filter((v) => v !== null && v !== undefined))] as number[];
  const users = ids.length ? await ctx.db.selectFrom('t_sys_user').select(['fId', 'fChineseName']).where('fId', 'in', ids).execute() : [];
  const names = new Map(users.map((u) => [u.fId, u.fChineseName]));
  for (const r of rows) r.userName = names.get(r.fUserId as number) ?? null;
}

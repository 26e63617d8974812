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

const FEEDBACK = ['帮助手册里的开锁步骤和实际App界面不一致', '隐私政策能否说明数据保存多久', '希望帮助手册增加视频教程', '平台简介里的客服电话打不通'];
const REMINDERS = [
  { fTitle: '租约即将到期', fContent: '您在天河区的租约将于7天后到期，请及时续签或办理退租。' },
  { fTitle: '设备离线提醒', fContent: '网关 DEV000005 已离线超过24小时。' },
  { fTitle: '居住登记提醒', fContent: '新入住租客请在3日内完成居住登记。' },
];

export async function seedDocumentFeedback(db: Services['db']) {
  const people = await db.selectFrom('t_sys_user').select(['fId', 'fPhone']).where('fUserType', '=', 2).orderBy('fId').limit(10).execute();
  if (!people.length) return;
  const now = Date.now();
  await db
    .insertInto('t_platform_feedback')
    .values(FEEDBACK.map((fContent, i) => ({ fUserId: people[i % people.length].fId, fPhone: people[i % people.length].fPhone, fContent, fIntime: new Date(now - (i + 1) * 7 * 3600_000) })) as never)
    .execute();
  await db
    .insertInto('t_reminder_record')
    .values(REMINDERS.map((r, i) => ({ ...r, fUserId: people[(i + 1) % people.length].fId, fStatus: i === 2 ? 1 : 0, fIntime: new Date(now - (i + 1) * 3 * 3600_000) })) as never)
    .execute();
}

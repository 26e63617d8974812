/** Demo feedback: a dozen rows from demo people, some with photos, some answered (the demo's own words). */
import type { Services } from '../crud/types';
import { random } from '../db/demo/random';
import { DEMO_PHOTOS } from './feedback';

const CONTENTS = [
  '门锁有时候刷卡没有反应，需要刷好几次',
  'APP登录后经常闪退，希望尽快修复',
  '房东不处理漏水问题，投诉一下',
  '希望增加夜间访客登记功能',
  '智能电表读数与实际不符',
  '社区民警联系电话在APP里找不到',
  '开锁记录显示的时间不对',
  '租约到期提醒能不能提前一周',
  '门禁人脸识别在晚上识别率低',
  '客服电话一直打不通',
  '建议增加水电费在线缴纳',
  '楼道灯坏了很久没人修',
];

/** A dozen feedback rows from demo people, some with photos, some answered. */
export async function seedFeedback(db: Services['db']) {
  const rnd = random(20261123);
  const people = await db.selectFrom('t_sys_user').select(['fId', 'fPhone']).where('fUserType', '=', 2).orderBy('fId').limit(40).execute();
  if (!people.length) return;
  const admin = await db.selectFrom('t_sys_user').select('fId').where('fAdmin', '=', 1).orderBy('fId').executeTakeFirst();
  const now = Date.now();
  const rows = CONTENTS.map((content, i) => {
    const person = people[i % people.length];
    const photos = rnd.chance(0.7) ? DEMO_PHOTOS.filter(() => rnd.chance(0.5)).slice(0, 3) : [];
    const status = i % 4 === 0 ? 1 : i === 5 ? 9 : 0;
    const answered = status !== 0;
    return {
      fUserId: person.fId,
      fPhone: person.fPhone,
      fType: String([1, 2, 3, 9][i % 4]),
      fFeedbackContent: content,
      fPhotos: photos.length ? photos.join(',') : i < 3 ? DEMO_PHOTOS[i] : null,
      fIntime: new Date(now - (i + 1) * 5.5 * 3600_000),
      fStatus: status,
      fAnswer: answered ? '已收到，我们会尽快处理。' : null,
      fAnswerTime: answered ? new Date(now - i * 3600_000) : null,
      fAnswerUserId: answered ? (admin?.fId ?? null) : null,
    };
  });
  await db.insertInto('t_feedback').values(rows as never).execute();
}

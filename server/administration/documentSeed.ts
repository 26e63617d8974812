/**
 * Demo documents (help manuals, agreements, rental files, platform documents), platform feedback and
 * reminder records for an empty database, in the demo's own words.
 */
import type { Services } from '../crud/types';
import { DEMO_PHOTOS } from './feedback';

type Row = Record<string, unknown>;

/** Demo documents: what each list is for, written as the editor writes them. */
const HELP = [
  {
    fTitle: '快速入门：添加第一台设备',
    fSort: 1,
    fContent:
      '<h2>添加设备</h2><p>进入 <strong>设备中心 → 设备管理</strong>，点击 <strong>新增</strong>，填写设备编号并选择所属产品。</p>' +
      '<ol><li><p>设备编号印在设备背面的标签上；</p></li><li><p>保存后设备显示为 <span style="color: #1976d2">未激活</span>，通电联网后自动变为在线。</p></li></ol>' +
      '<p><span style="background-color: #fff59d">提示：</span>代理商只能看到自己名下的设备。</p>',
  },
  {
    fTitle: '报警签收流程',
    fSort: 2,
    fContent:
      '<h2>签收报警</h2><p>未签收的报警在列表中以 <span style="color: #e65100"><strong>橙色</strong></span> 标出。选中一条或多条后点击 <strong>签收</strong>，填写处理意见。</p>' +
      '<h3>注意</h3><p><em>签收后不能撤销</em>，处理意见会写入操作日志。</p>',
  },
  {
    fTitle: '常见问题：设备离线怎么办',
    fSort: 3,
    fStatus: 2,
    fContent: '<h3>排查步骤</h3><ul><li><p>检查网关电源与网线；</p></li><li><p>在设备抽屉中点击 <code>刷新状态</code>；</p></li><li><p>仍然离线请联系运维。</p></li></ul>',
  },
];
const APP_HELP = [
  { fTitle: 'App 登录与绑定手机号', fSort: 1, fContent: '<h2>登录</h2><p>首次使用请用手机号 <strong>注册</strong>，收到验证码后设置密码。</p><p style="text-align: center"><span style="font-size: 18px">忘记密码可在登录页找回。</span></p>' },
  { fTitle: '在 App 中远程开关电闸', fSort: 2, fContent: '<h2>远程控制</h2><p>在设备卡片上滑动开关即可，操作结果以 <span style="color: #2e7d32">绿色</span> 提示。</p>' },
];
const AGREEMENT = [{ fTitle: '用户服务协议', fSort: 1, fContent: '<h2>一、总则</h2><p>欢迎使用本平台。您在注册前应当 <u>仔细阅读</u> 本协议。</p><h2>二、账号</h2><p>账号仅限本人使用，不得转让。</p>' }];
const PRIVACY = [{ fTitle: '隐私政策', fSort: 1, fContent: '<h2>我们收集的信息</h2><p>为提供设备管理服务，我们会收集 <strong>手机号</strong>、设备编号和设备上报的数据。</p><p><span style="font-family: KaiTi">我们不会向第三方出售您的个人信息。</span></p>' }];
const RENTAL_FILES = [
  { fTitle: '出租屋治安管理责任书', fSort: 1, fContent: '<h2>出租人责任</h2><ol><li><p>如实登记承租人身份信息；</p></li><li><p>发现可疑情况及时报告辖区派出所。</p></li></ol>' },
  { fTitle: '租客入住须知', fSort: 2, fContent: '<p>入住后 <strong>3 日内</strong> 到社区完成居住登记，门锁首次使用请设置个人密码。</p>' },
];
const PLATFORM_DOCS = [
  { fTitle: '关于平台', fSort: 1, fContent: '<h2>平台简介</h2><p>本平台提供智能开关、断路器与网关的远程管理，以及出租屋的治安预警。</p>' },
  { fTitle: '服务时间与联系方式', fSort: 2, fContent: '<p>工作日 9:00–18:00，服务热线 <strong>400-000-0000</strong>。</p>' },
];

export async function seedDocuments(db: Services['db']) {
  // The first document of each list shows a cover, one of the demo pictures kept with the uploads.
  const cover = DEMO_PHOTOS[0];
  const typed = (type: number, rows: Row[]) => rows.map((r) => ({ fStatus: 1, ...r, fType: type, fImage: r.fSort === 1 ? cover : null }));
  await db
    .insertInto('t_document')
    .values([...typed(5, HELP), ...typed(4, APP_HELP), ...typed(3, AGREEMENT), ...typed(2, PRIVACY)] as never)
    .execute();
  await db.insertInto('t_rental_file').values(RENTAL_FILES.map((r) => ({ fStatus: 1, ...r })) as never).execute();
  await db.insertInto('t_platform').values(PLATFORM_DOCS.map((r) => ({ fStatus: 1, ...r })) as never).execute();
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

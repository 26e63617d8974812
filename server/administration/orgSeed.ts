/** Demo data of the system screens: a small region tree and the message templates, so the pages have something to show. */
import type { DB } from '../db';
import { seedMessageTemplates } from '../platform';

const AREAS = [
  { fAreaId: 440000, fAreaName: '广东省', fAreaPinyin: 'guangdongsheng', fAreaPinyinAcr: 'gds', fHighAreaId: 0 },
  { fAreaId: 440100, fAreaName: '广州市', fAreaPinyin: 'guangzhoushi', fAreaPinyinAcr: 'gzs', fHighAreaId: 440000 },
  { fAreaId: 440300, fAreaName: '深圳市', fAreaPinyin: 'shenzhenshi', fAreaPinyinAcr: 'szs', fHighAreaId: 440000 },
  { fAreaId: 440103, fAreaName: '荔湾区', fAreaPinyin: 'liwanqu', fAreaPinyinAcr: 'lwq', fHighAreaId: 440100 },
  { fAreaId: 440104, fAreaName: '越秀区', fAreaPinyin: 'yuexiuqu', fAreaPinyinAcr: 'yxq', fHighAreaId: 440100 },
  { fAreaId: 440106, fAreaName: '天河区', fAreaPinyin: 'tianhequ', fAreaPinyinAcr: 'thq', fHighAreaId: 440100 },
  { fAreaId: 440304, fAreaName: '福田区', fAreaPinyin: 'futianqu', fAreaPinyinAcr: 'ftq', fHighAreaId: 440300 },
  { fAreaId: 440305, fAreaName: '南山区', fAreaPinyin: 'nanshanqu', fAreaPinyinAcr: 'nsq', fHighAreaId: 440300 },
];

/** Only into an empty table: areas someone has already entered are never touched. */
export async function seedAreas(db: DB): Promise<void> {
  const any = await db.selectFrom('t_area_info').select('fId').limit(1).executeTakeFirst();
  if (any) return;
  await db.insertInto('t_area_info').values(AREAS).execute();
}

const TEMPLATES = [
  { fName: '设备告警通知', fTypeId: 1, fMessage: '【安全平台】您的设备{device}于{time}发生{alarm}告警，请及时处理。', fStatus: 1 },
  { fName: '设备到期提醒', fTypeId: 2, fMessage: '您的设备{device}将于{date}到期，请及时续费。', fStatus: 0 },
];

export async function seedMessageModels(db: DB): Promise<void> {
  const any = await db.selectFrom('t_message_model').select('fId').limit(1).executeTakeFirst();
  if (any) return;
  await db.insertInto('t_message_model').values(TEMPLATES).execute();
}

export async function seedOrg(db: DB): Promise<void> {
  await seedAreas(db);
  await seedMessageModels(db);
  await seedMessageTemplates(db);
}

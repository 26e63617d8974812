/** Demo app versions for an empty database (the dictionaries app_type and update_status name their type and mode). */
import type { Services } from '../crud/types';

export async function seedAppVersions(db: Services['db']) {
  const dic = await db.selectFrom('t_sys_dic').select(['fId', 'fKey', 'fValue']).where('fKey', 'in', ['app_type', 'update_status']).execute();
  const id = (key: string, value: string) => dic.find((d) => d.fKey === key && d.fValue === value)?.fId ?? null;
  await db
    .insertInto('t_app_version')
    .values([
      { fAppType: id('app_type', '1'), fAppVersion: '2.3.0', fVersionDescribe: '租户端安卓版', fUpdateStatus: id('update_status', '0'), fUpdateDescribe: '优化开锁速度，修复已知问题', fAreaId: 440106 },
      { fAppType: id('app_type', '2'), fAppVersion: '2.3.0', fVersionDescribe: '租户端iOS版', fUpdateStatus: id('update_status', '0'), fUpdateDescribe: '优化开锁速度', fAreaId: 440106 },
      { fAppType: id('app_type', '3'), fAppVersion: '1.8.2', fVersionDescribe: '民警端安卓版', fUpdateStatus: id('update_status', '1'), fUpdateDescribe: '新增布控人员提醒，必须更新', fAreaId: 440104 },
    ] as never)
    .execute();
}

/**
 * Demo rows for the screens that would otherwise open empty on a fresh installation: firmware versions,
 * device groups (the agent's, with devices bound) and a department tree. Runs after the products and
 * devices are seeded, into an empty database only (server/db/seed.ts).
 */
import { createHash } from 'node:crypto';
import type { DB } from '../index';

// Numbers from 9100 up, clear of the small numbers people start their own departments with.
const DEPARTMENTS = [
  { fDepartmentId: 9100, fDepartmentName: '运营中心', fHighDepartmentId: 0 },
  { fDepartmentId: 9110, fDepartmentName: '设备运维部', fHighDepartmentId: 9100 },
  { fDepartmentId: 9111, fDepartmentName: '天河运维组', fHighDepartmentId: 9110 },
  { fDepartmentId: 9112, fDepartmentName: '越秀运维组', fHighDepartmentId: 9110 },
  { fDepartmentId: 9120, fDepartmentName: '客户服务部', fHighDepartmentId: 9100 },
  { fDepartmentId: 9200, fDepartmentName: '治安管理办公室', fHighDepartmentId: 0 },
  { fDepartmentId: 9210, fDepartmentName: '出租屋管理科', fHighDepartmentId: 9200 },
];

/** Three versions of the switch and breaker firmware; the newest of each is what an upgrade pushes. */
const FIRMWARE = [
  { product: 'P-SW-485', fName: '485开关主控固件', fVersion: 'V1.0.3', fVersionCode: '103', fRemark: '出厂版本' },
  { product: 'P-SW-485', fName: '485开关主控固件', fVersion: 'V1.1.0', fVersionCode: '110', fRemark: '定时精度改进，修复断网重连' },
  { product: 'P-4G-SW', fName: '4G空开通信固件', fVersion: 'V2.0.1', fVersionCode: '201', fRemark: '支持漏电自检上报' },
  { product: 'P-WIFI-PLUG', fName: 'WiFi插座固件', fVersion: 'V1.2.0', fVersionCode: '120', fRemark: '新增电量统计' },
];

export async function seedFirstScreens(db: DB, agentId: number): Promise<void> {
  await db.insertInto('t_department_info').values(DEPARTMENTS).execute();

  const products = await db.selectFrom('t_product').select(['fId', 'fNumber']).execute();
  const productId = new Map(products.map((p) => [p.fNumber, p.fId]));
  const firmware = FIRMWARE.filter((f) => productId.has(f.product)).map(({ product, ...f }) => ({
    ...f,
    fProductId: productId.get(product)!,
    // No file is uploaded in the demo; the signature is that of the version's name, so it is stable.
    fMd5Sign: createHash('md5').update(`${product}-${f.fVersion}`).digest('hex'),
  }));
  if (firmware.length) await db.insertInto('t_firmware').values(firmware).execute();

  const [building] = await db.insertInto('t_group').values({ fName: '一号楼', fParentId: 0, fRemork: '一号楼各层的开关与网关', fUserId: agentId }).returning('fId').execute();
  const floors = await db
    .insertInto('t_group')
    .values([
      { fName: '一号楼一层', fParentId: building.fId, fRemork: '大堂与走廊照明', fUserId: agentId },
      { fName: '一号楼二层', fParentId: building.fId, fRemork: '办公区', fUserId: agentId },
    ])
    .returning('fId')
    .execute();
  await db.insertInto('t_group').values({ fName: '仓库', fParentId: 0, fRemork: '仓库配电', fUserId: agentId }).execute();
  const devices = await db.selectFrom('t_device').select('fId').where('fUserId', '=', agentId).orderBy('fId').limit(6).execute();
  const bindings = devices.map((d, i) => ({ fGroupId: i < 3 ? floors[0].fId : floors[1].fId, fDeviceId: d.fId }));
  if (bindings.length) await db.insertInto('t_group_device').values(bindings).execute();
}

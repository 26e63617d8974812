/** Demo data for an empty database: the three demo accounts, products and devices to look at. */
import type { DB } from './index';
import { hashPassword } from '../auth/passwords';
import { grant, storedRoleName } from './menus';
import { linkDemoLibraries } from '../devices/productJson';
import { seedOrg } from '../administration/orgSeed';
import { seedDistrict } from './demo/district';
import { seedWatch } from '../security/watchSeed';
import { seedAppVersions } from '../administration/appVersionSeed';
import { seedFeedback } from '../administration/feedbackSeed';
import { seedIntel } from './demo/intel';
import { seedLibraryDemo } from '../devices/librarySeed';
import { seedAlarms } from '../security/alarmSeed';
import { seedFirstScreens } from './demo/firstScreens';
import { seedTenantAssets } from './demo/tenantAssets';
import { seedDocumentFeedback, seedDocuments } from '../administration/documentSeed';

export const DEMO_ACCOUNTS = [
  { role: 'admin', fAdmin: 1, fChineseName: '系统管理员', fPhone: '13800000000', password: 'Admin@123', label: 'administrator' },
  { role: 'agent', fAdmin: 2, fChineseName: '演示代理商', fPhone: '13800000001', password: 'Agent@123', label: 'agent' },
  { role: 'user', fAdmin: 0, fChineseName: '演示用户', fPhone: '13800000002', password: 'User@123', label: 'ordinary user' },
  { role: 'officer', fAdmin: 0, fChineseName: '演示民警', fPhone: '13800000003', password: 'Officer@123', label: 'officer' },
];

/** The demo officer's role: the security side's pages, not the devices. */
const OFFICER_ROLE = { alias: 'officer', name: storedRoleName('officer') };
/** The demo officer's jurisdiction: one street of the demo district (server/auth/jurisdiction.ts). */
const OFFICER_STREETS = '44010601';

const AGENT_CODES = ['device-manage', 'device:command', 'product:list', 'device:list', 'device:add', 'device:edit', 'device:status', 'device:del', 'device:use', 'device:control', 'device:batch-reboot', 'device:batch-time', 'device:batch-open', 'device:batch-close', 'device:batch-locked', 'device:batch-unlock', 'device:device-share-more', 'device:share-del', 'statistics:list', 'deviceTiming:list', 'deviceTiming:user-edit', 'deviceSwitch:list', 'group:edit', 'group:del', 'group:list', 'group:add', 'group:bind', 'group:unbind', 'gateway:list', 'gateway:add', 'deviceAlarmCabinet:list', 'deviceAlarmCabinet:edit', 'device:upload', 'location:list', 'firmware:list', 'firmware:add-device', 'firmware:add-device-all', 'firmware-update-device:del', 'firmware:push', 'place:list', 'place:add', 'place:edit', 'place:del', 'room:add', 'room:edit', 'room:del', 'room-device:bind', 'address:list'];
const USER_CODES = ['device-manage', 'device:command', 'product:list', 'device:list', 'device:use', 'device:control', 'device:device-share-more', 'device:share-del', 'statistics:list', 'deviceTiming:list', 'deviceTiming:user-edit', 'deviceSwitch:list', 'gateway:list', 'deviceAlarmCabinet:list', 'location:list', 'place:list', 'place:add', 'place:edit', 'place:del', 'room:add', 'room:edit', 'room:del', 'room-device:bind'];

const OFFICER_CODES = ['alarm-manage', 'alarm:list', 'alarm:sign', 'alarm-lock:list', 'alarm-gather:list', 'alarm-time:list', 'alarm-room:list', 'alarm-foreign:list', 'alarm-person:list', 'alarm-device:list', 'alarm-card:list', 'touchAlarm:list', 'control-manage', 'controlPerson:list', 'controlCar:list', 'rental-manage', 'house:list', 'tenant:list', 'person-intel', 'hologram:sch', 'relation:sch', 'address:list'];

const PRODUCTS = [
  { fNumber: 'P-SW-485', fName: '485智能开关', fCategoryId: 1, fProtocol: 1, fDeviceType: 1, fCommunicationType: 'WiFi', fStatKeys: 'A,L', fStatus: 1 },
  { fNumber: 'P-GW-WIFI', fName: 'WiFi智能网关', fCategoryId: 3, fProtocol: 1, fDeviceType: 2, fCommunicationType: 'WiFi', fStatus: 1 },
  { fNumber: 'P-4G-SW', fName: '4G智能空开', fCategoryId: 2, fProtocol: 1, fDeviceType: 3, fStatKeys: 'A,B,C,N', fStatus: 1 },
  { fNumber: 'P-GW-4G', fName: '4G智能网关', fCategoryId: 3, fProtocol: 1, fDeviceType: 4, fStatus: 0 },
  { fNumber: 'P-WIFI-PLUG', fName: 'WiFi智能插座', fCategoryId: 1, fProtocol: 1, fDeviceType: 5, fCommunicationType: 'WiFi,蓝牙', fStatus: 1 },
  { fNumber: 'P-RG-MCCB', fName: '塑壳断路器', fCategoryId: 2, fProtocol: 1, fDeviceType: 6, fStatKeys: 'A,B,C', fStatus: 1 },
];

/** Seeds only when there is no user at all, so a real installation is never touched. */
export async function seedDemo(db: DB): Promise<boolean> {
  const anyUser = await db.selectFrom('t_sys_user').select('fId').limit(1).executeTakeFirst();
  if (anyUser) return false;
  const ids: Record<string, number> = {};
  await db.insertInto('t_sys_role').values(OFFICER_ROLE).onConflict((oc) => oc.column('alias').doNothing()).execute();
  for (const a of DEMO_ACCOUNTS) {
    const { fId } = await db
      .insertInto('t_sys_user')
      .values({ fChineseName: a.fChineseName, fPhone: a.fPhone, fPassword: await hashPassword(a.password), fAdmin: a.fAdmin, fUserType: 1, fStatus: 1 })
      .returning('fId')
      .executeTakeFirstOrThrow();
    const role = await db.selectFrom('t_sys_role').select('id').where('alias', '=', a.role).executeTakeFirstOrThrow();
    await db.insertInto('t_sys_user_role').values({ userId: fId, roleId: role.id }).execute();
    ids[a.role] = fId;
  }
  await grant(db, 'agent', AGENT_CODES);
  await grant(db, 'user', USER_CODES);
  await grant(db, OFFICER_ROLE.alias, OFFICER_CODES);
  await seedOrg(db);
  await seedDistrict(db);
  await db.updateTable('t_sys_user').set({ streets: OFFICER_STREETS }).where('fId', '=', ids.officer).execute();
  await seedWatch(db);
  await seedAppVersions(db);
  await seedFeedback(db);
  await seedIntel(db);

  const products = await db.insertInto('t_product').values(PRODUCTS).returning(['fId', 'fNumber', 'fDeviceType']).execute();
  await linkDemoLibraries(db);
  await seedLibraryDemo(db);
  const devices = [];
  let n = 0;
  for (const p of products) {
    const count = p.fDeviceType === 6 ? 2 : 4;
    for (let i = 1; i <= count; i++) {
      n++;
      const prefix = p.fDeviceType === 6 ? 'RG' : 'DEV';
      devices.push({
        fNumber: `${prefix}${String(n).padStart(6, '0')}`,
        fName: `演示设备${n}`,
        fProductId: p.fId,
        fTypeId: p.fDeviceType,
        fUserId: ids.agent,
        fStatus: i === count ? 0 : 1,
        fVerify: i === count ? 0 : 1,
        tOnline: 0,
        fRegisteredDate: i === count ? null : new Date(),
        // Spread around central Beijing, so the maps have something to show.
        fGpsLongitude: Math.round((116.3 + ((n * 37) % 100) / 400) * 1e6) / 1e6,
        fGpsLatitude: Math.round((39.85 + ((n * 53) % 100) / 500) * 1e6) / 1e6,
      });
    }
  }
  const inserted = await db.insertInto('t_device').values(devices).returning(['fId', 'fTypeId']).execute();
  // The 485 devices hang off the first WiFi gateway's bus.
  const gateway = inserted.find((d) => d.fTypeId === 2);
  const bus = inserted.filter((d) => d.fTypeId === 1);
  if (gateway && bus.length) await db.insertInto('t_gateway_device').values(bus.map((d) => ({ fGatewayId: gateway.fId, fDeviceId: d.fId }))).execute();
  // The ordinary user sees a few devices shared with it.
  await db
    .insertInto('t_user_device')
    .values(inserted.slice(0, 5).map((d, i) => ({ fUserId: ids.user, fDeviceId: d.fId, fOwner: i === 0 ? 1 : 0 })))
    .execute();
  await seedAlarms(db);
  await seedFirstScreens(db, ids.agent);
  await seedTenantAssets(db);
  await seedDocuments(db);
  await seedDocumentFeedback(db);
  return true;
}

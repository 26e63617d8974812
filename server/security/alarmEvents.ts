/**
 * Turns a security event of a door lock or access control (MQTT bid `security`, docs/mqtt.md) into an
 * alarm row: the house and room come from the device's binding (t_house_device), the jurisdiction from
 * the house, the person from the ID number the device read (a platform user of type 2).
 */
import type { DB } from '../db';
import type { SecurityMessage } from '../mqtt/protocol';
import { describeAlarm } from './alarmDescriptions';
import { reason, textOf } from '../http/envelope';
import { label } from '../crud/enums';
import { sendMessage } from '../platform';
import { publish, type AlarmEvent } from '../relay';
import { coveringUsers } from '../auth/jurisdiction';

export type { AlarmEvent } from '../relay';

const ALARM_TYPES = new Set([1, 2, 3, 4, 5, 6, 11, 13, 14, 15, 17, 18]);

export async function recordSecurityEvent(db: DB, deviceNumber: string, event: SecurityMessage): Promise<AlarmEvent | undefined> {
  const type = Number(event.type);
  if (!ALARM_TYPES.has(type)) throw new Error(`security event of ${deviceNumber}: unknown alarm type ${String(event.type)}`);
  const binding = await db
    .selectFrom('t_house_device as b')
    .innerJoin('t_device as d', 'd.fId', 'b.fDeviceId')
    .innerJoin('t_house_info as h', 'h.fHouseId', 'b.fHouseId')
    .select(['b.fDeviceId', 'b.fHouseId', 'b.fRoomId', 'b.fDeviceType', 'd.fUserId as ownerId', 'd.fNumber as deviceNumber', 'h.fHouseName', 'h.fAreaId', 'h.fStreetId', 'h.fCommunityId'])
    .where('d.fNumber', '=', deviceNumber)
    .executeTakeFirst();
  // A device bound to no house raises nothing a rental list could show.
  if (!binding) throw new Error(`security event of ${deviceNumber}: the device is bound to no rental house`);
  const person = typeof event.idcard === 'string' && event.idcard
    ? await db.selectFrom('t_sys_user').select('fId').where('fIdcard', '=', event.idcard.toUpperCase()).executeTakeFirst()
    : undefined;
  // An access control at the house door knows the person's room from the lease.
  let roomId = binding.fRoomId as number | null;
  if (!roomId && person) {
    const lease = await db.selectFrom('t_tenant_house').select('fRoomId').where('fUserId', '=', person.fId).where('fHouseId', '=', binding.fHouseId).orderBy('fId', 'desc').executeTakeFirst();
    roomId = (lease?.fRoomId as number | undefined) ?? null;
  }
  const time = Number.isFinite(event.ts) ? new Date(event.ts) : new Date();
  const remark = typeof event.remark === 'string' && event.remark ? event.remark.slice(0, 500) : describeAlarm(type, event.count);
  const row = await db
    .insertInto('t_alarm')
    .values({
      fAlarmType: type, fStatus: 0, fAlarmTime: time, fRemark: remark,
      fPhotoUrl: typeof event.photo === 'string' && event.photo.length <= 500 ? event.photo : null,
      fHouseId: binding.fHouseId, fRoomId: roomId, fUserAlarmId: person?.fId ?? null, fDeviceId: binding.fDeviceId, fDeviceType: binding.fDeviceType,
      fAreaId: binding.fAreaId, fStreetId: binding.fStreetId, fCommunityId: binding.fCommunityId,
    })
    .returning('fId')
    .executeTakeFirstOrThrow();
  const alarm: AlarmEvent = {
    fId: row.fId, fAlarmType: type, fHouseId: binding.fHouseId, fRoomId: roomId, fDeviceId: binding.fDeviceId,
    ownerId: (binding.ownerId as number | null) ?? null, fAreaId: (binding.fAreaId as number | null) ?? null, fStreetId: (binding.fStreetId as number | null) ?? null,
  };
  // The consoles of every replica hear of it (server/relay.ts).
  await publish(db, 'alarm', [alarm]);
  await sendMessage(db, {
    userIds: await alarmAudience(db, alarm),
    kind: 'alarm',
    params: { alarm: label('alarmType', type) ?? String(type), house: binding.fHouseName ?? '', device: binding.deviceNumber, time, remark, detail: remark ? textOf(reason('messageCentre.alarm.detail', { remark })) : '' },
  });
  return alarm;
}

/**
 * Who is told of a new alarm: those whose alarm lists show it (server/security/alarm.ts scope) —
 * administrators all alarms, an agent those of the devices it owns, staff those of their jurisdiction —
 * and who may open the lists.
 */
export async function alarmAudience(db: DB, alarm: Pick<AlarmEvent, 'ownerId' | 'fAreaId' | 'fStreetId'>): Promise<number[]> {
  const { ownerId } = alarm;
  const covering = (await coveringUsers(db, alarm.fAreaId, alarm.fStreetId)).rows.map((r) => r.fId);
  const rows = await db
    .selectFrom('t_sys_user as u')
    .select('u.fId')
    .where('u.fStatus', '=', 1)
    .where((eb) =>
      eb.or([
        eb('u.fAdmin', '=', 1),
        ...(ownerId ? [eb.and([eb('u.fAdmin', '=', 2), eb('u.fId', '=', ownerId)])] : []),
        ...(covering.length ? [eb('u.fId', 'in', covering)] : []),
      ]),
    )
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('t_sys_user_role as ur')
          .innerJoin('t_sys_role_menu as rm', 'rm.roleId', 'ur.roleId')
          .innerJoin('t_sys_permission_menu as m', 'm.id', 'rm.menuId')
          .select('m.id')
          .whereRef('ur.userId', '=', 'u.fId')
          .where('m.permissions', '=', 'alarm:list'),
      ),
    )
    .execute();
  return rows.map((r) => r.fId as number);
}

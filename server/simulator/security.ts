/**
 * Simulated door locks and access controls of the rental houses. They are battery devices that hold no
 * connection of their own and report events only, so one client publishes for all of them on each
 * device's `up` topic: now and then a random event of a type the device can raise (a lock left
 * unlocked, a forbidden attempt, a gathering, a late entry, too many people, a bad ID card), with the
 * ID number of one of the room's tenants.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { resolveProtocolVersion } from '../mqtt/connect.js';
import { deviceTopic } from '../mqtt/topics.js';
import type { SecurityMessage } from '../mqtt/protocol.js';
import type { DB } from '../db/index.js';

export interface SecurityDeviceSpec {
  productNumber: string;
  deviceNumber: string;
  /** alarmDeviceType: 1 access control, 2 door lock. */
  kind: 1 | 2;
  /** ID numbers of the people living behind the device. */
  idcards: string[];
}

/** The events each kind of device raises on its own (the spec's door and rental-house alarm types). */
export const EVENT_TYPES: Record<1 | 2, number[]> = { 1: [14, 15, 17, 18], 2: [3, 4] };

export interface SecuritySimulator {
  readonly devices: SecurityDeviceSpec[];
  /** Publishes one event of the device now (type and details given, or drawn at random). */
  raise(deviceNumber: string, event?: Partial<Omit<SecurityMessage, 'bid' | 'ClientID'>>): Promise<SecurityMessage>;
  stop(): Promise<void>;
}

export async function startSecuritySimulator(options: { url: string; devices: SecurityDeviceSpec[]; periodMs?: number }): Promise<SecuritySimulator> {
  const version = await resolveProtocolVersion(options.url, 'auto');
  const client: MqttClient = await mqtt.connectAsync(options.url, { protocolVersion: version, clientId: `security-sim-${process.pid}-${Date.now()}`, reconnectPeriod: 1000 });
  const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
  const find = (n: string) => {
    const d = options.devices.find((x) => x.deviceNumber === n);
    if (!d) throw new Error(`no simulated security device ${n}`);
    return d;
  };
  const raise: SecuritySimulator['raise'] = async (deviceNumber, given = {}) => {
    const d = find(deviceNumber);
    const type = given.type ?? pick(EVENT_TYPES[d.kind]);
    const message: SecurityMessage = {
      bid: 'security',
      ClientID: d.deviceNumber,
      type,
      ...(d.idcards.length && !(type === 15 && Math.random() < 0.4) ? { idcard: pick(d.idcards) } : {}),
      ...(type === 14 || type === 17 ? { count: 4 + Math.floor(Math.random() * 6) } : {}),
      ts: Date.now(),
      ...given,
    };
    await client.publishAsync(deviceTopic(d.productNumber, d.deviceNumber, 'up'), JSON.stringify(message), { qos: 1 });
    return message;
  };
  // One event somewhere in the district every period on average, at random moments.
  const period = options.periodMs ?? 10 * 60_000;
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer = setTimeout(() => {
      if (options.devices.length) void raise(pick(options.devices).deviceNumber).catch(() => undefined);
      schedule();
    }, period * (0.5 + Math.random()));
    timer.unref();
  };
  if (options.devices.length && period > 0) schedule();
  return {
    devices: options.devices,
    raise,
    async stop() {
      clearTimeout(timer);
      await client.endAsync(true);
    },
  };
}

/** The bound door locks and access controls, with the ID numbers of the people behind each as the database holds them. */
export async function securityDevices(db: DB): Promise<SecurityDeviceSpec[]> {
  const rows = await db
    .selectFrom('t_house_device as b')
    .innerJoin('t_device as d', 'd.fId', 'b.fDeviceId')
    .innerJoin('t_product as p', 'p.fId', 'd.fProductId')
    .select(['d.fNumber', 'p.fNumber as productNumber', 'b.fDeviceType', 'b.fHouseId', 'b.fRoomId'])
    .orderBy('d.fId')
    .execute();
  const leases = rows.length
    ? await db.selectFrom('t_tenant_house as t').innerJoin('t_sys_user as u', 'u.fId', 't.fUserId').select(['t.fHouseId', 't.fRoomId', 'u.fIdcard']).where('t.fHouseId', 'in', [...new Set(rows.map((r) => r.fHouseId))]).where('t.fStatus', '=', 2).execute()
    : [];
  return rows.map((r) => ({
    productNumber: r.productNumber,
    deviceNumber: r.fNumber,
    kind: r.fDeviceType === 1 ? 1 : 2,
    idcards: leases.filter((l) => l.fHouseId === r.fHouseId && (!r.fRoomId || l.fRoomId === r.fRoomId) && l.fIdcard).map((l) => l.fIdcard as string),
  }));
}

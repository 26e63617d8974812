/**
 * What the live event stream (/api/events) carries, declared once for the server that sends it
 * (server/relay.ts, server/devices/routes.ts) and the console that reads it (app/platform/events.ts).
 */

/** A device's online state, switch or lock as a batch of its messages or an acknowledged command left them. */
export interface DeviceChange {
  fId: number;
  fNumber: string;
  tOnline?: number;
  switchStatus?: number;
  fLock?: number;
}

/** A new rental-house alarm; the owner and the place decide who hears of it (the stream sends fId and fAlarmType). */
export interface AlarmEvent {
  fId: number;
  fAlarmType: number;
  fHouseId: number;
  fRoomId: number | null;
  fDeviceId: number;
  /** The owner of the raising device (agents see alarms of their own devices). */
  ownerId: number | null;
  /** Where the house is (staff see the alarms of their jurisdiction). */
  fAreaId: number | null;
  fStreetId: number | null;
}

/** A new message of the message centre; only its addressee hears of it (the stream sends msg_id and title). */
export interface MessageEvent {
  userId: number;
  msg_id: number;
  title: string;
}

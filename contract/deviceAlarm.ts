/**
 * A device's reading crossed its limit (active) or came back within it: what the server relays to every
 * replica (server/relay.ts) and sends down the event stream as `deviceAlarm`, and what the console shows
 * (app/devices/live/DeviceAlarms.tsx).
 */
export interface DeviceAlarmEvent {
  fId: number;
  fDeviceId: number;
  fNumber: string;
  /** overvoltage, overcurrent, … (server/mqtt/protocol.ts AlarmKind). */
  kind: string;
  /** The reading that crossed its limit, its value and the limit. */
  field: string;
  value: number | null;
  limit: number | null;
  /** 'alarm' (warning) or 'trip' (the breaker opened). */
  level: string;
  /** Raised (true) or cleared (false). */
  active: boolean;
}

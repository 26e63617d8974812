/**
 * JSON payloads on the device topics (docs/mqtt.md). Keys follow the description library:
 * `bid` business id, `mid` message id, `ClientID` device number, `Children` gateway child devices.
 */

/** Commands the server sends on `down`. The gateway abilities keep the spec's numeric command ids. */
export const BID = {
  switch: 'switch',
  lock: 'lock',
  setThreshold: 'set-threshold',
  readThreshold: 'read-threshold',
  changePassword: 414,
  clearData: 415,
  timeSync: 416,
  motor: 'motor',
  setParameter: 'set-parameter',
  readParameter: 'read-parameter',
  setCalibration: 'set-calibration',
  readCalibration: 'read-calibration',
  upgrade: 'upgrade',
  refresh: 'refresh',
  reboot: 'reboot',
} as const;

/** Messages devices publish on `up`. */
export const UP_BID = {
  telemetry: 'telemetry',
  alarm: 'alarm',
  upgrade: 'upgrade',
} as const;

export type Bid = string | number;

/** A payload's business id as the message log keeps it (text), or null where it has none. */
export function businessId(payload: unknown): string | null {
  const bid = payload && typeof payload === 'object' ? (payload as { bid?: unknown }).bid : undefined;
  return bid === undefined ? null : String(bid);
}

export interface Command {
  bid: Bid;
  /** Child device numbers the command is meant for; absent = the addressed device itself. */
  Children?: string[];
  [key: string]: unknown;
}

/** What `sendCommand` puts on the wire. */
export interface CommandMessage extends Command {
  mid: string;
  ClientID: string;
  /** Send time, ms since epoch, for device logs and latency measurement. */
  ts: number;
}

export type AckCode =
  | 'bad-password'
  | 'out-of-range'
  | 'locked'
  | 'unsupported'
  | 'bad-request'
  | 'no-child'
  | 'offline';

export interface ChildAck {
  ClientID: string;
  ack: boolean;
  code?: AckCode;
  message?: string;
  state?: Record<string, unknown>;
}

export interface Ack {
  bid: Bid;
  mid: string;
  ClientID: string;
  ack: boolean;
  /** Machine-readable reason when `ack` is false. */
  code?: AckCode;
  /** Human-readable (zh-CN); contains 成功 when the command succeeded, as the legacy console expects. */
  message?: string;
  /** The device's state after the command, or the values a read command asked for. */
  state?: Record<string, unknown>;
  Children?: ChildAck[];
}

export interface Readings {
  /** V */
  voltage: number;
  /** A */
  current: number;
  /** W */
  power: number;
  /** kWh, cumulative */
  energy: number;
  /** °C */
  temperature: number;
  /** mA */
  leakage: number;
  /** 1 on (closed, power flows), 0 off (open) */
  switch: 0 | 1;
  /** 1 locked: held closed, switching refused */
  lock: 0 | 1;
}

export interface ChildTelemetry extends Readings {
  ClientID: string;
}

export interface TelemetryMessage extends Readings {
  bid: 'telemetry';
  ClientID: string;
  ts: number;
  Children?: ChildTelemetry[];
}

export type AlarmKind =
  | 'overvoltage'
  | 'undervoltage'
  | 'overcurrent'
  | 'overpower'
  | 'leakage'
  | 'overtemperature'
  | 'current-jump'
  | 'temperature-jump';

export interface AlarmMessage {
  bid: 'alarm';
  /** The device the alarm is about (a gateway's child reports under its own number). */
  ClientID: string;
  /** Set when a gateway reports for a child. */
  gateway?: string;
  kind: AlarmKind;
  /** Telemetry field that crossed the limit. */
  field: keyof Readings;
  value: number;
  /** The limit crossed, in the field's unit. */
  limit: number;
  /** 'alarm' = warning level; 'trip' = protection opened the breaker. */
  level: 'alarm' | 'trip';
  /** true when raised, false when the value is back within limits. */
  active: boolean;
  ts: number;
}

/**
 * A rental-house security event from a door lock or an access control (docs/mqtt.md): the server
 * records it as an alarm of the given type for the house and room the device is bound to.
 */
export interface SecurityMessage {
  bid: 'security';
  ClientID: string;
  /** Alarm type (schemas/enums.json alarmType): 3 door not locked, 4 test forbidden, 14 gathering, … */
  type: number;
  /** ID number of the person the device recognised, when it did. */
  idcard?: string;
  /** People counted in the room (gathering, room count). */
  count?: number;
  /** A description the device adds; the server writes its own when absent. */
  remark?: string;
  /** Snapshot address (or data: URL) of the camera, when the device has one. */
  photo?: string;
  ts: number;
}

export interface UpgradeProgressMessage {
  bid: 'upgrade';
  mid: string;
  ClientID: string;
  step: 'download' | 'verify' | 'flash' | 'done' | 'failed';
  progress: number;
  version?: string;
  message?: string;
  ts: number;
}

export interface ChildStatus {
  ClientID: string;
  online: boolean;
}

export interface StatusMessage {
  online: boolean;
  ClientID?: string;
  type?: number;
  version?: string;
  Children?: ChildStatus[];
  ts?: number;
}

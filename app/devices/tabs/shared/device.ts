import { call, ApiError, type Envelope } from '../../../../adapters/http';
import type { DeviceRow } from '../../cells';

/** Product type of a device: its own fTypeId, else its product's fDeviceType. */
export function typeOf(device: DeviceRow): number | undefined {
  const own = device.fTypeId ?? (device.tProduct as Record<string, unknown> | undefined)?.fDeviceType;
  return own === undefined || own === null ? undefined : Number(own);
}

export const isGateway = (device: DeviceRow) => [2, 4].includes(typeOf(device) ?? 0);
export const hasThresholds = (device: DeviceRow) => [2, 4, 6].includes(typeOf(device) ?? 0);
export const isBreaker = (device: DeviceRow) => typeOf(device) === 6;

/** The device calls of the drawer's tabs (docs/api.md and the device command routes). */
export const PATHS = {
  elec: '/app/device/device-elec',
  commands: '/app/device/commands',
  sendSwitch: '/app/device/send-switch',
  sendLock: '/app/device/send-lock',
  motor: '/app/device6/send-onoff',
  threshold: '/app/device/gateway-device-threshold',
  setThreshold: '/app/device/set-gateway-device-threshold',
  setParameter: '/app/device/set-device-parameter',
  readProtection: '/app/device/get-device-conf-parameter',
  readCalibration: '/app/device/get-device-adjust-parameter',
  shares: '/biz/t-user-device/pageList',
  shareDel: '/biz/t-user-device/del',
  shareMore: '/app/device/device-share-more',
  records: '/biz/t-emq-message-publish/records',
};

/** The type-6 breaker's own calls (spec 000 §7 /app/device6/…), which the server answers only for type 6. */
const BREAKER_PATHS: Partial<typeof PATHS> = {
  elec: '/app/device6/device-elec',
  setThreshold: '/app/device6/set-gateway-device-threshold',
};

/** The drawer's calls for this device: the breaker's own where it has them. */
export const pathsFor = (device: DeviceRow): typeof PATHS => (isBreaker(device) ? { ...PATHS, ...BREAKER_PATHS } : PATHS);

export interface SendResult<T = unknown> {
  ok: boolean;
  message: string;
  data?: T;
  /** Set when the shell already announced the failure (expired login, no permission, server fault). */
  announced?: boolean;
}

/**
 * A set-call read as the legacy console reads them: the message text says how the device answered
 * (containing 成功 is success). Never throws.
 */
export async function send<T = unknown>(path: string, body: unknown): Promise<SendResult<T>> {
  try {
    const envelope: Envelope<T> = await call<T>(path, body, { raw: true });
    const ok = envelope.success !== false && envelope.code === 200 && (!envelope.message || envelope.message.includes('成功'));
    return { ok, message: envelope.message ?? '', data: envelope.data };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e), announced: e instanceof ApiError && e.status !== 200 };
  }
}

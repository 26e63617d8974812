import { resources } from '../generated/resources';

/** A firmware version as the list answers it. */
export type FirmwareRow = Record<string, unknown> & { fId: number };

/** Not a resource action: the push needs the live device side, so the server declares it by hand. */
export const PUSH_PATH = '/biz/t-firmware-update-device/push';

const FALLBACK = {
  list: '/biz/t-firmware-update-device/devices',
  undevices: '/biz/t-firmware-update-device/undevices',
  addDevices: '/biz/t-firmware-update-device/addorupdate',
  addAll: '/biz/t-firmware-update-device/addall',
  delete: '/biz/t-firmware-update-device/del',
};

/** The upgrade-record paths as the resource file declares them (read when used, not at import time). */
export function upgradeEndpoints(): typeof FALLBACK {
  const declared = resources.find((r) => r.config.name === 'firmwareUpdateDevice')?.config.endpoints ?? {};
  return { ...FALLBACK, ...declared } as typeof FALLBACK;
}

/** fStatus of an upgrade record: -1 failed, 0 waiting, 1 sending, 2 success. */
export const STATUS_COLORS: Record<string, 'error' | 'default' | 'info' | 'success'> = { '-1': 'error', '0': 'default', '1': 'info', '2': 'success' };

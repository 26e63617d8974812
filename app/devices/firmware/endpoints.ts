/** A firmware version as the list answers it. */
export type FirmwareRow = Record<string, unknown> & { fId: number; fProductId?: number | null };

/**
 * The upgrade records' calls (the firmwareUpdateDevice resource), and the push, which is not a resource
 * action: it needs the live device side, so it is declared with the commands (resources/calls/command.json).
 */
export const UPGRADE_CALLS = {
  list: 'firmwareUpdateDevice.list',
  undevices: 'firmwareUpdateDevice.undevices',
  addDevices: 'firmwareUpdateDevice.addDevices',
  addAll: 'firmwareUpdateDevice.addAll',
  delete: 'firmwareUpdateDevice.delete',
  push: 'command.upgrade',
} as const;

/** fStatus of an upgrade record: -1 failed, 0 waiting, 1 sending, 2 success. */
export const STATUS_COLORS: Record<string, 'error' | 'default' | 'info' | 'success'> = { '-1': 'error', '0': 'default', '1': 'info', '2': 'success' };

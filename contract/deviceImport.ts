/**
 * How far a device import has got (server/devices/deviceTransfer.ts): what the server relays to every
 * replica (server/relay.ts) and sends down the importing user's event stream as `deviceImport`, and what
 * the device list's import dialog shows once its upload is through (app/devices/bulk/ImportDialog.tsx).
 * The dialog names its import with `id`, a form field sent before the file (IMPORT_PROGRESS_FIELD).
 */
export type DeviceImportPhase =
  /** Another import of this server is still running; this one starts after it. */
  | 'wait'
  /** The file is being read and every row checked (nothing written yet). */
  | 'read'
  /** Every row passed: the rows are being written, all in one transaction. */
  | 'write'
  /** Written and committed. */
  | 'done'
  /** Refused or failed: nothing was written. */
  | 'failed';

export interface DeviceImportProgress {
  id: string;
  phase: DeviceImportPhase;
  /** Rows read from the file so far (blank rows not counted). */
  read: number;
  /** Rows checked, the device numbers against the database included. */
  checked: number;
  /** Rows written (inside the transaction: none is visible before the commit). */
  written: number;
  /** Rows to write, once the file has been read; 0 before. */
  total: number;
}

/** The multipart field naming the import for its progress events; it must come before the file. */
export const IMPORT_PROGRESS_FIELD = 'progress';

/** What an import's id may be: the console's random token, nothing else. */
export const IMPORT_ID = /^[A-Za-z0-9_-]{8,64}$/;

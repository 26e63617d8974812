/**
 * The bulk actions' shapes and limits; their calls go through the data provider by name: device.template,
 * device.export and device.qrcodes (downloads), device.import (the upload with its progress),
 * device.share, device.use and device.list.
 */
import type { Envelope } from '../../../adapters/http';
import type { CallAnswer, LegacyDataProvider } from '../../../adapters/dataProvider';
import { IMPORT_PROGRESS_FIELD } from '../../../contract/deviceImport';

/** Spec 000 §5: 100M (102400 KB). */
export const IMPORT_MAX_BYTES = 100 * 1024 * 1024;
/** Spec 000 §9: the sharing picker lists up to 10000 devices. */
export const SHARE_LIST_SIZE = 10000;

export interface UploadProgress {
  /** The import's name in the server's progress events (contract/deviceImport.ts). */
  id: string;
  /** Bytes of the file sent so far, of all of them. */
  onUpload: (sent: number, total: number) => void;
  /** The whole file has been sent: from here on the server reads, checks and writes it. */
  onUploaded: () => void;
}

/** A name for one import, for its progress events: random enough that two consoles of one user never share it. */
export const importId = () => `imp-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/**
 * Uploads the workbook (device.import, with its progress); answers the envelope whether it succeeded or
 * not, so its text can be shown. The import's id goes first, as a form field before the file, so the
 * server knows it before it reads the file. A refused file's envelope carries no answer.
 */
export function uploadImport(api: LegacyDataProvider, file: File, progress?: UploadProgress): Promise<Envelope<CallAnswer<'device.import'> | null>> {
  return api.upload('device.import', file, {
    raw: true,
    ...(progress ? { fields: { [IMPORT_PROGRESS_FIELD]: progress.id }, onProgress: progress.onUpload, onUploaded: progress.onUploaded } : {}),
  });
}

/** The bulk actions' calls: file downloads and the multipart import, beside the JSON envelope calls. */
import { ApiError, getToken, setToken, type Envelope } from '../../../adapters/http';
import { IMPORT_PROGRESS_FIELD } from '../../../adapters/deviceImport';

export const BULK_PATHS = {
  template: '/biz/t-device/download-device',
  export: '/biz/t-device/download-data',
  qrcode: '/biz/t-device/qrcode',
  import: '/biz/t-device/import',
  share: '/app/device/device-share-more',
  use: '/biz/t-device/use',
  devices: '/biz/t-device/devices',
};
/** Spec §5: 100M (102400 KB). */
export const IMPORT_MAX_BYTES = 100 * 1024 * 1024;
export const IMPORT_ACCEPT = '.xlsx,.xls';
/** Spec §9: the sharing picker lists up to 10000 devices. */
export const SHARE_LIST_SIZE = 10000;

export const isSpreadsheet = (name: string) => /\.(xlsx|xls)$/i.test(name);

/** The server's name (RFC 5987 filename*) wins over the fallback. */
function fileNameOf(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // A malformed name falls back to ours.
    }
  }
  return fallback;
}

/** Downloads a file answer; a refusal arrives as the JSON envelope and is thrown with its message. */
export async function download(path: string, body: unknown, fallback: string): Promise<void> {
  const token = getToken();
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) },
    body: JSON.stringify(body ?? {}),
  });
  const fresh = response.headers.get('authorization');
  if (fresh) setToken(fresh);
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || type.includes('json')) {
    const envelope = (await response.json().catch(() => null)) as Envelope | null;
    throw new ApiError(envelope?.message ?? response.statusText, response.status, envelope ?? undefined);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response, fallback);
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export interface ImportAnswer {
  total: number;
  imported: number;
  failed: number;
  errors: { row: number; fNumber: string; message: string }[];
}

export interface UploadProgress {
  /** The import's name in the server's progress events (adapters/deviceImport.ts). */
  id: string;
  /** Bytes of the file sent so far, of all of them. */
  onUpload: (sent: number, total: number) => void;
  /** The whole file has been sent: from here on the server reads, checks and writes it. */
  onUploaded: () => void;
}

/** A name for one import, for its progress events: random enough that two consoles of one user never share it. */
export const importId = () => `imp-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

/**
 * Uploads the workbook through XMLHttpRequest, which reports the upload's progress (fetch reports none);
 * answers the envelope whether it succeeded or not, so its text can be shown. The import's id goes first,
 * as a form field before the file, so the server knows it before it reads the file.
 */
export function uploadImport(file: File, progress?: UploadProgress): Promise<Envelope<ImportAnswer | null>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const form = new FormData();
    if (progress) form.append(IMPORT_PROGRESS_FIELD, progress.id);
    form.append('file', file, file.name);
    xhr.open('POST', BULK_PATHS.import);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', token);
    if (progress) {
      xhr.upload.onprogress = (e) => e.lengthComputable && progress.onUpload(e.loaded, e.total);
      xhr.upload.onload = () => progress.onUploaded();
    }
    xhr.onerror = () => reject(new ApiError('network', 0));
    xhr.onload = () => {
      const fresh = xhr.getResponseHeader('authorization');
      if (fresh) setToken(fresh);
      let envelope: Envelope<ImportAnswer | null> | null = null;
      try {
        envelope = JSON.parse(xhr.responseText) as Envelope<ImportAnswer | null>;
      } catch {
        // Not the envelope: refused below with the status.
      }
      if (!envelope) return reject(new ApiError(xhr.statusText || 'error', xhr.status));
      if (xhr.status !== 200) return reject(new ApiError(envelope.message, xhr.status, envelope));
      resolve(envelope);
    };
    xhr.send(form);
  });
}

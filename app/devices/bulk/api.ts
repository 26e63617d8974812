/** The bulk actions' calls: file downloads and the multipart import, beside the JSON envelope calls. */
import { ApiError, getToken, setToken, type Envelope } from '../../../adapters/http';

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

/** Uploads the workbook; answers the envelope whether it succeeded or not, so its text can be shown. */
export async function uploadImport(file: File): Promise<Envelope<ImportAnswer | null>> {
  const token = getToken();
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await fetch(BULK_PATHS.import, { method: 'POST', headers: token ? { Authorization: token } : {}, body: form });
  const fresh = response.headers.get('authorization');
  if (fresh) setToken(fresh);
  const envelope = (await response.json().catch(() => null)) as Envelope<ImportAnswer | null> | null;
  if (!envelope) throw new ApiError(response.statusText || 'error', response.status);
  if (response.status !== 200) throw new ApiError(envelope.message, response.status, envelope);
  return envelope;
}

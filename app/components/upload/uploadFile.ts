import { ApiError, getToken, setToken, type Envelope } from '../../../adapters/http';

/** What the server accepts (spec §9): 2048 KB for pictures and for firmware files. */
export const UPLOAD_LIMIT_KB = 2048;

/** The file's extension in lower case, without the dot. */
export const extensionOf = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '');

const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png'];

/** Why a picture would be refused (the i18n key of the spec's warning), before it is sent; null when it may go. */
export function imageProblem(file: File): 'upload.badFormat' | 'upload.tooLarge' | null {
  if (!IMAGE_EXTENSIONS.includes(extensionOf(file.name))) return 'upload.badFormat';
  if (file.size > UPLOAD_LIMIT_KB * 1024) return 'upload.tooLarge';
  return null;
}

/**
 * Sends one file as multipart form data with the session token; resolves with the envelope, rejects with
 * ApiError carrying the server's message (文件格式不正确, 超出文件大小限制 …).
 */
export async function uploadFile<T = unknown>(path: string, file: File): Promise<Envelope<T>> {
  const form = new FormData();
  form.append('file', file, file.name);
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(path, { method: 'POST', headers: token ? { Authorization: token } : {}, body: form });
  } catch {
    throw new ApiError('network', 0);
  }
  const fresh = response.headers.get('authorization');
  if (fresh) setToken(fresh);
  let envelope: Envelope<T>;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    throw new ApiError(response.statusText || 'error', response.status);
  }
  if (response.status !== 200 || envelope.success === false || envelope.code !== 200) throw new ApiError(envelope.message, response.status, envelope);
  return envelope;
}

/**
 * As uploadFile, through XMLHttpRequest so the console can show the upload's progress (0–100) — fetch
 * reports none. Large packages (app versions, 200 MB) use it.
 */
export function uploadWithProgress<T = unknown>(path: string, file: File, onProgress: (percent: number) => void): Promise<Envelope<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.open('POST', path);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', token);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    xhr.onerror = () => reject(new ApiError('network', 0));
    xhr.onload = () => {
      const fresh = xhr.getResponseHeader('authorization');
      if (fresh) setToken(fresh);
      let envelope: Envelope<T>;
      try {
        envelope = JSON.parse(xhr.responseText) as Envelope<T>;
      } catch {
        return reject(new ApiError(xhr.statusText || 'error', xhr.status));
      }
      if (xhr.status !== 200 || envelope.success === false || envelope.code !== 200) return reject(new ApiError(envelope.message, xhr.status, envelope));
      resolve(envelope);
    };
    xhr.send(form);
  });
}

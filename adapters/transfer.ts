/**
 * The transports beside the JSON envelope (adapters/http.ts), for the data provider's file calls: a
 * multipart upload with its progress (XMLHttpRequest: fetch reports none), a download of a file answer,
 * and a real form post into a hidden frame (the legacy export). Each sends the session token and takes a
 * fresh one from the answer and the console's language (`Accept-Language`); a refusal arrives as the
 * envelope and rejects with ApiError, its text in the console's language.
 */
import { ApiError, envelopeText, getToken, setToken, type Envelope } from './http';
import { currentLocale } from './i18nProvider';

export interface UploadOptions {
  /** Form fields sent before the file (an import's id, which the server reads before the file). */
  fields?: Record<string, string>;
  /** Bytes of the file sent so far, of all of them. */
  onProgress?: (sent: number, total: number) => void;
  /** The whole file has been sent: from here on the server works on it. */
  onUploaded?: () => void;
  /** Resolve with an HTTP 200 envelope even when it refuses (callers that show its text themselves). */
  raw?: boolean;
}

/** Sends one file as multipart form data (field `file`); resolves with the envelope. */
export function upload<T = unknown>(path: string, file: File, options: UploadOptions = {}): Promise<Envelope<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const form = new FormData();
    for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
    form.append('file', file, file.name);
    xhr.open('POST', path);
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', token);
    xhr.setRequestHeader('Accept-Language', currentLocale());
    const { onProgress, onUploaded } = options;
    if (onProgress) xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded, e.total);
    if (onUploaded) xhr.upload.onload = () => onUploaded();
    xhr.onerror = () => reject(new ApiError('network', 0));
    xhr.onload = () => {
      const fresh = xhr.getResponseHeader('authorization');
      if (fresh) setToken(fresh);
      let envelope: Envelope<T> | null = null;
      try {
        envelope = JSON.parse(xhr.responseText) as Envelope<T>;
      } catch {
        // Not the envelope: refused below with the status.
      }
      if (!envelope) return reject(new ApiError(xhr.statusText || 'error', xhr.status));
      if (xhr.status !== 200 || (!options.raw && (envelope.success === false || envelope.code !== 200))) return reject(new ApiError(envelopeText(envelope), xhr.status, envelope));
      resolve(envelope);
    };
    xhr.send(form);
  });
}

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

/** POSTs the body (GET without one) and saves the file the server answers under its name; a refusal rejects with ApiError. */
export async function download(path: string, body: unknown, fallback: string, method: 'GET' | 'POST' = 'POST'): Promise<void> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { 'Accept-Language': currentLocale(), ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}), ...(token ? { Authorization: token } : {}) },
      body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
    });
  } catch {
    throw new ApiError('network', 0);
  }
  const fresh = response.headers.get('authorization');
  if (fresh) setToken(fresh);
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || type.includes('json')) {
    const envelope = (await response.json().catch(() => null)) as Envelope | null;
    throw new ApiError((envelope && envelopeText(envelope)) || response.statusText, response.status, envelope ?? undefined);
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

/**
 * A real form post (the legacy export is a form post of the search json) into a hidden frame, so the
 * browser saves the answer as a download and the page stays; the token travels as a field.
 */
export function postForm(path: string, fields: Record<string, string>): void {
  const frame = document.createElement('iframe');
  frame.name = `download-${Date.now()}`;
  frame.hidden = true;
  document.body.appendChild(frame);
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = path;
  form.target = frame.name;
  form.hidden = true;
  for (const [name, value] of Object.entries({ ...fields, token: getToken() ?? '' })) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
  form.remove();
  // The frame only receives the file; it goes once the download has surely started.
  setTimeout(() => frame.remove(), 60_000);
}

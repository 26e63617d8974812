/**
 * Template download and the all-or-nothing Excel import of a list's toolbar (watch-list people, system
 * users): the file is checked here for type and size first (xlsx/xls, 2048 KB), the server checks
 * every row again, and a refused file shows every bad row with its number and reason.
 */
import { useRef, useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useLocaleState, useNotify, useRefresh, useTranslate } from 'react-admin';
import { ApiError, getToken } from '../../adapters/http';
import { extensionOf, uploadFile } from './upload/uploadFile';
import { importProblems } from './importText';

/** Spec 001 §5 and 002 §5: xlsx/xls up to 2048 KB. */
export const SHEET_LIMIT_BYTES = 2048 * 1024;

/** Saves what a POST answers as a file (a template or an export needing the session's token). */
export async function downloadFile(path: string, fileName: string, body: object = {}): Promise<boolean> {
  const res = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: getToken() ?? '' }, body: JSON.stringify(body) });
  if (!res.ok || !(res.headers.get('content-type') ?? '').includes('spreadsheet')) return false;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  URL.revokeObjectURL(url);
  return true;
}

/**
 * A real form post (spec 002 §7: the export is a form post of the search json) into a hidden frame, so
 * the browser saves the answer as a download and the page stays; the token travels as a field.
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
  for (const [name, value] of Object.entries(fields)) {
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

export interface SheetImportProps {
  /** i18n prefix of the texts: template, import, importing, imported, importFailed, badFormat, tooLarge. */
  ns: string;
  /** The template: a plain link when it is public, else fetched with the token. */
  template: { path: string; fileName: string; public?: boolean };
  importPath: string;
  /** data-testid prefix: <prefix>-template, -import, -import-file, -import-result. */
  testId: string;
  /** The resource the rows are checked as, whose field rules a refused row names (read back to the console's language). */
  resource?: string;
}

export function SheetImport({ ns, template, importPath, testId, resource }: SheetImportProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const refresh = useRefresh();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[] | null>(null);

  const pick = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    if (!['xlsx', 'xls'].includes(extensionOf(file.name))) return notify(translate(`${ns}.badFormat`), { type: 'warning' });
    if (file.size > SHEET_LIMIT_BYTES) return notify(translate(`${ns}.tooLarge`), { type: 'warning' });
    setBusy(true);
    try {
      const envelope = await uploadFile<{ imported: number }>(importPath, file);
      notify(translate(`${ns}.imported`, { count: envelope.data.imported }), { type: 'success' });
      refresh();
    } catch (error) {
      if (error instanceof ApiError && error.status !== 200) return;
      setProblems(await importProblems(translate, locale, resource, error instanceof Error ? error.message : String(error)));
    } finally {
      setBusy(false);
    }
  };

  const label = translate(`${ns}.template`);
  return (
    <>
      {template.public ? (
        <Button variant="outlined" startIcon={<DownloadIcon />} href={template.path} download={template.fileName} data-testid={`${testId}-template`}>
          {label}
        </Button>
      ) : (
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() => void downloadFile(template.path, template.fileName).then((ok) => ok || notify('sys.failed', { type: 'error' }))}
          data-testid={`${testId}-template`}
        >
          {label}
        </Button>
      )}
      <Button variant="outlined" startIcon={<UploadFileIcon />} disabled={busy} onClick={() => input.current?.click()} data-testid={`${testId}-import`}>
        {translate(busy ? `${ns}.importing` : `${ns}.import`)}
      </Button>
      <input ref={input} type="file" hidden accept=".xlsx,.xls" onChange={(e) => void pick(e.target.files?.[0])} data-testid={`${testId}-import-file`} />
      <Dialog open={problems !== null} onClose={() => setProblems(null)} maxWidth="sm" fullWidth data-testid={`${testId}-import-result`}>
        <DialogTitle>{translate(`${ns}.importFailed`)}</DialogTitle>
        <DialogContent dividers>
          <Alert severity="error" sx={{ mb: 1 }}>
            {problems?.[0]}
          </Alert>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {problems?.slice(1).map((line) => (
              <li key={line} data-testid="import-problem">
                {line}
              </li>
            ))}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setProblems(null)}>{translate('common.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

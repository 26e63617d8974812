/**
 * Template download and the all-or-nothing Excel import of a list's toolbar (watch-list people, system
 * users): the file is checked here for type and size first (xlsx/xls, 2048 KB), the server checks
 * every row again, and a refused file shows every bad row with its number and reason.
 */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { ApiError } from '../../adapters/http';
import { callUrl, type CallName } from '../../adapters/dataProvider';
import { SHEET_ACCEPT, isSheet } from './upload/uploadFile';
import { useFilePicker } from './upload/useFilePicker';
import { useApi } from './calls';
import { ImportRefusal, importReport, type ImportReport } from './ImportRefusal';

/** Spec 001 §5 and 002 §5: xlsx/xls up to 2048 KB. */
export const SHEET_LIMIT_BYTES = 2048 * 1024;

export interface SheetImportProps {
  /** i18n prefix of the texts: template, import, importing, imported, importFailed, badFormat, tooLarge. */
  ns: string;
  /** The template's call: a plain link when it is public, else fetched with the token. */
  template: { call: CallName; fileName: string; public?: boolean };
  /** The upload call of the import (a sheet import answers how many rows it imported). */
  importCall: Extract<CallName, `sheet.${string}Import`>;
  /** data-testid prefix: <prefix>-template, -import, -import-file, -import-result. */
  testId: string;
}

export function SheetImport({ ns, template, importCall, testId }: SheetImportProps) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const refresh = useRefresh();
  const [refused, setRefused] = useState<ImportReport | null>(null);

  const pick = async (file: File) => {
    if (!isSheet(file.name)) return notify(translate(`${ns}.badFormat`), { type: 'warning' });
    if (file.size > SHEET_LIMIT_BYTES) return notify(translate(`${ns}.tooLarge`), { type: 'warning' });
    try {
      const envelope = await api.upload(importCall, file);
      notify(translate(`${ns}.imported`, { count: envelope.data.imported }), { type: 'success' });
      refresh();
    } catch (error) {
      if (error instanceof ApiError && error.status !== 200) return;
      // The refusal and its bad rows, by code, in the console's language.
      setRefused(importReport(translate, error));
    }
  };
  const picker = useFilePicker({ accept: SHEET_ACCEPT, testId: `${testId}-import-file`, onFile: pick });

  const label = translate(`${ns}.template`);
  return (
    <>
      {template.public ? (
        <Button variant="outlined" startIcon={<DownloadIcon />} href={callUrl(template.call)} download={template.fileName} data-testid={`${testId}-template`}>
          {label}
        </Button>
      ) : (
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() => void api.download(template.call, {}, template.fileName).catch(() => notify('sys.failed', { type: 'error' }))}
          data-testid={`${testId}-template`}
        >
          {label}
        </Button>
      )}
      <Button variant="outlined" startIcon={<UploadFileIcon />} disabled={picker.busy} onClick={picker.choose} data-testid={`${testId}-import`}>
        {translate(picker.busy ? `${ns}.importing` : `${ns}.import`)}
      </Button>
      {picker.input}
      <Dialog open={refused !== null} onClose={() => setRefused(null)} maxWidth="sm" fullWidth data-testid={`${testId}-import-result`}>
        <DialogTitle>{translate(`${ns}.importFailed`)}</DialogTitle>
        <DialogContent dividers>{refused && <ImportRefusal report={refused} />}</DialogContent>
        <DialogActions>
          <Button onClick={() => setRefused(null)}>{translate('common.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

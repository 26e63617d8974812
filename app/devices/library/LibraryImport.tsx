/**
 * Description import of one library's fields (spec 001 §2.11, §5): a template, an xls/xlsx file up to
 * 100M checked here before it travels, and the server's answer — the count, or every bad row's number
 * and reason (nothing is imported then).
 */
import { useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import DownloadIcon from '@mui/icons-material/Download';
import { useNotify, useRefresh, useTranslate } from 'react-admin';
import { ApiError, envelopeText } from '../../../adapters/http';
import { importReportLines } from '../../components/ImportRefusal';
import { useCan } from '../../auth/useCan';
import { useApi } from '../../components/calls';
import { isSpreadsheet } from '../bulk/api';

/** Spec 001 §9: 100M. */
export const LIBRARY_IMPORT_MAX_BYTES = 100 * 1024 * 1024;

export function LibraryImport({ libraryId }: { libraryId: number }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const refresh = useRefresh();
  const canAdd = useCan('json_conf:add');
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  if (!canAdd) return null;

  const close = () => {
    if (busy) return;
    setFile(null);
    setResult(null);
    setOpen(false);
  };
  const pick = (chosen: File | undefined) => {
    setResult(null);
    setFile(null);
    if (!chosen) return;
    if (!isSpreadsheet(chosen.name)) return setResult({ ok: false, text: translate('library.badType') });
    if (chosen.size > LIBRARY_IMPORT_MAX_BYTES) return setResult({ ok: false, text: translate('library.tooLarge') });
    setFile(chosen);
  };
  const start = async () => {
    if (!file) return setResult({ ok: false, text: translate('library.fileRequired') });
    setBusy(true);
    setResult(null);
    try {
      const answer = await api.upload('sheet.libraryImport', file, { query: { fProductJsonId: libraryId } });
      setResult({ ok: true, text: envelopeText(answer) });
      refresh();
    } catch (error) {
      // Missing permissions and expired logins are announced by the shell.
      // A refused file: the refusal and every bad row, by code, in the console's language.
      if (!(error instanceof ApiError) || error.status === 200 || error.status === 0) setResult({ ok: false, text: importReportLines(translate, error).join('\n') });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  const template = () =>
    api.download('sheet.libraryTemplate', {}, 'library-fields-template.xlsx').catch((e: unknown) => notify(e instanceof Error ? e.message : String(e), { type: 'error' }));

  return (
    <>
      <Button variant="outlined" startIcon={<UploadFileIcon />} onClick={() => setOpen(true)} data-testid="library-import">
        {translate('library.import')}
      </Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="sm" data-testid="library-import-dialog">
        <DialogTitle>{translate('library.importTitle')}</DialogTitle>
        <DialogContent dividers>
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
            {translate('library.importHint')}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
            <Button variant="outlined" size="small" startIcon={<DownloadIcon />} onClick={() => void template()} data-testid="library-import-template">
              {translate('library.template')}
            </Button>
            <Button variant="contained" size="small" component="label" startIcon={<UploadFileIcon />} disabled={busy}>
              {translate('library.choose')}
              <input ref={input} hidden type="file" accept=".xlsx,.xls" onChange={(e) => pick(e.target.files?.[0])} data-testid="library-import-file" />
            </Button>
            <Typography variant="body2" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: 260 }}>
              {file?.name ?? ''}
            </Typography>
          </Box>
          {busy && (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 1 }}>
              <CircularProgress size={20} />
              <Typography variant="body2">{translate('library.importing')}</Typography>
            </Box>
          )}
          {result && (
            <Alert severity={result.ok ? 'success' : 'error'} sx={{ whiteSpace: 'pre-wrap', maxHeight: 280, overflow: 'auto' }} data-testid="library-import-result">
              {result.text}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>
            {translate('common.close')}
          </Button>
          <Button variant="contained" onClick={() => void start()} disabled={busy || !file} data-testid="library-import-submit">
            {translate('library.start')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

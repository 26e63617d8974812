/** Import dialog (spec §2, §5, §8): template, an xlsx/xls file up to 100M, 导入中...... while it runs, then the server's text. */
import { useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import DownloadIcon from '@mui/icons-material/Download';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import { BULK_PATHS, IMPORT_ACCEPT, IMPORT_MAX_BYTES, download, isSpreadsheet, uploadImport } from './api';
import { useOpenedOnce } from '../../components/useOpenedOnce';

export function ImportDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: () => void }) {
  const opened = useOpenedOnce(open);
  const translate = useTranslate();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  const close = () => {
    if (busy) return;
    setFile(null);
    setResult(null);
    onClose();
  };

  const pick = (chosen: File | undefined) => {
    setResult(null);
    if (!chosen) return;
    // The same checks as the server's, before a large file travels for nothing.
    if (!isSpreadsheet(chosen.name)) {
      setFile(null);
      setResult({ ok: false, text: translate('deviceBulk.badType') });
      return;
    }
    if (chosen.size > IMPORT_MAX_BYTES) {
      setFile(null);
      setResult({ ok: false, text: translate('deviceBulk.tooLarge') });
      return;
    }
    setFile(chosen);
  };

  const start = async () => {
    if (!file) {
      setResult({ ok: false, text: translate('deviceBulk.fileRequired') });
      return;
    }
    setBusy(true);
    setResult(null);
    try {
      const answer = await uploadImport(file);
      setResult({ ok: answer.success !== false && answer.code === 200, text: answer.message });
      if (answer.success !== false && (answer.data?.imported ?? 0) > 0) onImported();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 200 || error.status === 0) setResult({ ok: false, text: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  const template = () =>
    download(BULK_PATHS.template, {}, translate('deviceBulk.templateName')).catch((e: unknown) =>
      notify(translate('deviceBulk.downloadFailed', { message: e instanceof Error ? e.message : String(e) }), { type: 'error' }),
    );

  if (!opened) return null;
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" data-testid="device-import-dialog">
      <DialogTitle>{translate('deviceBulk.importTitle')}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
          {translate('deviceBulk.importHint')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
          <Button variant="outlined" size="small" startIcon={<DownloadIcon />} onClick={() => void template()} data-testid="device-import-template">
            {translate('deviceBulk.template')}
          </Button>
          <Button variant="contained" size="small" component="label" startIcon={<UploadFileIcon />} disabled={busy} data-testid="device-import-choose">
            {translate('deviceBulk.chooseFile')}
            <input ref={input} hidden type="file" accept={IMPORT_ACCEPT} onChange={(e) => pick(e.target.files?.[0])} data-testid="device-import-file" />
          </Button>
          <Typography variant="body2" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: 260 }} data-testid="device-import-filename">
            {file ? file.name : translate('deviceBulk.noFileChosen')}
          </Typography>
        </Box>
        {busy && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 1 }} data-testid="device-import-progress">
            <CircularProgress size={20} />
            <Typography variant="body2">{translate('deviceBulk.importing')}</Typography>
          </Box>
        )}
        {result && (
          <Alert severity={result.ok ? 'success' : 'error'} sx={{ whiteSpace: 'pre-wrap', maxHeight: 280, overflow: 'auto' }} data-testid="device-import-result">
            {result.text}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy} data-testid="device-import-close">
          {translate('deviceBulk.close')}
        </Button>
        <Button variant="contained" onClick={() => void start()} disabled={busy || !file} data-testid="device-import-submit">
          {translate('deviceBulk.startImport')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default ImportDialog;

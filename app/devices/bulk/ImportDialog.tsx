/**
 * Import dialog (spec §2, §5, §8): template, an xlsx/xls file up to 100M, then how far the import has got
 * — the upload's bytes, then the server's rows read and checked and rows written (its `deviceImport`
 * events, contract/deviceImport.ts) — and finally the server's text. The server writes all the rows or
 * none: a refused file lists its bad rows.
 */
import { useCallback, useRef, useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import DownloadIcon from '@mui/icons-material/Download';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import type { DeviceImportProgress } from '../../../contract/deviceImport';
import { IMPORT_ACCEPT, IMPORT_MAX_BYTES, importId, isSpreadsheet, uploadImport } from './api';
import { useApi } from '../../components/calls';
import { useOpenedOnce } from '../../components/useOpenedOnce';
import { importReportLines } from '../../components/ImportRefusal';
import { useDeviceImportEvents } from '../../platform';

/** Where an import is: its file on the way, or the server at work on it (its last progress event, if any came). */
type Stage = { kind: 'upload'; sent: number; total: number } | { kind: 'server'; progress: DeviceImportProgress | null };

/** The progress bar and its line for a stage. */
function StageView({ stage }: { stage: Stage }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const n = (value: number) => value.toLocaleString(locale);
  let value: number | null = null;
  let text: string;
  if (stage.kind === 'upload') {
    value = stage.total ? Math.min(100, (stage.sent / stage.total) * 100) : 0;
    text = translate('deviceBulk.uploading', { percent: Math.floor(value) });
  } else {
    const p = stage.progress;
    if (!p || p.phase === 'read') text = p ? translate('deviceBulk.checking', { read: n(p.read), checked: n(p.checked) }) : translate('deviceBulk.importing');
    else if (p.phase === 'wait') text = translate('deviceBulk.waiting');
    else {
      value = p.total ? Math.min(100, (p.written / p.total) * 100) : 100;
      text = translate('deviceBulk.writing', { written: n(p.written), total: n(p.total) });
    }
  }
  return (
    <Box sx={{ py: 1 }} data-testid="device-import-progress" data-stage={stage.kind === 'upload' ? 'upload' : stage.progress?.phase ?? 'server'}>
      <LinearProgress variant={value === null ? 'indeterminate' : 'determinate'} value={value ?? undefined} sx={{ mb: 1 }} />
      <Typography variant="body2" data-testid="device-import-progress-text">
        {text}
      </Typography>
    </Box>
  );
}

export function ImportDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: () => void }) {
  const opened = useOpenedOnce(open);
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [stage, setStage] = useState<Stage | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  /** The running import's id: only its events move the bar. */
  const running = useRef<string | null>(null);

  const onProgress = useCallback((p: DeviceImportProgress) => {
    // A refusal's rows come with the answer, which follows at once.
    if (p.id !== running.current || p.phase === 'failed') return;
    // The server's first event may overtake the upload's last report: it is through either way.
    setStage((now) => (now ? { kind: 'server', progress: p } : now));
  }, []);
  useDeviceImportEvents(onProgress, open);

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
    const id = importId();
    running.current = id;
    setStage({ kind: 'upload', sent: 0, total: file.size });
    try {
      const answer = await uploadImport(api, file, {
        id,
        onUpload: (sent, total) => setStage((now) => (now?.kind === 'upload' ? { kind: 'upload', sent, total } : now)),
        onUploaded: () => setStage((now) => (now?.kind === 'upload' ? { kind: 'server', progress: null } : now)),
      });
      const ok = answer.success !== false && answer.code === 200;
      if (ok && answer.data) setResult({ ok, text: translate('deviceBulk.imported', { total: answer.data.total, imported: answer.data.imported }) });
      // A refused file: every bad row, in the console's language where the words are the import's own.
      else setResult({ ok, text: importReportLines(translate, answer).join('\n') });
      if (ok && (answer.data?.imported ?? 0) > 0) onImported();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 200 || error.status === 0) setResult({ ok: false, text: error instanceof Error ? error.message : String(error) });
    } finally {
      running.current = null;
      setStage(null);
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  const template = () =>
    api.download('device.template', {}, translate('deviceBulk.templateName')).catch((e: unknown) =>
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
        {busy && stage && <StageView stage={stage} />}
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

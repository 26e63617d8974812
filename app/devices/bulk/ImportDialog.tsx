/**
 * Import dialog (spec 000 §2, §5, §8): template, an xlsx/xls file up to 100M, then how far the import has got
 * — the upload's bytes, then the server's rows read and checked and rows written (its `deviceImport`
 * events, contract/deviceImport.ts) — and finally the server's text. The server writes all the rows or
 * none: a refused file lists its bad rows.
 */
import { useCallback, useRef, useState } from 'react';
import { Box, LinearProgress, Typography } from '@mui/material';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import type { DeviceImportProgress } from '../../../contract/deviceImport';
import { IMPORT_MAX_BYTES, importId, uploadImport } from './api';
import { useApi } from '../../components/calls';
import { importReportLines } from '../../components/ImportRefusal';
import { SheetImportDialog, type ImportResult } from '../../components/SheetImportDialog';
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
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const [stage, setStage] = useState<Stage | null>(null);
  /** The running import's id: only its events move the bar. */
  const running = useRef<string | null>(null);

  const onProgress = useCallback((p: DeviceImportProgress) => {
    // A refusal's rows come with the answer, which follows at once.
    if (p.id !== running.current || p.phase === 'failed') return;
    // The server's first event may overtake the upload's last report: it is through either way.
    setStage((now) => (now ? { kind: 'server', progress: p } : now));
  }, []);
  useDeviceImportEvents(onProgress, open);

  const run = async (file: File): Promise<ImportResult | null> => {
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
      if (ok && (answer.data?.imported ?? 0) > 0) onImported();
      if (ok && answer.data) return { ok, text: translate('deviceBulk.imported', { total: answer.data.total, imported: answer.data.imported }) };
      // A refused file: every bad row, in the console's language where the words are the import's own.
      return { ok, text: importReportLines(translate, answer).join('\n') };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 200 || error.status === 0) return { ok: false, text: error instanceof Error ? error.message : String(error) };
      return null;
    } finally {
      running.current = null;
      setStage(null);
    }
  };

  const template = () =>
    api.download('device.template', {}, translate('deviceBulk.templateName')).catch((e: unknown) =>
      notify(translate('deviceBulk.downloadFailed', { message: e instanceof Error ? e.message : String(e) }), { type: 'error' }),
    );

  return (
    <SheetImportDialog
      open={open}
      onClose={onClose}
      ns="deviceBulk"
      noFileText
      maxBytes={IMPORT_MAX_BYTES}
      onTemplate={() => void template()}
      onImport={run}
      progress={stage && <StageView stage={stage} />}
      testId="device-import"
    />
  );
}

export default ImportDialog;

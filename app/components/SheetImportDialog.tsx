import { useRef, useState, type ReactNode } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogContent, DialogTitle, Typography } from '@mui/material';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import DownloadIcon from '@mui/icons-material/Download';
import { useTranslate } from 'react-admin';
import { useOpenedOnce } from './useOpenedOnce';
import { DialogFooter } from './DialogFooter';
import { SHEET_ACCEPT, isSheet } from './upload/uploadFile';

/** What an import answered: the count imported, or the refusal with every bad row. */
export type ImportResult = { ok: boolean; text: string };

export interface SheetImportDialogProps {
  open: boolean;
  onClose: () => void;
  /**
   * i18n prefix of the texts: importTitle, importHint, template, chooseFile, startImport, importing, and
   * the refusals of a file before it travels: badType, tooLarge, fileRequired.
   */
  ns: string;
  /** Beside the choose button while no file is chosen: <ns>.noFileChosen (default: nothing). */
  noFileText?: boolean;
  maxBytes: number;
  onTemplate: () => void;
  /** Imports the checked file: answers what to show, or null when the shell announced the failure. */
  onImport: (file: File) => Promise<ImportResult | null>;
  /** Shown while the import runs instead of a spinner with <ns>.importing (an upload's progress bar). */
  progress?: ReactNode;
  /** data-testid prefix: -dialog, -template, -choose, -file, -filename, -result, -close, -submit. */
  testId: string;
}

/**
 * A spreadsheet import (the devices, a library's fields): the template, an xlsx/xls file checked here
 * for type and size before it travels, then the server's answer. The dialog cannot be left while it runs.
 */
export function SheetImportDialog({ open, onClose, ns, noFileText = false, maxBytes, onTemplate, onImport, progress, testId }: SheetImportDialogProps) {
  const opened = useOpenedOnce(open);
  const translate = useTranslate();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);

  const close = () => {
    if (busy) return;
    setFile(null);
    setResult(null);
    onClose();
  };

  const pick = (chosen: File | undefined) => {
    setResult(null);
    setFile(null);
    if (!chosen) return;
    // The same checks as the server's, before a large file travels for nothing.
    if (!isSheet(chosen.name)) return setResult({ ok: false, text: translate(`${ns}.badType`) });
    if (chosen.size > maxBytes) return setResult({ ok: false, text: translate(`${ns}.tooLarge`) });
    setFile(chosen);
  };

  const start = async () => {
    if (!file) return setResult({ ok: false, text: translate(`${ns}.fileRequired`) });
    setBusy(true);
    setResult(null);
    try {
      const answer = await onImport(file);
      if (answer) setResult(answer);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  if (!opened) return null;
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" data-testid={`${testId}-dialog`}>
      <DialogTitle>{translate(`${ns}.importTitle`)}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
          {translate(`${ns}.importHint`)}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
          <Button variant="outlined" size="small" startIcon={<DownloadIcon />} onClick={onTemplate} data-testid={`${testId}-template`}>
            {translate(`${ns}.template`)}
          </Button>
          <Button variant="contained" size="small" component="label" startIcon={<UploadFileIcon />} disabled={busy} data-testid={`${testId}-choose`}>
            {translate(`${ns}.chooseFile`)}
            <input ref={input} hidden type="file" accept={SHEET_ACCEPT} onChange={(e) => pick(e.target.files?.[0])} data-testid={`${testId}-file`} />
          </Button>
          <Typography variant="body2" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: 260 }} data-testid={`${testId}-filename`}>
            {file?.name ?? (noFileText ? translate(`${ns}.noFileChosen`) : '')}
          </Typography>
        </Box>
        {busy &&
          (progress !== undefined ? (
            progress
          ) : (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 1 }}>
              <CircularProgress size={20} />
              <Typography variant="body2">{translate(`${ns}.importing`)}</Typography>
            </Box>
          ))}
        {result && (
          <Alert severity={result.ok ? 'success' : 'error'} sx={{ whiteSpace: 'pre-wrap', maxHeight: 280, overflow: 'auto' }} data-testid={`${testId}-result`}>
            {result.text}
          </Alert>
        )}
      </DialogContent>
      <DialogFooter
        onCancel={close}
        cancelLabel="common.close"
        cancelTestId={`${testId}-close`}
        onSubmit={() => void start()}
        submitLabel={`${ns}.startImport`}
        submitTestId={`${testId}-submit`}
        busy={busy}
        spinner={false}
        submitDisabled={!file}
      />
    </Dialog>
  );
}

export default SheetImportDialog;

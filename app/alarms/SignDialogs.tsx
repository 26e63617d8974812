/**
 * Sign-off of alarms: one alarm with a handling note (the dialog closes and the list reloads only when
 * the server answers code 200 with success; otherwise it stays open with the server's message), several
 * chosen alarms with one note (each row's result listed), and the alarm photo (400 px high).
 */
import { useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem, ListItemText, TextField } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError, call } from '../../adapters/http';
import { imageUrl } from '../components/api';
import { alarmsSigned } from './AlarmSummary';

export const SIGN_PATH = '/biz/t-alarm/signing';
export const SIGN_BATCH_PATH = '/biz/t-alarm/signingBatch';
const NOTE_MAX = 500;
export const PHOTO_HEIGHT = 400;

type Row = Record<string, unknown>;

function NoteField({ value, onChange, error }: { value: string; onChange: (v: string) => void; error?: string }) {
  const translate = useTranslate();
  return (
    <TextField
      autoFocus
      fullWidth
      multiline
      minRows={4}
      label={translate('alarms.sign.note')}
      placeholder={translate('alarms.sign.notePlaceholder')}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={!!error}
      helperText={error ?? `${value.length}/${NOTE_MAX}`}
      slotProps={{ htmlInput: { maxLength: NOTE_MAX, 'data-testid': 'sign-note' } }}
      sx={{ mt: 1 }}
    />
  );
}

const messageOf = (error: unknown) => (error instanceof ApiError || error instanceof Error ? error.message : String(error));

export function SignDialog({ row, onClose, onSigned }: { row: Row | null; onClose: () => void; onSigned: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const close = () => {
    setNote('');
    setError(undefined);
    onClose();
  };
  const submit = async () => {
    if (!note.trim()) return setError(translate('alarms.sign.noteRequired'));
    setBusy(true);
    try {
      const answer = await call(SIGN_PATH, { fId: row!.fId, fRemark: row!.fRemark ?? '', fPhotoUrl: row!.fPhotoUrl ?? '', fHandleContent: note.trim() }, { quiet: true });
      if (answer.code === 200 && answer.success) {
        notify('alarms.sign.done', { type: 'success' });
        alarmsSigned();
        setNote('');
        setError(undefined);
        onSigned();
      }
    } catch (e) {
      // The dialog stays open: the note is not lost, and the reason is shown where the user looks.
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={!!row} onClose={close} fullWidth maxWidth="sm" data-testid="sign-dialog">
      <DialogTitle>{translate('alarms.sign.title')}</DialogTitle>
      <DialogContent>
        <NoteField value={note} onChange={(v) => { setNote(v); setError(undefined); }} error={error} />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('common.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={busy} data-testid="sign-submit">
          {translate('alarms.sign.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

interface BatchResult {
  fId: number;
  success: boolean;
  message: string;
}

export function BatchSignDialog({ rows, onClose, onDone }: { rows: Row[] | null; onClose: () => void; onDone: () => void }) {
  const translate = useTranslate();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<BatchResult[] | null>(null);
  const close = () => {
    if (results) onDone();
    setNote('');
    setError(undefined);
    setResults(null);
    onClose();
  };
  const submit = async () => {
    if (!note.trim()) return setError(translate('alarms.sign.noteRequired'));
    setBusy(true);
    try {
      const answer = await call<{ results: BatchResult[] }>(SIGN_BATCH_PATH, { ids: rows!.map((r) => r.fId), fHandleContent: note.trim() }, { quiet: true });
      setResults(answer.data.results);
      if (answer.data.results.some((r) => r.success)) alarmsSigned();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const label = (id: number) => {
    const r = rows?.find((x) => x.fId === id);
    return r ? [r.fHouseName, r.fRoomName, r.fAlarmTime].filter(Boolean).join(' · ') : `#${id}`;
  };
  return (
    <Dialog open={!!rows} onClose={close} fullWidth maxWidth="sm" data-testid="batch-sign-dialog">
      <DialogTitle>{translate('alarms.sign.batchTitle', { count: rows?.length ?? 0 })}</DialogTitle>
      <DialogContent>
        {results ? (
          <>
            <Alert severity={results.every((r) => r.success) ? 'success' : 'warning'} sx={{ mb: 1 }} data-testid="batch-sign-summary">
              {translate('alarms.sign.batchSummary', { signed: results.filter((r) => r.success).length, failed: results.filter((r) => !r.success).length })}
            </Alert>
            <List dense>
              {results.map((r) => (
                <ListItem key={r.fId} data-testid="batch-sign-result" data-success={r.success ? 1 : 0}>
                  <ListItemText primary={label(r.fId)} secondary={r.success ? translate('alarms.sign.done') : r.message} slotProps={{ secondary: { color: r.success ? 'success.main' : 'error.main' } }} />
                </ListItem>
              ))}
            </List>
          </>
        ) : (
          <NoteField value={note} onChange={(v) => { setNote(v); setError(undefined); }} error={error} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} data-testid="batch-sign-close">{translate(results ? 'common.close' : 'common.cancel')}</Button>
        {!results && (
          <Button variant="contained" onClick={submit} disabled={busy} data-testid="batch-sign-submit">
            {translate('alarms.sign.submit')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

export function PhotoDialog({ url, onClose }: { url: string | null; onClose: () => void }) {
  const translate = useTranslate();
  return (
    <Dialog open={!!url} onClose={onClose} maxWidth="md" data-testid="photo-dialog">
      <DialogTitle>{translate('alarms.photo.title')}</DialogTitle>
      <DialogContent>
        <Box sx={{ textAlign: 'center' }}>{url && <img src={imageUrl(url) ?? ''} alt={translate('alarms.photo.title')} style={{ height: PHOTO_HEIGHT, maxWidth: '100%', objectFit: 'contain' }} data-testid="photo-image" />}</Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Sign-off of alarms: one alarm with a handling note (the shared sign-off dialog), several chosen
 * alarms with one note (each row's result listed), and the alarm photo (400 px high).
 */
import { useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem, ListItemText } from '@mui/material';
import { useTranslate } from 'react-admin';
import { reasonText } from '../../../adapters/i18nProvider';
import type { CallAnswer } from '../../../adapters/dataProvider';
import { imageUrl } from '../../components/api';
import { NoteField, signOffFailure, useSignOff } from '../../components/SignOffDialog';
import { useApi } from '../../components/calls';
import { alarmsSigned } from './AlarmSummary';

export const PHOTO_HEIGHT = 400;

type Row = Record<string, unknown>;

/** One alarm's sign-off; the legacy dialog sends the row's description and photo back with the note. */
export const useAlarmSignOff = (onSigned: () => void) =>
  useSignOff({
    call: 'alarm.signing',
    title: 'alarms.sign.title',
    extra: (r) => ({ fRemark: r.fRemark ?? '', fPhotoUrl: r.fPhotoUrl ?? '' }),
    onSigned: () => {
      alarmsSigned();
      onSigned();
    },
  });

/** Each alarm's outcome: `message` in the legacy words, `reason` the same by code. */
type BatchResult = CallAnswer<'alarm.signingBatch'>['results'][number];

/** Signs the chosen alarms with one note and lists each one's result; `onDone` runs once the server has answered (reload the list there). */
export function BatchSignDialog({ rows, onClose, onDone }: { rows: Row[] | null; onClose: () => void; onDone: () => void }) {
  const translate = useTranslate();
  const api = useApi();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<BatchResult[] | null>(null);
  const close = () => {
    setNote('');
    setError(undefined);
    setResults(null);
    onClose();
  };
  const submit = async () => {
    if (!note.trim()) return setError(translate('common.signOff.noteRequired'));
    setBusy(true);
    try {
      const answer = await api.call('alarm.signingBatch', { ids: rows!.map((r) => Number(r.fId)), fHandleContent: note.trim() });
      setResults(answer.data.results);
      if (answer.data.results.some((r) => r.success)) alarmsSigned();
      // Signed here or by someone else meanwhile: the list behind the results is stale at once.
      onDone();
    } catch (e) {
      setError(signOffFailure(translate, e));
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
                  <ListItemText primary={label(r.fId)} secondary={r.success ? translate('common.signOff.done') : r.reason ? reasonText(r.reason) : r.message} slotProps={{ secondary: { color: r.success ? 'success.main' : 'error.main' } }} />
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
            {translate('common.signOff.submit')}
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

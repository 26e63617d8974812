/**
 * Sign-off with a handling note (spec 001 §4), for every signable list: alarms, one-touch alerts and
 * feedback. The note is required; the dialog closes only when the server answers code 200 with success,
 * and otherwise stays open with the server's reason and the note as typed.
 */
import { useState, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { call } from '../../adapters/http';
import { NOTE_MAX } from '../../adapters/signOff';
import { signOffFailure } from './signOffText';

type Row = Record<string, unknown>;

export function NoteField({ value, onChange, error }: { value: string; onChange: (v: string) => void; error?: string }) {
  const translate = useTranslate();
  return (
    <TextField
      autoFocus
      fullWidth
      multiline
      minRows={4}
      required
      label={translate('common.signOff.note')}
      placeholder={translate('common.signOff.notePlaceholder')}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={!!error}
      helperText={error ?? `${value.length}/${NOTE_MAX}`}
      slotProps={{ htmlInput: { maxLength: NOTE_MAX, 'data-testid': 'sign-note' } }}
      sx={{ mt: 1 }}
    />
  );
}

/**
 * Sends `{ fId, ...extra(row), fHandleContent }` to `path`. `title` is the i18n key of the dialog's
 * title (报警签收, 反馈签收, …); `onSigned` runs after a successful sign-off (close it and reload there).
 */
export function SignOffDialog({ row, path, title, extra, onClose, onSigned }: { row: Row | null; path: string; title: string; extra?: (row: Row) => Row; onClose: () => void; onSigned: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const reset = () => {
    setNote('');
    setError(undefined);
  };
  const close = () => {
    reset();
    onClose();
  };
  const submit = async () => {
    if (!note.trim()) return setError(translate('common.signOff.noteRequired'));
    setBusy(true);
    try {
      // Not quiet: an expired login is announced and leads to the login page, as everywhere (spec 001 §8).
      const answer = await call(path, { fId: row!.fId, ...extra?.(row!), fHandleContent: note.trim() });
      if (answer.code === 200 && answer.success) {
        notify('common.signOff.done', { type: 'success' });
        reset();
        onSigned();
      }
    } catch (e) {
      // The dialog stays open: the note is not lost, and the reason is shown where the user looks, in the
      // console's language.
      setError(signOffFailure(translate, e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={!!row} onClose={close} fullWidth maxWidth="sm" data-testid="sign-dialog">
      <DialogTitle>{translate(title)}</DialogTitle>
      <DialogContent>
        <NoteField value={note} onChange={(v) => { setNote(v); setError(undefined); }} error={error} />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('common.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={busy} data-testid="sign-submit">
          {translate('common.signOff.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * A list's sign-off: `open(row)` shows the dialog for the row; `dialog` is rendered once by the list.
 * After a successful sign-off the dialog closes and `onSigned` runs (reload the list there).
 */
export function useSignOff({ path, title, extra, onSigned }: { path: string; title: string; extra?: (row: Row) => Row; onSigned: () => void }): { open: (row: Row) => void; dialog: ReactNode } {
  const [row, setRow] = useState<Row | null>(null);
  const dialog = (
    <SignOffDialog
      row={row}
      path={path}
      title={title}
      extra={extra}
      onClose={() => setRow(null)}
      onSigned={() => {
        setRow(null);
        onSigned();
      }}
    />
  );
  return { open: setRow, dialog };
}

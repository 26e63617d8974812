/**
 * Sign-off with a handling note (spec 001 §4), for every signable list: alarms, one-touch alerts and
 * feedback. The note is required; the dialog closes only when the server answers code 200 with success,
 * and otherwise stays open with the server's reason (in the console's language, by its code) and the note
 * as typed. A row someone else signed meanwhile reloads the list behind the dialog.
 */
import { useState, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../adapters/http';
import type { CallName } from '../../adapters/dataProvider';
import { useApi } from './calls';
import type { ReasonCode } from '../../contract/reasons';
import { NOTE_MAX } from '../../contract/signOff';

type Row = Record<string, unknown>;
type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * An expired login, a missing permission and a server fault read as the shell announces them; a server
 * that could not be reached (status 0) as a sentence saying so, not the transport's word.
 */
const STATUS: Record<number, string> = { 0: 'errors.network', 700: 'errors.expired', 401: 'errors.noPermission', 500: 'errors.server' };

/** The refusals of a row signed by someone else meanwhile: the list behind the dialog is stale. */
export const ALREADY_SIGNED: ReadonlySet<ReasonCode> = new Set<ReasonCode>(['alarm.alreadySigned', 'feedback.alreadySigned']);

/** What a sign-off dialog shows for the error its call threw (a refusal's words are already the console's). */
export function signOffFailure(translate: Translate, error: unknown): string {
  if (error instanceof ApiError && STATUS[error.status]) return translate(STATUS[error.status]);
  return error instanceof Error ? error.message : String(error);
}

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
 * Sends `{ fId, ...extra(row), fHandleContent }` to the call `call`. `title` is the i18n key of the dialog's
 * title (报警签收, 反馈签收, …); `onSigned` runs after a successful sign-off (close it and reload there);
 * `onStale` when the row turns out signed already (reload the list; the dialog stays with the reason).
 */
export function SignOffDialog({ row, call, title, extra, onClose, onSigned, onStale }: { row: Row | null; call: CallName; title: string; extra?: (row: Row) => Row; onClose: () => void; onSigned: () => void; onStale?: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const api = useApi();
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
      const answer = await api.call(call, { fId: row!.fId, ...extra?.(row!), fHandleContent: note.trim() });
      if (answer.code === 200 && answer.success) {
        notify('common.signOff.done', { type: 'success' });
        reset();
        onSigned();
      }
    } catch (e) {
      // The dialog stays open: the note is not lost, and the reason is shown where the user looks, in the
      // console's language.
      setError(signOffFailure(translate, e));
      if (e instanceof ApiError && e.code && ALREADY_SIGNED.has(e.code)) onStale?.();
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
export function useSignOff({ call, title, extra, onSigned }: { call: CallName; title: string; extra?: (row: Row) => Row; onSigned: () => void }): { open: (row: Row) => void; dialog: ReactNode } {
  const [row, setRow] = useState<Row | null>(null);
  const dialog = (
    <SignOffDialog
      row={row}
      call={call}
      title={title}
      extra={extra}
      onClose={() => setRow(null)}
      onSigned={() => {
        setRow(null);
        onSigned();
      }}
      onStale={onSigned}
    />
  );
  return { open: setRow, dialog };
}

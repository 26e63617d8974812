import { useCallback, useRef, useState } from 'react';
import { Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ApiError } from '../../../../adapters/http';
import { useApi } from '../../../components/calls';

export interface LoginPasswordDialogProps {
  open: boolean;
  onClose: () => void;
  /** Runs once the server accepted the password, just before the dialog closes. */
  onVerified: () => void;
}

/**
 * Asks for the login password of the current account before a sensitive command (spec §4): the server
 * checks it (session.checkPassword) and then accepts sensitive commands for a few minutes.
 */
export function LoginPasswordDialog({ open, onClose, onVerified }: LoginPasswordDialogProps) {
  const translate = useTranslate();
  const api = useApi();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const close = () => {
    if (busy) return;
    setPassword('');
    setError(undefined);
    onClose();
  };

  const submit = async () => {
    if (busy) return;
    if (!password) {
      setError(translate('deviceTab.password.required'));
      return;
    }
    setBusy(true);
    try {
      await api.call('session.checkPassword', { password });
      setBusy(false);
      setPassword('');
      setError(undefined);
      onVerified();
      onClose();
    } catch (e) {
      setBusy(false);
      if (e instanceof ApiError && e.status !== 200) return;
      setError(e instanceof Error && e.message ? e.message : translate('deviceTab.password.failed'));
    }
  };

  return (
    <Dialog open={open} onClose={close} maxWidth="xs" fullWidth data-testid="login-password-dialog">
      <DialogTitle>{translate('deviceTab.password.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1 }}>{translate('deviceTab.password.hint')}</DialogContentText>
        <TextField
          type="password"
          autoFocus
          fullWidth
          size="small"
          label={translate('deviceTab.password.label')}
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setError(undefined);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void submit();
          }}
          error={Boolean(error)}
          helperText={error ?? ' '}
          autoComplete="current-password"
          slotProps={{ htmlInput: { 'data-testid': 'login-password-input' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={busy} data-testid="login-password-cancel">
          {translate('common.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid="login-password-ok"
        >
          {translate('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * One password dialog for a screen: `guard(action)` opens it and runs the action once the password is
 * accepted; `onCancel` (optional) lets a caller undo an optimistic change when the user backs out.
 */
export function useLoginPassword() {
  const pending = useRef<{ action: () => void; onCancel?: () => void } | null>(null);
  const [open, setOpen] = useState(false);
  const guard = useCallback((action: () => void, onCancel?: () => void) => {
    pending.current = { action, onCancel };
    setOpen(true);
  }, []);
  const dialog = (
    <LoginPasswordDialog
      open={open}
      onVerified={() => {
        const p = pending.current;
        pending.current = null;
        p?.action();
      }}
      onClose={() => {
        setOpen(false);
        // Still pending means the dialog was dismissed without a verified password.
        const p = pending.current;
        pending.current = null;
        p?.onCancel?.();
      }}
    />
  );
  return { guard, dialog };
}

export default LoginPasswordDialog;

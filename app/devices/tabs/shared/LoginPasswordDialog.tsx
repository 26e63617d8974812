import { useCallback, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { ApiError } from '../../../../adapters/http';
import { useApi } from '../../../components/calls';
import { PromptDialog } from '../../../components/PromptDialog';

export interface LoginPasswordDialogProps {
  open: boolean;
  onClose: () => void;
  /** Runs once the server accepted the password, just before the dialog closes. */
  onVerified: () => void;
}

/**
 * Asks for the login password of the current account before a sensitive command (spec 000 §4): the server
 * checks it (session.checkPassword) and then accepts sensitive commands for a few minutes.
 */
export function LoginPasswordDialog({ open, onClose, onVerified }: LoginPasswordDialogProps) {
  const translate = useTranslate();
  const api = useApi();

  const verify = async (password: string) => {
    try {
      await api.call('session.checkPassword', { password });
      onVerified();
      onClose();
    } catch (e) {
      if (e instanceof ApiError && e.status !== 200) return undefined;
      return e instanceof Error && e.message ? e.message : translate('deviceTab.password.failed');
    }
  };

  return (
    <PromptDialog
      open={open}
      title={translate('deviceTab.password.title')}
      hint={translate('deviceTab.password.hint')}
      type="password"
      autoComplete="current-password"
      label={translate('deviceTab.password.label')}
      check={(password) => (password ? undefined : translate('deviceTab.password.required'))}
      onSubmit={verify}
      onClose={onClose}
      testIds={{ dialog: 'login-password-dialog', input: 'login-password-input', cancel: 'login-password-cancel', submit: 'login-password-ok' }}
    />
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

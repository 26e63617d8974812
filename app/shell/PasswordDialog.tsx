/** Changing one's own password; the session ends about 600 ms after the server accepts it. */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useLogout, useNotify } from 'react-admin';
import { envelopeText } from '../../adapters/http';
import { useApi } from '../components/calls';
import { RuleField } from '../components/RuleField';
import { AccountFormDialog } from './AccountFormDialog';
import { confirmError, passwordError } from './rules';

const LOGOUT_DELAY_MS = 600;
/** A refused dialog keeps its busy state a moment, like the legacy modals, against double submits. */
const LOADING_RESET_MS = 300;

export function PasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const notify = useNotify();
  const logout = useLogout();
  const api = useApi();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setPassword('');
    setConfirm('');
    setErrors({});
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = { password: passwordError(password), confirm: confirmError(password, confirm) };
    setErrors(found);
    if (found.password || found.confirm) return;
    setBusy(true);
    try {
      const answer = await api.call('session.changePassword', { fPassword: password }, { raw: true });
      if (answer.code === 200 && answer.success !== false) {
        notify('password.success', { type: 'success' });
        reset();
        onClose();
        setTimeout(() => logout(), LOGOUT_DELAY_MS);
      } else {
        notify(envelopeText(answer) || 'ra.notification.http_error', { type: 'error' });
      }
    } catch (error) {
      // 700, 401 and 500 are announced by the shell; anything else is shown here.
      const status = (error as { status?: number }).status;
      if (status !== 700 && status !== 401 && status !== 500)
        notify((error as Error).message || 'ra.notification.http_error', { type: 'error' });
    } finally {
      setTimeout(() => setBusy(false), LOADING_RESET_MS);
    }
  };

  const close = () => {
    reset();
    onClose();
  };

  return (
    <AccountFormDialog open={open} onClose={close} ns="password" onSubmit={submit} busy={busy} spacing={2}>
      <RuleField type="password" label="password.newPassword" value={password} onChange={setPassword} error={errors.password} autoComplete="new-password" autoFocus required testId="password-new" />
      <RuleField type="password" label="password.confirmPassword" value={confirm} onChange={setConfirm} error={errors.confirm} autoComplete="new-password" required testId="password-confirm" />
    </AccountFormDialog>
  );
}

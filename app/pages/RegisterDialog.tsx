/**
 * Self-registration of a staff user (spec 002 §3, §5): name, phone, password and its confirmation. A
 * refused form stays open with its messages; so does a refusal from the server, whose message is shown.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useNotify } from 'react-admin';
import { envelopeText } from '../../adapters/http';
import { useApi } from '../components/calls';
import { RuleField } from '../components/RuleField';
import { AccountFormDialog } from '../shell/AccountFormDialog';
import { confirmError, passwordError, phoneError, PHONE_MAX_LENGTH } from '../shell/rules';

/** The role every self-registered user receives; the server may map it to its own default role. */
export const DEFAULT_ROLE_ID = 2;
const LOADING_RESET_MS = 300;

type Field = 'name' | 'phone' | 'password' | 'confirm';
const EMPTY: Record<Field, string> = { name: '', phone: '', password: '', confirm: '' };

/** The legacy payload: the four fields, staff type, ordinary user, the default role, the rest empty. */
export function registerPayload(values: Record<Field, string>) {
  return {
    fChineseName: values.name.trim(),
    fPhone: values.phone.trim(),
    fPassword: values.password,
    passwordCheck: values.confirm,
    fUserType: 1,
    fAdmin: 0,
    roles: [DEFAULT_ROLE_ID],
    fAreaIds: '',
    schoolids: '',
    streets: '',
    fExpireTime: '',
    idcardFront: '',
    idcardBack: '',
    workAddress: '',
    workUnit: '',
    workType: '',
    macAddress: '',
    ipAddress: '',
    idcard: '',
    description: '',
    department: '',
    fPic: '',
    status: '',
  };
}

export function RegisterDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const api = useApi();
  const notify = useNotify();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);

  const close = () => {
    setValues(EMPTY);
    setErrors({});
    onClose();
  };

  const validate = (v: Record<Field, string>) => ({
    name: v.name.trim() ? undefined : 'register.nameRequired',
    phone: phoneError(v.phone),
    password: passwordError(v.password),
    confirm: confirmError(v.password, v.confirm),
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    try {
      const answer = await api.call('session.register', registerPayload(values), { raw: true });
      if (answer.code === 200 && answer.success !== false) {
        notify('register.success', { type: 'success' });
        close();
      } else {
        notify(envelopeText(answer) || 'ra.notification.http_error', { type: 'error' });
      }
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== 401 && status !== 500) notify((error as Error).message || 'ra.notification.http_error', { type: 'error' });
    } finally {
      setTimeout(() => setBusy(false), LOADING_RESET_MS);
    }
  };

  const field = (name: Field, label: string, extra: { type?: string; autoComplete?: string; maxLength?: number } = {}) => (
    <RuleField
      label={label}
      value={values[name]}
      type={extra.type ?? 'text'}
      autoComplete={extra.autoComplete}
      required
      onChange={(value) => setValues((v) => ({ ...v, [name]: value }))}
      error={errors[name]}
      testId={`register-${name}`}
      htmlInput={{ maxLength: extra.maxLength }}
    />
  );

  return (
    <AccountFormDialog open={open} onClose={close} ns="register" onSubmit={submit} busy={busy} spacing={1}>
      {field('name', 'register.name', { autoComplete: 'name' })}
      {field('phone', 'register.phone', { autoComplete: 'tel', maxLength: PHONE_MAX_LENGTH })}
      {field('password', 'register.password', { type: 'password', autoComplete: 'new-password' })}
      {field('confirm', 'register.confirm', { type: 'password', autoComplete: 'new-password' })}
    </AccountFormDialog>
  );
}

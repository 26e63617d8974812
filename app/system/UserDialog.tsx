import { useEffect, useState } from 'react';
import { Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, ListItemText, MenuItem, Stack, TextField } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { request } from '../devices/tabs/timers/api';
import { PHONE, ROLE_PATHS, USER_PATHS, type RoleRow, type UserRow } from './api';
import { useLoad } from './shared';

export type UserMode = 'add' | 'edit' | 'view';

interface Draft {
  fAdmin: number | '';
  fChineseName: string;
  fPhone: string;
  roles: number[];
  fPassword: string;
  passwordCheck: string;
}

const EMPTY: Draft = { fAdmin: 0, fChineseName: '', fPhone: '', roles: [], fPassword: '', passwordCheck: '' };

/** Spec 002 §5: the user form's rules, in the order the server checks them. */
function validate(d: Draft, mode: UserMode): Partial<Record<keyof Draft, string>> {
  const e: Partial<Record<keyof Draft, string>> = {};
  if (d.fAdmin === '') e.fAdmin = 'sys.user.adminRequired';
  if (!d.fChineseName.trim()) e.fChineseName = 'sys.user.nameRequired';
  if (!d.fPhone.trim()) e.fPhone = 'sys.user.phoneRequired';
  else if (!PHONE.test(d.fPhone.trim())) e.fPhone = 'sys.user.phoneFormat';
  if (!d.roles.length) e.roles = 'sys.user.rolesRequired';
  if (mode === 'add' && !d.fPassword) e.fPassword = 'sys.user.passwordRequired';
  else if (d.fPassword && d.fPassword.length < 6) e.fPassword = 'sys.user.passwordLength';
  if (d.fPassword && d.passwordCheck !== d.fPassword) e.passwordCheck = 'sys.user.mismatch';
  return e;
}

export function UserDialog({ mode, row, onClose, onSaved }: { mode: UserMode | null; row: UserRow | null; onClose: () => void; onSaved: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const open = mode !== null;
  const { data: roles } = useLoad<RoleRow[]>(ROLE_PATHS.all, {}, open, []);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const [busy, setBusy] = useState(false);
  const readOnly = mode === 'view';

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setDraft(row ? { fAdmin: row.fAdmin, fChineseName: row.fChineseName, fPhone: row.fPhone, roles: row.roles ?? [], fPassword: '', passwordCheck: '' } : EMPTY);
  }, [open, row]);

  const set = <K extends keyof Draft>(k: K) => (v: Draft[K]) => setDraft((d) => ({ ...d, [k]: v }));

  const submit = async () => {
    // In view mode the confirm button only closes.
    if (readOnly) return onClose();
    const e = validate(draft, mode!);
    setErrors(e);
    if (Object.keys(e).length) return;
    setBusy(true);
    const res = await request(USER_PATHS.save, { ...(row ? { fId: row.fId } : {}), ...draft, fChineseName: draft.fChineseName.trim(), fPhone: draft.fPhone.trim() });
    setBusy(false);
    if (res.ok) {
      notify(translate('sys.saved'), { type: 'success' });
      onSaved();
      onClose();
    } else if (!res.announced) notify(res.message || translate('sys.failed'), { type: 'error' });
  };

  const err = (k: keyof Draft) => (errors[k] ? translate(errors[k]!) : undefined);
  const title = mode === 'add' ? 'sys.user.addTitle' : mode === 'edit' ? 'sys.user.editTitle' : 'sys.user.viewTitle';
  const roleName = (id: number) => roles.find((r) => r.id === id)?.name ?? row?.roleids.find((r) => r.id === id)?.name ?? String(id);

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth data-testid="user-dialog">
      <DialogTitle>{translate(title)}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField select required label={translate('sys.user.fAdmin')} value={draft.fAdmin} disabled={readOnly} onChange={(e) => set('fAdmin')(e.target.value === '' ? '' : Number(e.target.value))} error={!!errors.fAdmin} helperText={err('fAdmin')} slotProps={{ htmlInput: { 'data-testid': 'user-form-admin' } }}>
            {[0, 1, 2].map((k) => (
              <MenuItem key={k} value={k}>
                {translate(`sys.user.kinds.${k}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField required label={translate('sys.user.name')} value={draft.fChineseName} disabled={readOnly} onChange={(e) => set('fChineseName')(e.target.value)} error={!!errors.fChineseName} helperText={err('fChineseName')} slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'user-form-name' } }} />
          <TextField required label={translate('sys.user.phone')} value={draft.fPhone} disabled={readOnly} onChange={(e) => set('fPhone')(e.target.value)} error={!!errors.fPhone} helperText={err('fPhone')} slotProps={{ htmlInput: { maxLength: 11, 'data-testid': 'user-form-phone' } }} />
          <TextField
            select
            required
            label={translate('sys.user.roles')}
            value={draft.roles}
            disabled={readOnly}
            onChange={(e) => set('roles')((e.target.value as unknown as number[]).map(Number))}
            error={!!errors.roles}
            helperText={err('roles')}
            slotProps={{ select: { multiple: true, renderValue: (v) => (v as number[]).map(roleName).join('、') }, htmlInput: { 'data-testid': 'user-form-roles' } }}
          >
            {roles.map((r) => (
              <MenuItem key={r.id} value={r.id} data-testid={`user-form-role-${r.alias}`}>
                <Checkbox size="small" checked={draft.roles.includes(r.id)} />
                <ListItemText primary={r.name} secondary={r.alias} />
              </MenuItem>
            ))}
          </TextField>
          {!readOnly && (
            <>
              <TextField type="password" autoComplete="new-password" required={mode === 'add'} label={translate('sys.user.password')} placeholder={mode === 'edit' ? translate('sys.user.passwordHint') : undefined} value={draft.fPassword} onChange={(e) => set('fPassword')(e.target.value)} error={!!errors.fPassword} helperText={err('fPassword') ?? (mode === 'edit' ? translate('sys.user.passwordHint') : undefined)} slotProps={{ htmlInput: { 'data-testid': 'user-form-password' } }} />
              <TextField type="password" autoComplete="new-password" required={mode === 'add'} label={translate('sys.user.passwordCheck')} value={draft.passwordCheck} onChange={(e) => set('passwordCheck')(e.target.value)} error={!!errors.passwordCheck} helperText={err('passwordCheck')} slotProps={{ htmlInput: { 'data-testid': 'user-form-password-check' } }} />
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        {!readOnly && (
          <Button onClick={onClose} data-testid="user-form-cancel">
            {translate('common.cancel')}
          </Button>
        )}
        <Button variant="contained" onClick={() => void submit()} disabled={busy} data-testid="user-form-submit">
          {translate('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

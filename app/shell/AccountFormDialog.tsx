import type { FormEvent, ReactNode } from 'react';
import { Dialog, DialogContent, DialogTitle, Stack } from '@mui/material';
import { useTranslate } from 'react-admin';
import { DialogFooter } from '../components/DialogFooter';

export interface AccountFormDialogProps {
  open: boolean;
  onClose: () => void;
  /** i18n prefix of the title, cancel and submit texts, and the test ids' prefix (<ns>-dialog, -cancel, -submit). */
  ns: string;
  onSubmit: (event: FormEvent) => void;
  /** The submit waits (its call runs, or a refused form's pause against double submits). */
  busy: boolean;
  /** Space between the fields (each keeps a helper line for its message). */
  spacing: number;
  children: ReactNode;
}

/**
 * A small dialog of one's own account (the password change, self-registration). The whole dialog is the
 * form, so Enter in any box submits it, and the browser offers its password manager.
 */
export function AccountFormDialog({ open, onClose, ns, onSubmit, busy, spacing, children }: AccountFormDialogProps) {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" slotProps={{ paper: { component: 'form', onSubmit, noValidate: true, 'data-testid': `${ns}-dialog` } as object }}>
      <DialogTitle>{translate(`${ns}.title`)}</DialogTitle>
      <DialogContent>
        <Stack spacing={spacing} sx={{ pt: 1 }}>
          {children}
        </Stack>
      </DialogContent>
      <DialogFooter sx={{ px: 3, pb: 2 }} onCancel={onClose} cancelLabel={`${ns}.cancel`} cancelTestId={`${ns}-cancel`} submitLabel={`${ns}.submit`} submitDisabled={busy} submitTestId={`${ns}-submit`} />
    </Dialog>
  );
}

export default AccountFormDialog;

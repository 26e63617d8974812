import { Dialog, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { useOpenedOnce } from './useOpenedOnce';
import { DialogFooter } from './DialogFooter';

export interface ConfirmDialogProps {
  open: boolean;
  /** Already translated question, e.g. 确定要删除该产品？ */
  message: string;
  title?: string;
  onClose: () => void;
  /** The action; the dialog shows a spinner until it settles, then closes. */
  onConfirm: () => Promise<unknown> | void;
}

/** A yes/no question before a destructive or state-changing action. */
export function ConfirmDialog({ open, message, title, onClose, onConfirm }: ConfirmDialogProps) {
  const opened = useOpenedOnce(open);
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      onClose();
    }
  };
  if (!opened) return null;
  return (
    <Dialog open={open} onClose={() => !busy && onClose()} maxWidth="xs" fullWidth data-testid="confirm-dialog">
      <DialogTitle>{title ?? translate('common.tip')}</DialogTitle>
      <DialogContent>
        <DialogContentText data-testid="confirm-message">{message}</DialogContentText>
      </DialogContent>
      <DialogFooter onCancel={onClose} cancelTestId="confirm-cancel" onSubmit={() => void confirm()} submitTestId="confirm-ok" busy={busy} autoFocus />
    </Dialog>
  );
}

/** State for one confirm dialog shared by many rows: ask(message, action) opens it. */
export function useConfirm() {
  const [pending, setPending] = useState<{ message: string; action: () => Promise<unknown> | void } | null>(null);
  const dialog = (
    <ConfirmDialog
      open={pending !== null}
      message={pending?.message ?? ''}
      onClose={() => setPending(null)}
      onConfirm={() => pending?.action()}
    />
  );
  return { ask: (message: string, action: () => Promise<unknown> | void) => setPending({ message, action }), dialog };
}

export default ConfirmDialog;

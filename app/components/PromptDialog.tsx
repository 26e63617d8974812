import { useEffect, useState } from 'react';
import { Dialog, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { DialogFooter } from './DialogFooter';

export interface PromptDialogProps {
  open: boolean;
  /** Already translated, like the texts below. */
  title: string;
  /** A line above the box saying why the value is asked for. */
  hint?: string;
  label: string;
  placeholder?: string;
  type?: 'text' | 'password';
  autoComplete?: string;
  required?: boolean;
  /** Why the value may not be sent (empty), before anything is sent. */
  check: (value: string) => string | undefined;
  /**
   * Sends the value; answers why it was refused, to be shown under the box with the value kept for a
   * correction, or nothing (accepted: the caller closes the dialog; or refused and announced by the shell).
   */
  onSubmit: (value: string) => Promise<string | undefined>;
  onClose: () => void;
  testIds: { dialog: string; input: string; cancel: string; submit: string };
}

/** Asks for one value (a password, a user to share with); Enter in the box submits. Opens empty. */
export function PromptDialog({ open, title, hint, label, placeholder, type, autoComplete, required, check, onSubmit, onClose, testIds }: PromptDialogProps) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setValue('');
    setError(undefined);
  }, [open]);

  const submit = async () => {
    if (busy) return;
    const refused = check(value);
    if (refused) return setError(refused);
    setBusy(true);
    const answer = await onSubmit(value);
    setBusy(false);
    setError(answer);
  };

  return (
    <Dialog open={open} onClose={() => !busy && onClose()} maxWidth="xs" fullWidth data-testid={testIds.dialog}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {hint && <DialogContentText>{hint}</DialogContentText>}
        <TextField
          type={type}
          autoFocus
          fullWidth
          size="small"
          required={required}
          sx={{ mt: 1 }}
          label={label}
          placeholder={placeholder}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setError(undefined);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void submit();
          }}
          error={Boolean(error)}
          helperText={error ?? ' '}
          autoComplete={autoComplete}
          slotProps={{ htmlInput: { 'data-testid': testIds.input } }}
        />
      </DialogContent>
      <DialogFooter onCancel={onClose} cancelTestId={testIds.cancel} onSubmit={() => void submit()} submitTestId={testIds.submit} busy={busy} />
    </Dialog>
  );
}

export default PromptDialog;

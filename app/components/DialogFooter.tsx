import { Button, CircularProgress, DialogActions, type SxProps, type Theme } from '@mui/material';
import { useTranslate } from 'react-admin';

export interface DialogFooterProps {
  /** i18n key of the submit button; default common.confirm. */
  submitLabel?: string;
  /** What the submit does; without it the button submits the form the dialog's paper is. */
  onSubmit?: () => void;
  submitTestId?: string;
  /** Leaving without submitting; without it there is no cancel button (a view-only form). */
  onCancel?: () => void;
  /** i18n key of the cancel button; default common.cancel. */
  cancelLabel?: string;
  cancelTestId?: string;
  /** The dialog is at work (its call, an upload): both buttons wait, so a click neither repeats nor abandons it. */
  busy?: boolean;
  /** Whether the busy submit shows a spinner (default yes); a dialog that shows its own progress says no. */
  spinner?: boolean;
  /** The submit alone waits (nothing chosen yet, or the refused form's pause against double submits). */
  submitDisabled?: boolean;
  /** The cancel stays usable while busy: dialogs whose closing never waited on their call. */
  cancelWhileBusy?: boolean;
  /** The submit takes the focus, so Enter answers a question at once. */
  autoFocus?: boolean;
  sx?: SxProps<Theme>;
}

/** The buttons under a dialog: an optional cancel, then the contained submit with its busy state. */
export function DialogFooter({
  submitLabel = 'common.confirm',
  onSubmit,
  submitTestId,
  onCancel,
  cancelLabel = 'common.cancel',
  cancelTestId,
  busy = false,
  spinner = true,
  submitDisabled = false,
  cancelWhileBusy = false,
  autoFocus,
  sx,
}: DialogFooterProps) {
  const translate = useTranslate();
  return (
    <DialogActions sx={sx}>
      {onCancel && (
        <Button onClick={onCancel} disabled={busy && !cancelWhileBusy} data-testid={cancelTestId}>
          {translate(cancelLabel)}
        </Button>
      )}
      <Button
        variant="contained"
        type={onSubmit ? 'button' : 'submit'}
        onClick={onSubmit}
        disabled={busy || submitDisabled}
        autoFocus={autoFocus}
        startIcon={busy && spinner ? <CircularProgress size={16} color="inherit" /> : undefined}
        data-testid={submitTestId}
      >
        {translate(submitLabel)}
      </Button>
    </DialogActions>
  );
}

export default DialogFooter;

import { useEffect, useState } from 'react';
import { Autocomplete, Box, Chip, Dialog, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { reasonText } from '../../../../adapters/i18nProvider';
import { hasTimers, type Timer } from './api';
import { useRequest } from '../../../components/calls';
import { DialogFooter } from '../../../components/DialogFooter';

/** The legacy screen loaded every device the user sees for its pickers. */
const ALL = 10000;

interface DeviceOption {
  fId: number;
  label: string;
}

/**
 * Copies one timer to other devices the user sees. The server's summary (data.summary, by code) stays on
 * screen until dismissed; a refusal is shown in the console's language and the dialog stays open.
 */
export function SyncDialog({ open, deviceId, timer, onClose, onSynced }: { open: boolean; deviceId: number; timer: Timer | null; onClose: () => void; onSynced: (message: string) => void }) {
  const translate = useTranslate();
  const request = useRequest();
  const notify = useNotify();
  const [options, setOptions] = useState<DeviceOption[]>([]);
  const [loading, setLoading] = useState(false);
  const [chosen, setChosen] = useState<DeviceOption[]>([]);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setChosen([]);
    setError(undefined);
    let alive = true;
    setLoading(true);
    void request('device.list', { current: 1, size: ALL }).then((res) => {
      if (!alive) return;
      setLoading(false);
      const rows = res.data?.records ?? [];
      setOptions(
        rows
          .filter((d) => d.fId !== deviceId && hasTimers(d))
          .map((d) => ({ fId: d.fId, label: [d.fNumber, d.fName].filter(Boolean).join(' · ') || String(d.fId) })),
      );
    });
    return () => {
      alive = false;
    };
  }, [open, deviceId]);

  const submit = async () => {
    if (busy || !timer?.fId) return;
    if (!chosen.length) {
      setError(translate('deviceTimers.devicesRequired'));
      return;
    }
    setBusy(true);
    const res = await request('deviceTiming.shareSaves', { deviceIds: chosen.map((c) => c.fId), deviceTimingId: timer.fId });
    setBusy(false);
    if (res.ok) {
      onClose();
      // The server's summary by code, in the console's language.
      onSynced(res.data?.summary ? reasonText(res.data.summary) : res.data?.successMsg || res.message);
    } else if (!res.announced) {
      notify(translate('deviceTimers.syncFailed', { message: res.message }), { type: 'error', autoHideDuration: null });
    }
  };

  return (
    <Dialog open={open} onClose={() => !busy && onClose()} maxWidth="sm" fullWidth data-testid="timer-sync-dialog">
      <DialogTitle>{translate('deviceTimers.syncTitle')}</DialogTitle>
      <DialogContent dividers>
        {timer && (
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
            <Typography variant="body2" color="text.secondary">
              {translate('deviceTimers.source')}
            </Typography>
            <Chip size="small" label={timer.fTime} />
            <Chip size="small" variant="outlined" label={translate(`deviceTimers.validTypes.${timer.fValidType}`)} />
            <Chip size="small" variant="outlined" color={Number(timer.fOpt) === 1 ? 'success' : 'default'} label={translate(`deviceTimers.opts.${timer.fOpt}`)} />
          </Box>
        )}
        <Autocomplete
          multiple
          disableCloseOnSelect
          options={options}
          loading={loading}
          value={chosen}
          onChange={(_e, value) => {
            setChosen(value);
            setError(undefined);
          }}
          isOptionEqualToValue={(a, b) => a.fId === b.fId}
          getOptionLabel={(o) => o.label}
          noOptionsText={translate('deviceTimers.noDevices')}
          loadingText={translate('common.loading')}
          renderInput={(params) => (
            <TextField
              {...params}
              required
              size="small"
              label={translate('deviceTimers.devices')}
              placeholder={chosen.length ? undefined : translate('deviceTimers.devicesPlaceholder')}
              error={Boolean(error)}
              helperText={error ?? ' '}
            />
          )}
          data-testid="timer-sync-devices"
        />
      </DialogContent>
      <DialogFooter onCancel={onClose} cancelTestId="timer-sync-cancel" onSubmit={() => void submit()} submitTestId="timer-sync-save" busy={busy} />
    </Dialog>
  );
}

export default SyncDialog;

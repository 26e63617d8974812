import { useEffect, useState } from 'react';
import { Autocomplete, Box, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import { useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { DeviceRow } from '../../cells';
import { DEVICE_LIST_PATH, TIMER_PATHS, hasTimers, request, type Timer } from './api';

/** The legacy screen loaded every device the user sees for its pickers. */
const ALL = 10000;

interface DeviceOption {
  fId: number;
  label: string;
}

/**
 * Copies one timer to other devices the user sees. The server's summary (data.successMsg) stays on
 * screen until dismissed; a refusal is shown with the server's message and the dialog stays open.
 */
export function SyncDialog({ open, deviceId, timer, onClose, onSynced }: { open: boolean; deviceId: number; timer: Timer | null; onClose: () => void; onSynced: (message: string) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
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
    void request<{ records: DeviceRow[] }>(DEVICE_LIST_PATH, { current: 1, size: ALL }).then((res) => {
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
    const res = await request<{ successMsg?: string; errorMsg?: string; count?: number; refused?: number }>(TIMER_PATHS.shareSaves, { deviceIds: chosen.map((c) => c.fId), deviceTimingId: timer.fId });
    setBusy(false);
    if (res.ok) {
      onClose();
      const summary = res.data?.successMsg || res.message;
      // The server words its summary in Chinese; other languages say the same from its counts.
      const translated = locale !== 'zh-CN' && res.data?.count !== undefined;
      onSynced(
        translated
          ? [translate('deviceTimers.synced', { smart_count: res.data!.count }), res.data!.refused ? translate('deviceTimers.syncRefused', { smart_count: res.data!.refused }) : ''].filter(Boolean).join(translate('deviceTimers.listSeparator'))
          : summary,
      );
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
      <DialogActions>
        <Button onClick={onClose} disabled={busy} data-testid="timer-sync-cancel">
          {translate('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined} data-testid="timer-sync-save">
          {translate('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default SyncDialog;

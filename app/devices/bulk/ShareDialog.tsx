/** Batch share (spec 000 §2, §5): devices and a user by phone or name; what was shared and what was refused are both shown. */
import { useEffect, useState } from 'react';
import { Alert, Autocomplete, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useTranslate } from 'react-admin';
import { ApiError, envelopeText } from '../../../adapters/http';
import { useApi } from '../../components/calls';
import { reasonText } from '../../../adapters/i18nProvider';
import type { CallRow } from '../../../adapters/dataProvider';
import { SHARE_LIST_SIZE } from './api';
import { useOpenedOnce } from '../../components/useOpenedOnce';

/** A device the picker offers, as the device list answers it. */
type DeviceOption = CallRow<'device.list'>;

const label = (d: DeviceOption) => (d.fName ? `${d.fNumber}（${d.fName}）` : (d.fNumber ?? ''));

export function ShareDialog({ open, selected, onClose }: { open: boolean; selected: number[]; onClose: () => void }) {
  const opened = useOpenedOnce(open);
  const translate = useTranslate();
  const api = useApi();
  const [options, setOptions] = useState<DeviceOption[]>([]);
  const [loading, setLoading] = useState(false);
  const [devices, setDevices] = useState<DeviceOption[]>([]);
  const [user, setUser] = useState('');
  const [errors, setErrors] = useState<{ devices?: string; user?: string }>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ success?: string; error?: string } | null>(null);

  useEffect(() => {
    if (!open) return;
    let alive = true;
    setLoading(true);
    setOutcome(null);
    setErrors({});
    setUser('');
    api.call('device.list', { current: 1, size: SHARE_LIST_SIZE })
      .then((e) => {
        if (!alive) return;
        const rows = e.data?.records ?? [];
        setOptions(rows);
        setDevices(rows.filter((r) => selected.includes(r.fId)));
      })
      .catch(() => undefined)
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
    // The selection is read when the dialog opens, not followed while it is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const submit = async () => {
    const next = {
      devices: devices.length ? undefined : translate('deviceBulk.devicesRequired'),
      user: user.trim() ? undefined : translate('deviceBulk.userRequired'),
    };
    setErrors(next);
    if (next.devices || next.user) return;
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await api.call('device.share', { deviceIds: devices.map((d) => d.fId), user: user.trim() });
      setOutcome({ success: answer.data?.shared ? reasonText(answer.data.shared) : envelopeText(answer), error: answer.data?.refused ? reasonText(answer.data.refused) : undefined });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 200) setOutcome({ error: error instanceof Error ? error.message : String(error) });
    } finally {
      setBusy(false);
    }
  };

  if (!opened) return null;
  return (
    <Dialog open={open} onClose={() => !busy && onClose()} fullWidth maxWidth="sm" data-testid="device-share-dialog">
      <DialogTitle>{translate('deviceBulk.shareTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2} sx={{ pt: 0.5 }}>
          <Autocomplete
            multiple
            disableCloseOnSelect
            limitTags={6}
            loading={loading}
            options={options}
            value={devices}
            onChange={(_e, v) => setDevices(v)}
            getOptionLabel={label}
            isOptionEqualToValue={(a, b) => a.fId === b.fId}
            renderValue={(value, getItemProps) =>
              value.map((d, index) => {
                const { key, ...rest } = getItemProps({ index });
                return <Chip key={key} size="small" label={d.fNumber} {...rest} />;
              })
            }
            renderInput={(params) => (
              <TextField
                {...params}
                required
                label={translate('deviceBulk.shareDevices')}
                placeholder={devices.length ? '' : translate('deviceBulk.shareDevicesPlaceholder')}
                error={Boolean(errors.devices)}
                helperText={errors.devices ?? translate('deviceBulk.selectedCount', { count: devices.length })}
              />
            )}
            data-testid="device-share-devices"
          />
          <TextField
            required
            label={translate('deviceBulk.shareUser')}
            placeholder={translate('deviceBulk.shareUserPlaceholder')}
            value={user}
            onChange={(e) => setUser(e.target.value)}
            error={Boolean(errors.user)}
            helperText={errors.user ?? ' '}
            slotProps={{ htmlInput: { 'data-testid': 'device-share-user' } }}
          />
          {outcome?.success && (
            <Alert severity="success" sx={{ whiteSpace: 'pre-wrap' }} data-testid="device-share-success">
              {outcome.success}
            </Alert>
          )}
          {outcome?.error && (
            <Alert severity="error" sx={{ whiteSpace: 'pre-wrap' }} data-testid="device-share-error">
              {outcome.error}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy} data-testid="device-share-cancel">
          {translate('deviceBulk.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy} data-testid="device-share-submit">
          {translate('deviceBulk.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default ShareDialog;

import { useEffect, useState } from 'react';
import { Box, FormControlLabel, Paper, Switch, TextField, Typography } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import type { DeviceTab, DeviceTabProps } from '../DeviceDrawer';
import { useCan } from '../../auth/useCan';
import { CALLS, isBreaker, useSend, useLoginPassword } from './shared';

const DEVICE_PASSWORD_MAX = 4;

/**
 * Motor control of the plastic-case breaker (type 6): the device password plus the on/off switch. The
 * login password is checked first; the switch shows the requested state until the device answers and
 * goes back when the command fails.
 */
function MotorTab({ device, reload }: DeviceTabProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const canControl = useCan('device:control');
  const send = useSend();
  const { guard, dialog } = useLoginPassword();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [on, setOn] = useState(Number(device.switchStatus) === 1);
  const [busy, setBusy] = useState(false);
  useEffect(() => setOn(Number(device.switchStatus) === 1), [device.switchStatus]);

  const change = (checked: boolean) => {
    if (busy) return;
    if (!password) {
      setError(translate('deviceTab.motor.passwordRequired'));
      return;
    }
    const previous = on;
    setOn(checked);
    guard(
      () =>
        void (async () => {
          setBusy(true);
          const res = await send(CALLS.motor, { deviceId: device.fId, onOff: checked ? 1 : 0, password, isSendCmd: true });
          setBusy(false);
          if (res.ok) {
            notify(res.message || translate('deviceTab.sendSuccess'), { type: 'success' });
            reload();
          } else {
            setOn(previous);
            if (!res.announced) notify(res.message, { type: 'error' });
          }
        })(),
      () => setOn(previous),
    );
  };

  return (
    <Box data-testid="device-motor-tab">
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 520, display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          {translate('deviceTab.motor.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('deviceTab.motor.hint')}
        </Typography>
        <TextField
          size="small"
          type="password"
          label={translate('deviceTab.motor.password')}
          value={password}
          required
          onChange={(e) => {
            setPassword(e.target.value.slice(0, DEVICE_PASSWORD_MAX));
            setError(undefined);
          }}
          error={Boolean(error)}
          helperText={error ?? translate('deviceTab.motor.passwordMax')}
          autoComplete="off"
          slotProps={{ htmlInput: { maxLength: DEVICE_PASSWORD_MAX, 'data-testid': 'motor-password' } }}
          sx={{ maxWidth: 240 }}
        />
        <FormControlLabel
          control={
            <Switch
              checked={on}
              disabled={!canControl || busy}
              onChange={(_e, checked) => change(checked)}
              color="success"
              data-testid="motor-switch"
              data-checked={on ? 1 : 0}
            />
          }
          label={`${translate('deviceTab.motor.onOff')}: ${translate(on ? 'deviceTab.motor.on' : 'deviceTab.motor.off')}`}
        />
      </Paper>
      {dialog}
    </Box>
  );
}

const tab: DeviceTab = { key: 'motor', order: 5, label: 'device.tabs.motor', component: MotorTab, when: isBreaker };
export default tab;

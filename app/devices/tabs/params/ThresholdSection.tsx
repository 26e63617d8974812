import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, FormControlLabel, Paper, Radio, RadioGroup, TextField, Typography } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import { useNotify, useTranslate } from 'react-admin';
import { THRESHOLD_DEFAULTS, DEVICE_PASSWORD_MAX } from '../../../../contract/deviceParams';
import { useConfirm } from '../../../components/ConfirmDialog';
import type { CallAnswer } from '../../../../adapters/dataProvider';
import { CALLS, useSend, useLoginPassword, type DeviceCalls, type SendResult } from '../shared';
import { ParamForm } from './ParamForm';
import { changedKeys, thresholdSchema } from './schemas';

type Values = Record<string, unknown>;
const ABILITIES = [1, 2, 3, 4] as const;
/** Commands of abilities 2–4: change the device password, clear data, broadcast time sync. */
const ABILITY_CMD: Record<number, number> = { 2: 414, 3: 415, 4: 416 };

/**
 * Gateway thresholds (types 2, 4 and 6) and the gateway abilities: push thresholds, change password,
 * clear data, time sync. Each sends only after the login password has been checked.
 */
export function ThresholdSection({ deviceId, setCall = CALLS.setThreshold, canControl, onRead }: { deviceId: number; setCall?: DeviceCalls['setThreshold']; canControl: boolean; onRead?: () => void }) {
  const translate = useTranslate();
  const send = useSend();
  const notify = useNotify();
  const { guard, dialog } = useLoginPassword();
  const confirm = useConfirm();
  const { schema, uiSchema } = useMemo(() => thresholdSchema(translate), [translate]);
  const [loaded, setLoaded] = useState<Values>({ ...THRESHOLD_DEFAULTS });
  const [values, setValues] = useState<Values>({ ...THRESHOLD_DEFAULTS });
  const [loading, setLoading] = useState(true);
  const [readError, setReadError] = useState<string | undefined>();
  const [ability, setAbility] = useState<number>(1);
  const [busy, setBusy] = useState(false);
  const [passwords, setPasswords] = useState({ data1: '', data2: '' });
  const [passwordError, setPasswordError] = useState<{ data1?: string; data2?: string }>({});

  const inFlight = useRef<Promise<void> | null>(null);
  const load = useCallback(
    () =>
      (inFlight.current ??= (async () => {
        setLoading(true);
        const res = await send(CALLS.threshold, { fId: deviceId });
        setLoading(false);
        applyRead(res);
        onRead?.();
      })().finally(() => (inFlight.current = null))),
    [deviceId], // eslint-disable-line react-hooks/exhaustive-deps
  );

  function applyRead(res: SendResult<CallAnswer<typeof CALLS.threshold>>) {
    const data = res.data;
    if (res.ok && data && typeof data === 'object') {
      const read = Object.fromEntries(Object.keys(THRESHOLD_DEFAULTS).map((k) => [k, data[k] ?? THRESHOLD_DEFAULTS[k as keyof typeof THRESHOLD_DEFAULTS]]));
      setLoaded(read);
      setValues(read);
      setReadError(undefined);
    } else if (!res.announced) setReadError(translate('deviceTab.params.readFailed', { message: res.message }));
  }
  useEffect(() => {
    void load();
  }, [load]);

  const run = async (body: Values, after?: () => void) => {
    setBusy(true);
    const res = await send(setCall, { deviceId, ...body });
    setBusy(false);
    if (res.ok) {
      notify(res.message || translate('deviceTab.sendSuccess'), { type: 'success' });
      after?.();
    } else if (!res.announced) notify(res.message ? translate('deviceTab.sendFailed', { message: res.message }) : translate('deviceTab.saveFailed'), { type: 'error' });
  };

  const pushThresholds = (data: Values) => {
    if (changedKeys(loaded, data).length === 0) {
      notify(translate('deviceTab.noChange'), { type: 'info' });
      return;
    }
    const body = Object.fromEntries(Object.keys(THRESHOLD_DEFAULTS).map((k) => [k, Number(data[k])]));
    guard(() => void run(body, () => setLoaded(body)));
  };

  const changePassword = () => {
    const errors: { data1?: string; data2?: string } = {};
    if (!passwords.data1) errors.data1 = translate('deviceTab.motor.passwordRequired');
    if (!passwords.data2) errors.data2 = translate('deviceTab.motor.passwordRequired');
    setPasswordError(errors);
    if (errors.data1 || errors.data2) return;
    guard(() => void run({ cmd: 414, ...passwords }, () => setPasswords({ data1: '', data2: '' })));
  };

  const simple = (cmd: number) => {
    if (cmd === 415) confirm.ask(translate('deviceTab.params.confirmClear'), () => guard(() => void run({ cmd })));
    else guard(() => void run({ cmd }));
  };

  const sendButton = (onClick?: () => void) => (
    <Button
      type={onClick ? 'button' : 'submit'}
      variant="contained"
      startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <SendIcon />}
      disabled={!canControl || busy || loading}
      onClick={onClick}
      data-testid={`threshold-send-${ability}`}
    >
      {translate('deviceTab.send')}
    </Button>
  );

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="threshold-section">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', mb: 1 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          {translate('deviceTab.params.thresholds')}
        </Typography>
        {loading && <CircularProgress size={16} />}
        <Box sx={{ flex: 1 }} />
        <RadioGroup row value={ability} onChange={(e) => setAbility(Number(e.target.value))} aria-label={translate('deviceTab.params.ability')} data-testid="threshold-ability">
          {ABILITIES.map((a) => (
            <FormControlLabel key={a} value={a} control={<Radio size="small" />} label={`${a}. ${translate(`deviceTab.params.abilities.${a}`)}`} data-testid={`threshold-ability-${a}`} />
          ))}
        </RadioGroup>
      </Box>
      {readError && (
        <Alert severity="warning" sx={{ mb: 1 }} action={<Button size="small" onClick={() => void load()}>{translate('deviceTab.params.read')}</Button>}>
          {readError}
        </Alert>
      )}
      {ability === 1 && (
        <ParamForm schema={schema} uiSchema={uiSchema} formData={values} onChange={setValues} onSubmit={pushThresholds} disabled={busy || loading} testId="threshold-form">
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>{sendButton()}</Box>
        </ParamForm>
      )}
      {ability === 2 && (
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          {(['data1', 'data2'] as const).map((k) => (
            <TextField
              key={k}
              size="small"
              type="password"
              required
              label={translate(k === 'data1' ? 'deviceTab.params.oldPassword' : 'deviceTab.params.newPassword')}
              value={passwords[k]}
              onChange={(e) => {
                setPasswords({ ...passwords, [k]: e.target.value.slice(0, DEVICE_PASSWORD_MAX) });
                setPasswordError({ ...passwordError, [k]: undefined });
              }}
              error={Boolean(passwordError[k])}
              helperText={passwordError[k] ?? translate('deviceTab.motor.passwordMax')}
              autoComplete="off"
              slotProps={{ htmlInput: { maxLength: DEVICE_PASSWORD_MAX, 'data-testid': `threshold-${k}` } }}
            />
          ))}
          <Box sx={{ pt: 0.25 }}>{sendButton(changePassword)}</Box>
        </Box>
      )}
      {(ability === 3 || ability === 4) && (
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
            {translate(ability === 3 ? 'deviceTab.params.clearHint' : 'deviceTab.params.syncHint')}
          </Typography>
          {sendButton(() => simple(ABILITY_CMD[ability]))}
        </Box>
      )}
      {dialog}
      {confirm.dialog}
    </Paper>
  );
}

export default ThresholdSection;

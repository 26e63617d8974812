import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Paper, Typography } from '@mui/material';
import SaveIcon from '@mui/icons-material/Save';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useNotify, useTranslate } from 'react-admin';
import { defaultCalibration, defaultProtection } from '../../../../contract/deviceParams';
import { CALLS, useSend, useLoginPassword } from '../shared';
import { ParamForm } from './ParamForm';
import { calibrationSchema, changedKeys, protectionSchema } from './schemas';

type Values = Record<string, unknown>;

/** The spec reads the breaker configuration 1 s after the adjust (calibration) parameters. */
const READ_GAP_MS = 1000;

function onlyKnown(keys: string[], source: unknown, fallback: Values): Values {
  const data = source && typeof source === 'object' ? (source as Values) : {};
  return Object.fromEntries(keys.map((k) => [k, data[k] ?? fallback[k]]));
}

/**
 * Breaker protection parameters and calibration coefficients: read from the device (calibration first,
 * protection a second later), edited as schema forms, and sent as the changed values only after the
 * login password has been checked.
 */
export function BreakerSection({ deviceId, canControl, start = true }: { deviceId: number; canControl: boolean; start?: boolean }) {
  const translate = useTranslate();
  const send = useSend();
  const notify = useNotify();
  const { guard, dialog } = useLoginPassword();
  const protection = useMemo(() => protectionSchema(translate), [translate]);
  const calibration = useMemo(() => calibrationSchema(translate), [translate]);
  const protectionKeys = protection.uiSchema['ui:order'] as string[];
  const calibrationKeys = calibration.uiSchema['ui:order'] as string[];

  const [loaded, setLoaded] = useState<{ protection: Values; calibration: Values }>(() => ({
    protection: onlyKnown(protectionKeys, defaultProtection(), {}),
    calibration: defaultCalibration(),
  }));
  const [values, setValues] = useState(loaded);
  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState<string | undefined>();
  const [busy, setBusy] = useState<'protection' | 'calibration' | null>(null);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const inFlight = useRef<Promise<void> | null>(null);

  // One read at a time: the device takes one command at a time, so a second read would be refused.
  const read = useCallback(() => (inFlight.current ??= readOnce().finally(() => (inFlight.current = null))), [deviceId]); // eslint-disable-line react-hooks/exhaustive-deps

  async function readOnce() {
    setReading(true);
    const problems: string[] = [];
    // The adjust (calibration) parameters first, the configuration (protection) a second later.
    const parts = [
      { part: 'calibration', call: CALLS.readCalibration, keys: calibrationKeys, fallback: defaultCalibration },
      { part: 'protection', call: CALLS.readProtection, keys: protectionKeys, fallback: defaultProtection },
    ] as const;
    for (const [i, { part, call, keys, fallback }] of parts.entries()) {
      if (i > 0) {
        await new Promise((r) => setTimeout(r, READ_GAP_MS));
        if (!alive.current) return;
      }
      const answer = await send(call, { deviceId });
      if (!alive.current) return;
      if (answer.ok) {
        const read = onlyKnown(keys, answer.data, fallback());
        setLoaded((l) => ({ ...l, [part]: read }));
        setValues((v) => ({ ...v, [part]: read }));
      } else if (!answer.announced) problems.push(answer.message);
    }
    setReading(false);
    const distinct = [...new Set(problems.filter(Boolean))];
    setReadError(distinct.length ? translate('deviceTab.params.readFailed', { message: distinct.join('；') }) : undefined);
  }
  useEffect(() => {
    if (start) void read();
  }, [read, start]);

  const save = (parameter: 'protection' | 'calibration', data: Values) => {
    const changed = changedKeys(loaded[parameter], data);
    if (!changed.length) {
      notify(translate('deviceTab.noChange'), { type: 'info' });
      return;
    }
    const payload = Object.fromEntries(changed.map((k) => [k, Number(data[k])]));
    guard(
      () =>
        void (async () => {
          setBusy(parameter);
          const res = await send(CALLS.setParameter, { deviceId, parameter, data: payload });
          setBusy(null);
          if (res.ok) {
            notify(res.message || translate('deviceTab.saved'), { type: 'success' });
            // The acknowledgement carries every value the device now holds.
            const keys = parameter === 'protection' ? protectionKeys : calibrationKeys;
            const now = onlyKnown(keys, res.data, { ...loaded[parameter], ...payload });
            setLoaded((l) => ({ ...l, [parameter]: now }));
            setValues((v) => ({ ...v, [parameter]: now }));
          } else if (!res.announced) notify(res.message ? translate('deviceTab.sendFailed', { message: res.message }) : translate('deviceTab.saveFailed'), { type: 'error' });
        })(),
    );
  };

  const section = (parameter: 'protection' | 'calibration') => {
    const { schema, uiSchema } = parameter === 'protection' ? protection : calibration;
    return (
      <Paper variant="outlined" sx={{ p: 2 }} data-testid={`${parameter}-section`}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {translate(`deviceTab.params.${parameter}`)}
          </Typography>
          {parameter === 'calibration' && (
            <Typography variant="caption" color="text.secondary">
              {translate('deviceTab.params.coefficientHint')}
            </Typography>
          )}
        </Box>
        <ParamForm
          schema={schema}
          uiSchema={uiSchema}
          formData={values[parameter]}
          onChange={(data) => setValues((v) => ({ ...v, [parameter]: data }))}
          onSubmit={(data) => save(parameter, data)}
          disabled={reading || busy !== null}
          testId={`${parameter}-form`}
        >
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
            <Button
              type="submit"
              variant="contained"
              disabled={!canControl || reading || busy !== null}
              startIcon={busy === parameter ? <CircularProgress size={16} color="inherit" /> : <SaveIcon />}
              data-testid={`${parameter}-save`}
            >
              {translate('common.save')}
            </Button>
          </Box>
        </ParamForm>
      </Paper>
    );
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        {reading && (
          <>
            <CircularProgress size={16} />
            <Typography variant="body2" color="text.secondary">
              {translate('deviceTab.params.loading')}
            </Typography>
          </>
        )}
        <Box sx={{ flex: 1 }} />
        <Button size="small" startIcon={<RefreshIcon />} onClick={() => void read()} disabled={reading} data-testid="breaker-read">
          {translate('deviceTab.params.read')}
        </Button>
      </Box>
      {readError && <Alert severity="warning">{readError}</Alert>}
      {section('protection')}
      {section('calibration')}
      {dialog}
    </Box>
  );
}

export default BreakerSection;

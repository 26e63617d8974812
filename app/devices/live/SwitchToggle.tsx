import { useEffect, useState } from 'react';
import { Switch, Tooltip } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { envelopeText } from '../../../adapters/http';
import { useApi } from '../../components/calls';
import type { DeviceRow } from '../cells';

/** After a refused toggle the switch returns and the device is read again this much later (spec 000 §9). */
export const SWITCH_RELOAD_MS = 1500;

/**
 * The breaker switch of a device. Sends the command at once; a refused or unanswered command puts
 * the switch back and reloads. A locked device is held closed and cannot be switched.
 */
export function SwitchToggle({ row, onChanged }: { row: DeviceRow; onChanged: () => void }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const stored = Number(row.switchStatus) === 1;
  const locked = Number(row.fLock) === 1;
  const [on, setOn] = useState(stored || locked);
  const [busy, setBusy] = useState(false);
  useEffect(() => setOn(stored || locked), [stored, locked]);

  const toggle = async (next: boolean) => {
    setOn(next);
    setBusy(true);
    try {
      const answer = await api.call('command.switch', { deviceId: row.fId, onOff: next ? 1 : 0 });
      notify(envelopeText(answer), { type: 'success' });
      onChanged();
    } catch (error) {
      setOn(!next);
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
      setTimeout(onChanged, SWITCH_RELOAD_MS);
    } finally {
      setBusy(false);
    }
  };

  const label = translate(locked ? 'device.switch.locked' : on ? 'device.switch.on' : 'device.switch.off');
  return (
    <Tooltip title={label}>
      <span>
        <Switch
          size="small"
          checked={on}
          disabled={busy || locked}
          onChange={(e) => void toggle(e.target.checked)}
          slotProps={{ input: { 'aria-label': label, 'data-testid': 'device-switch' } as object }}
          data-state={on ? 'on' : 'off'}
        />
      </span>
    </Tooltip>
  );
}

import { useCallback, useEffect, useRef, useState } from 'react';
import {
  Box, Chip, FormControlLabel, IconButton, Paper, Switch, Tooltip, Typography,
} from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import LockIcon from '@mui/icons-material/Lock';
import { useNotify, useTranslate } from 'react-admin';
import type { DeviceTab, DeviceTabProps } from '../DeviceDrawer';
import { OnlineChip } from '../cells';
import { useCan } from '../../auth/useCan';
import { EmptyState } from '../../components/EmptyState';
import { DataTable } from '../../components/DataTable';
import { TitleRow } from '../../components/TitledSection';
import { LatestReadings, CALLS, callsFor, useSend, useReadings } from './shared';
import type { CallRow } from '../../../adapters/dataProvider';

/** The spec's pause before a failed toggle's command state is read again. */
const RELOAD_AFTER_FAILURE_MS = 1500;
const COMMAND_ROWS = 10;

/**
 * A command sent to the device, as the command log answers it; `reason` says why it ended, in the
 * console's language (records written before reasons were kept have only fMessage).
 */
type CommandRecord = CallRow<typeof CALLS.commands>;

const STATE_COLOR: Record<string, 'default' | 'info' | 'success' | 'error' | 'warning'> = {
  pending: 'default',
  sent: 'info',
  acknowledged: 'success',
  failed: 'error',
  timed_out: 'warning',
};

function useCommands(deviceId: number) {
  const send = useSend();
  const [rows, setRows] = useState<CommandRecord[]>([]);
  const load = useCallback(async () => {
    const res = await send(CALLS.commands, { deviceId, current: 1, size: COMMAND_ROWS });
    if (res.data?.records) setRows(res.data.records);
  }, [deviceId, send]);
  useEffect(() => {
    void load();
  }, [load]);
  return { rows, load };
}

const bit = (v: unknown) => (Number(v) === 1 ? 1 : 0);

/**
 * Running status: online state, the switch and the lock with their toggles, the newest readings and the
 * recent commands. A failed toggle goes back at once and the state is read again 1.5 s later; while
 * the lock is on the switch is held closed and cannot be toggled.
 */
function StatusTab({ device, reload }: DeviceTabProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const canControl = useCan('device:control');
  const send = useSend();
  const readings = useReadings(device.fId, callsFor(device).elec);
  const commands = useCommands(device.fId);
  const [switchOn, setSwitchOn] = useState(bit(device.switchStatus));
  const [locked, setLocked] = useState(bit(device.fLock));
  const [busy, setBusy] = useState<'switch' | 'lock' | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => setSwitchOn(bit(device.switchStatus)), [device.switchStatus]);
  useEffect(() => setLocked(bit(device.fLock)), [device.fLock]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const afterFailure = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      void commands.load();
      reload();
    }, RELOAD_AFTER_FAILURE_MS);
  };

  const toggle = async (what: 'switch' | 'lock', value: 0 | 1) => {
    if (busy) return;
    const previous = what === 'switch' ? switchOn : locked;
    const set = what === 'switch' ? setSwitchOn : setLocked;
    set(value);
    setBusy(what);
    void commands.load();
    const res = what === 'switch' ? await send(CALLS.sendSwitch, { deviceId: device.fId, onOff: value }) : await send(CALLS.sendLock, { deviceId: device.fId, lock: value });
    setBusy(null);
    if (res.ok) {
      notify(res.message || translate('deviceTab.sendSuccess'), { type: 'success' });
      // Locking closes the breaker as well.
      if (what === 'lock' && value === 1) setSwitchOn(1);
      void commands.load();
      void readings.load(false);
      reload();
      return;
    }
    set(previous);
    // The switch's failure reads as the spec words it (获取开关状态异常:…); the lock's is the device's own answer.
    if (!res.announced) notify(what === 'switch' ? translate('deviceTab.status.switchFailed', { message: res.message }) : res.message || translate('deviceTab.saveFailed'), { type: 'error' });
    afterFailure();
  };

  const shownOn = locked ? 1 : switchOn;

  return (
    <Box data-testid="device-status-tab" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Paper variant="outlined" sx={{ p: 2, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' }, gap: 2, alignItems: 'center' }}>
        <Box>
          <Typography variant="caption" color="text.secondary" component="div">
            {translate('deviceTab.status.online')}
          </Typography>
          <Box sx={{ mt: 0.5, display: 'flex', alignItems: 'center', gap: 1 }}>
            <OnlineChip value={device.tOnline} />
            {device.fLastOnlineTime ? (
              <Typography variant="caption" color="text.secondary">
                {translate('deviceTab.status.lastOnline')}: {String(device.fLastOnlineTime)}
              </Typography>
            ) : null}
          </Box>
        </Box>
        <Box>
          <Typography variant="caption" color="text.secondary" component="div">
            {translate('deviceTab.status.switch')}
          </Typography>
          <Tooltip title={locked ? translate('deviceTab.status.lockedHint') : ''}>
            <FormControlLabel
              sx={{ mt: 0.5 }}
              control={
                <Switch
                  checked={shownOn === 1}
                  disabled={!canControl || Boolean(locked) || busy !== null}
                  onChange={(_e, checked) => void toggle('switch', checked ? 1 : 0)}
                  color="success"
                  data-testid="status-switch"
                  data-checked={shownOn}
                  slotProps={{ input: { 'aria-label': translate('deviceTab.status.switch') } as never }}
                />
              }
              label={<span data-testid="status-switch-label">{translate(shownOn ? 'deviceTab.status.on' : 'deviceTab.status.off')}</span>}
            />
          </Tooltip>
        </Box>
        <Box>
          <Typography variant="caption" color="text.secondary" component="div">
            {translate('deviceTab.status.lock')}
          </Typography>
          <FormControlLabel
            sx={{ mt: 0.5 }}
            control={
              <Switch
                checked={locked === 1}
                disabled={!canControl || busy !== null}
                onChange={(_e, checked) => void toggle('lock', checked ? 1 : 0)}
                color="warning"
                data-testid="status-lock"
                data-checked={locked}
                slotProps={{ input: { 'aria-label': translate('deviceTab.status.lock') } as never }}
              />
            }
            label={
              <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }} data-testid="status-lock-label">
                {locked ? <LockIcon fontSize="small" color="warning" /> : null}
                {translate(locked ? 'deviceTab.status.locked' : 'deviceTab.status.unlocked')}
              </Box>
            }
          />
        </Box>
      </Paper>
      <TitleRow title={translate('deviceTab.status.readings')}>
        <IconButton
          size="small"
          onClick={() => {
            void readings.load(false);
            void commands.load();
            reload();
          }}
          aria-label={translate('deviceTab.refresh')}
          data-testid="status-refresh"
        >
          <RefreshIcon fontSize="small" />
        </IconButton>
      </TitleRow>
      <LatestReadings data={readings.data} />

      <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
        {translate('deviceTab.status.commands')}
      </Typography>
      {commands.rows.length === 0 ? (
        <EmptyState minHeight={100} />
      ) : (
        <DataTable
          rows={commands.rows}
          rowKey={(r) => r.fId}
          empty={false}
          bordered
          containerProps={{ 'data-testid': 'status-commands' }}
          rowProps={(r) => ({ hover: false, 'data-testid': 'command-row', 'data-state': r.fState })}
          columns={[
            { key: 'name', header: translate('deviceTab.status.commandName'), cell: (r) => translate(`deviceTab.status.bids.${r.fBid}`, { _: r.fName || r.fBid }) },
            { key: 'state', header: translate('deviceTab.status.commandState'), cell: (r) => <Chip size="small" variant="outlined" color={STATE_COLOR[r.fState] ?? 'default'} label={translate(`deviceTab.status.state.${r.fState}`, { _: r.fState })} /> },
            { key: 'message', header: translate('deviceTab.status.commandMessage'), cellSx: { maxWidth: 360, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }, cellProps: (r) => ({ title: r.reason?.text ?? r.fMessage ?? '' }), cell: (r) => r.reason?.text ?? r.fMessage ?? '-' },
            { key: 'time', header: translate('deviceTab.status.commandTime'), cellSx: { whiteSpace: 'nowrap' }, cell: (r) => r.fIntime },
          ]}
        />
      )}
    </Box>
  );
}

const tab: DeviceTab = { key: 'status', order: 20, label: 'device.tabs.status', component: StatusTab };
export default tab;

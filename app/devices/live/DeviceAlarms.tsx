/**
 * Device alarms as they happen: the event stream's `deviceAlarm` (a reading past its limit, or back
 * within it) is announced once for the whole console and kept here, by device and kind, so the device
 * list and the detail drawer mark the device until its alarm clears — without a reload. What was raised
 * before the console opened is on the location page's alarm list, not here.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { Chip, Tooltip } from '@mui/material';
import { useNotify, usePermissions, useTranslate } from 'react-admin';
import { useDeviceAlarmEvents } from '../../platform';
import type { DeviceAlarmEvent } from '../../../contract/deviceAlarm';

/** Raised alarms by device id, then by kind; a cleared kind is removed. */
type Raised = Record<number, Record<string, DeviceAlarmEvent>>;

let raised: Raised = {};
const watchers = new Set<() => void>();

function note(e: DeviceAlarmEvent) {
  const kinds = { ...raised[e.fDeviceId] };
  if (e.active) kinds[e.kind] = e;
  else delete kinds[e.kind];
  const next = { ...raised };
  if (Object.keys(kinds).length) next[e.fDeviceId] = kinds;
  else delete next[e.fDeviceId];
  raised = next;
  for (const w of watchers) w();
}

function watch(onChange: () => void) {
  watchers.add(onChange);
  return () => void watchers.delete(onChange);
}

/** The alarms raised on a device and not cleared since the console opened. */
export function useRaisedAlarms(deviceId: number): DeviceAlarmEvent[] {
  const kinds = useSyncExternalStore(watch, () => raised[deviceId]);
  return kinds ? Object.values(kinds) : [];
}

/** The words for an alarm: its kind, whether it tripped, and the reading against its limit. */
export function useAlarmWords() {
  const translate = useTranslate();
  const kind = (e: DeviceAlarmEvent) => translate(`device.alarm.kinds.${e.kind}`, { _: e.kind });
  const full = (e: DeviceAlarmEvent) =>
    [kind(e), e.level === 'trip' ? translate('device.alarm.trip') : '', e.value !== null && e.limit !== null ? translate('device.alarm.reading', { value: e.value, limit: e.limit }) : '']
      .filter(Boolean)
      .join(' · ');
  return { kind, full };
}

/** Mounted once in the layout: keeps the raised alarms and announces each new one to users of the device list. */
export function DeviceAlarmNotifier() {
  const translate = useTranslate();
  const notify = useNotify();
  const words = useAlarmWords();
  const { permissions } = usePermissions<string[]>();
  const allowed = Array.isArray(permissions) && permissions.includes('device:list');
  const arrived = useCallback(
    (e: DeviceAlarmEvent) => {
      note(e);
      if (e.active) notify(translate('device.alarm.raised', { number: e.fNumber, alarm: words.full(e) }), { type: e.level === 'trip' ? 'error' : 'warning' });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [notify, translate],
  );
  return allowed ? <Listening onEvent={arrived} /> : null;
}

function Listening({ onEvent }: { onEvent: (e: DeviceAlarmEvent) => void }) {
  useDeviceAlarmEvents(onEvent);
  return null;
}

/** A device's raised alarms as one chip (nothing when there are none); the tooltip names each. */
export function DeviceAlarmChip({ deviceId }: { deviceId: number }) {
  const translate = useTranslate();
  const words = useAlarmWords();
  const alarms = useRaisedAlarms(deviceId);
  if (!alarms.length) return null;
  const trip = alarms.some((a) => a.level === 'trip');
  return (
    <Tooltip title={alarms.map(words.full).join(' / ')}>
      <Chip
        size="small"
        color="error"
        variant={trip ? 'filled' : 'outlined'}
        label={alarms.length > 1 ? translate('device.alarm.many', { count: alarms.length }) : words.kind(alarms[0])}
        data-testid="device-alarm"
        data-kinds={alarms.map((a) => a.kind).join(',')}
      />
    </Tooltip>
  );
}

import { Box, Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { FieldValue } from '../components/FieldValue';
import type { ResourceConfig } from '../resources/types';
import { DeviceAlarmChip } from './live/DeviceAlarms';

export type DeviceRow = Record<string, unknown> & { fId: number };

/**
 * The online state. Given the device's activation (`status`), as spec 000 §4 shows it: offline when not
 * connected, online when connected and activated, unknown when connected but not activated.
 */
export function OnlineChip({ value, status }: { value: unknown; status?: unknown }) {
  const translate = useTranslate();
  const connected = Number(value) === 1;
  const unknown = connected && status !== undefined && Number(status) !== 1;
  const online = connected && !unknown;
  return (
    <Chip
      size="small"
      label={unknown ? translate('device.onlineUnknown') : translate(`enums.online.${online ? 1 : 0}`)}
      color={online ? 'success' : unknown ? 'warning' : 'default'}
      variant={online ? 'filled' : 'outlined'}
      data-testid="device-online"
    />
  );
}

export function ActivationChip({ value }: { value: unknown }) {
  const translate = useTranslate();
  const active = Number(value) === 1;
  return (
    <Chip
      size="small"
      label={translate(`enums.deviceStatus.${active ? 1 : 0}`)}
      color={active ? 'primary' : 'warning'}
      variant="outlined"
      data-testid="device-activation"
    />
  );
}

/** The switch as a state, for users who may not switch it. */
export function SwitchChip({ row }: { row: DeviceRow }) {
  const translate = useTranslate();
  const locked = Number(row.fLock) === 1;
  const on = locked || Number(row.switchStatus) === 1;
  return <Chip size="small" variant="outlined" color={on ? 'success' : 'default'} label={translate(locked ? 'device.switch.locked' : on ? 'device.switch.on' : 'device.switch.off')} data-testid="device-switch-state" />;
}

/** One column of the device list: the product by its embedded name, states as chips, the rest as stored. */
export function DeviceCell({ config, row, source }: { config: ResourceConfig; row: DeviceRow; source: string }) {
  // A raised alarm shows beside the online state, as it arrives.
  if (source === 'tOnline')
    return (
      <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center' }}>
        <OnlineChip value={row.tOnline} status={row.fStatus} />
        <DeviceAlarmChip deviceId={row.fId} />
      </Box>
    );
  if (source === 'fStatus') return <ActivationChip value={row.fStatus} />;
  if (source === 'switchStatus') return <SwitchChip row={row} />;
  if (source === 'fProductId') {
    const name = (row.tProduct as Record<string, unknown> | undefined)?.fName;
    return <>{name ? String(name) : '-'}</>;
  }
  if (source === 'fTypeId' && (row.fTypeId === null || row.fTypeId === undefined)) {
    // Older rows carry the type only on their product.
    const type = (row.tProduct as Record<string, unknown> | undefined)?.fDeviceType;
    if (type !== undefined && type !== null) row = { ...row, fTypeId: type };
  }
  const field = config.fields[source];
  if (!field) return <>{row[source] === undefined || row[source] === null ? '-' : String(row[source])}</>;
  return <FieldValue field={field} row={row} />;
}

/** Column header: the product column reads as the product's name. */
export function columnLabel(config: ResourceConfig, source: string, translate: (key: string) => string): string {
  if (source === 'fProductId') return translate('device.productName');
  const field = config.fields[source];
  return field ? translate(field.label) : source;
}

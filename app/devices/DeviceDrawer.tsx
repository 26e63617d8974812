import { useEffect, useState, type ComponentType } from 'react';
import { Box, LinearProgress, Tab, Tabs } from '@mui/material';
import { useTranslate } from 'react-admin';
import { DetailDrawer } from '../components/DetailDrawer';
import { DetailFields } from '../components/FieldValue';
import { useCallQuery } from '../components/calls';
import type { ResourceConfig } from '../resources/types';
import { ActivationChip, OnlineChip, type DeviceRow } from './cells';
import { DeviceAlarmChip } from './live/DeviceAlarms';
import { useOpenedOnce } from '../components/useOpenedOnce';

/** What every tab receives: the device (fresh from the server once loaded) and the resource config. */
export interface DeviceTabProps {
  device: DeviceRow;
  config: ResourceConfig;
  /** Ask the drawer to load the device again after a tab changed it. */
  reload: () => void;
}

export interface DeviceTab {
  key: string;
  /** Position in the drawer: lower first (instance info is 10). */
  order: number;
  /** i18n key of the tab label. */
  label: string;
  component: ComponentType<DeviceTabProps>;
  /** Whether the tab applies to this device (e.g. gateway types 2 and 4 hide timers and statistics). */
  when?: (device: DeviceRow) => boolean;
}

/** Product type of a device: its own fTypeId, else its product's fDeviceType. */
export function deviceType(device: DeviceRow): number | undefined {
  const own = device.fTypeId ?? (device.tProduct as Record<string, unknown> | undefined)?.fDeviceType;
  return own === undefined || own === null ? undefined : Number(own);
}

const INFO_FIELDS = ['fNumber', 'fName', 'fProductId', 'fTypeId', 'fImei', 'fIccid', 'tOnline', 'fStatus', 'fUserId', 'fRemindTime', 'fRegisteredDate', 'fLastOnlineTime', 'fIntime', 'fRemork'];

function InstanceInfoTab({ device, config }: DeviceTabProps) {
  const translate = useTranslate();
  const sources = INFO_FIELDS.filter((s) => s !== 'tOnline' && s !== 'fStatus' && (s !== 'fUserId' || device.proxyUserName || device.fUserId));
  return (
    <DetailFields
      config={config}
      row={device}
      sources={sources}
      extra={[
        { label: translate(config.fields.tOnline?.label ?? 'enums.online.1'), value: <OnlineChip value={device.tOnline} status={device.fStatus} /> },
        { label: translate(config.fields.fStatus?.label ?? 'enums.deviceStatus.1'), value: <ActivationChip value={device.fStatus} /> },
      ]}
    />
  );
}

/*
 * The drawer's tabs: instance info here, every other tab a module of ./tabs/ whose default export is a
 * DeviceTab, so adding a tab touches no shared file. By order: motor control (type 6) 5, instance info
 * 10, running status 20, data display 30, share management 40, timers 50 (not for gateway types 2 and
 * 4), statistics 60 (not for 2 and 4), parameter configuration 70, logs 80, product command tabs 90+.
 */
const tabModules = import.meta.glob<{ default: DeviceTab | DeviceTab[] }>('./tabs/*.tsx', { eager: true });
export const deviceTabs: DeviceTab[] = [
  { key: 'info', order: 10, label: 'device.tabs.info', component: InstanceInfoTab },
  ...Object.values(tabModules).flatMap((m) => m.default),
].sort((a, b) => a.order - b.order);

export const DEVICE_DRAWER_WIDTH = 1024;

/** Detail drawer of an ordinary device, 1024 wide, with the tabs above. */
export function DeviceDrawer({ config, row, onClose }: { config: ResourceConfig; row: DeviceRow | null; onClose: () => void }) {
  const opened = useOpenedOnce(row !== null);
  const translate = useTranslate();
  const [tab, setTab] = useState(deviceTabs[0].key);
  const { data, loading, reload } = useCallQuery(row && config.endpoints.get ? 'device.get' : null, { fId: row?.fId });
  useEffect(() => {
    if (row) setTab(deviceTabs[0].key);
  }, [row]);

  // The list row is shown at once; the server's copy (fresh online state) replaces it when it arrives.
  const device: DeviceRow | null = row ? { ...row, ...(data && data.fId === row.fId ? data : {}) } : null;
  const tabs = device ? deviceTabs.filter((t) => !t.when || t.when(device)) : [];
  const current = tabs.find((t) => t.key === tab) ?? tabs[0];

  if (!opened) return null;
  return (
    <DetailDrawer
      record={device}
      onClose={onClose}
      width={DEVICE_DRAWER_WIDTH}
      testId="device-drawer"
      title={(d) => `${translate('device.detail')} · ${String(d.fName || d.fNumber || '')}`}
      extra={(d) => (
        <>
          <OnlineChip value={d.tOnline} status={d.fStatus} />
          <DeviceAlarmChip deviceId={d.fId} />
        </>
      )}
    >
      {(device) => (
        <>
          <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
          <Tabs value={current?.key ?? false} onChange={(_e, v: string) => setTab(v)} variant="scrollable" sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
            {tabs.map((t) => (
              <Tab key={t.key} value={t.key} label={translate(t.label)} data-testid={'device-tab-' + t.key} />
            ))}
          </Tabs>
          <Box sx={{ p: 2, overflow: 'auto', flex: 1 }}>{current && <current.component device={device} config={config} reload={reload} />}</Box>
        </>
      )}
    </DetailDrawer>
  );
}

export default DeviceDrawer;

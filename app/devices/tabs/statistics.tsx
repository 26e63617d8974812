/**
 * The drawer's statistics tab (spec 000 §2, "data statistics (date range chart)"): this device's daily
 * consumption over a date range. Gateways (types 2 and 4) measure nothing, so they do not get it.
 */
import { Suspense, useCallback, useEffect, useState } from 'react';
import { lazyChunk } from '../../shell/chunks';
import { Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { DateTimeInput } from '../../components/DateTimeInput';
import SearchIcon from '@mui/icons-material/Search';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import { deviceType, type DeviceTab, type DeviceTabProps } from '../DeviceDrawer';
import { TIME_TYPE_DAY, defaultRange, fetchDeviceTotal, type DeviceTotal } from '../statistics/api';
import { useApi } from '../../components/calls';

// Charts load with the tab, not with the device list.
const EnergyChart = lazyChunk(() => import('../statistics/EnergyChart'));

const GATEWAY_TYPES = [2, 4];

function StatisticsTab({ device }: DeviceTabProps) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const [range, setRange] = useState(() => {
    const r = defaultRange(TIME_TYPE_DAY);
    return { begin: r.stime.slice(0, 10), end: r.etime.slice(0, 10) };
  });
  const [result, setResult] = useState<DeviceTotal | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(
    async (begin: string, end: string) => {
      if (!begin || !end || begin > end) {
        notify(translate('statistics.noRange'), { type: 'warning' });
        return;
      }
      setLoading(true);
      try {
        setResult(await fetchDeviceTotal(api, { deviceIds: [device.fId], stime: `${begin} 00:00:00`, etime: `${end} 23:59:59`, timeType: TIME_TYPE_DAY }));
      } catch (error) {
        if (error instanceof ApiError && error.status === 200) notify(error.message, { type: 'error' });
      } finally {
        setLoading(false);
      }
    },
    [device.fId, notify, translate, api],
  );

  useEffect(() => {
    void load(range.begin, range.end);
    // Reloads for another device; a changed range waits for Query.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [device.fId]);

  const total = result?.total[0]?.value ?? 0;
  return (
    <Box data-testid="device-statistics">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
        <DateTimeInput mode="date" label={translate('statistics.begin')} value={range.begin} onChange={(begin) => setRange((r) => ({ ...r, begin }))} testId="device-statistics-begin" />
        <DateTimeInput mode="date" label={translate('statistics.end')} value={range.end} onChange={(end) => setRange((r) => ({ ...r, end }))} testId="device-statistics-end" />
        <Button variant="contained" startIcon={<SearchIcon />} onClick={() => load(range.begin, range.end)} disabled={loading} data-testid="device-statistics-query">
          {translate('statistics.query')}
        </Button>
        <Box sx={{ flex: 1 }} />
        {result && (
          <Typography data-testid="device-statistics-total">
            {translate('statistics.sum')}: <b>{total.toLocaleString(undefined, { maximumFractionDigits: 3 })}</b> {translate('statistics.unit')}
          </Typography>
        )}
      </Stack>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
      {result && (
        <Suspense fallback={<LinearProgress />}>
          <EnergyChart chart={result.chart} unit={translate('statistics.unit')} title={translate('statistics.chart')} height={340} />
        </Suspense>
      )}
    </Box>
  );
}

const tab: DeviceTab = {
  key: 'statistics',
  order: 60,
  label: 'statistics.tab',
  component: StatisticsTab,
  when: (device) => !GATEWAY_TYPES.includes(deviceType(device) ?? 0),
};

export default tab;

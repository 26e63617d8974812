/**
 * Statistics page (spec 000 §2): devices, a time range and day or hour, then the consumption totals and a
 * line chart in KW/H; Export downloads the same figures as 数据统计.xlsx.
 */
import { useEffect, useState } from 'react';
import {
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import DownloadIcon from '@mui/icons-material/Download';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import { useApi } from '../../components/calls';
import { EnergyChart } from './EnergyChart';
import { DateTimeInput } from '../../components/DateTimeInput';
import type { CallRow } from '../../../adapters/dataProvider';
import {
  DEVICE_PICKER_SIZE,
  TIME_TYPE_DAY,
  TIME_TYPE_HOUR,
  defaultEnd,
  defaultRange,
  downloadDeviceTotal,
  fetchDeviceTotal,
  type DeviceTotal,
  type DeviceTotalQuery,
} from './api';

/** A device the picker offers, as the device list answers it. */
type DeviceOption = CallRow<'device.list'>;

export function StatisticsPage() {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const [devices, setDevices] = useState<DeviceOption[]>([]);
  const [chosen, setChosen] = useState<DeviceOption[]>([]);
  const [timeType, setTimeType] = useState(TIME_TYPE_DAY);
  const [range, setRange] = useState(() => defaultRange(TIME_TYPE_DAY));
  const [result, setResult] = useState<DeviceTotal | null>(null);
  const [busy, setBusy] = useState<'query' | 'export' | null>(null);

  useEffect(() => {
    api.call('device.list', { current: 1, size: DEVICE_PICKER_SIZE })
      .then((e) => setDevices(e.data?.records ?? []))
      .catch(() => undefined);
  }, []);

  /** The request, or null after telling the user what is missing (spec 000 §5). */
  const request = (): DeviceTotalQuery | null => {
    if (!chosen.length) {
      notify(translate('statistics.noDevice'), { type: 'warning' });
      return null;
    }
    if (!range.stime || !range.etime || range.stime > range.etime) {
      notify(translate('statistics.noRange'), { type: 'warning' });
      return null;
    }
    return { deviceIds: chosen.map((d) => d.fId), stime: range.stime, etime: range.etime, timeType };
  };

  const failed = (error: unknown, fallback: string) => notify(error instanceof ApiError && error.status === 200 ? error.message : translate(fallback), { type: 'error' });

  const query = async () => {
    const body = request();
    if (!body) return;
    setBusy('query');
    try {
      setResult(await fetchDeviceTotal(api, body));
    } catch (error) {
      failed(error, 'ra.notification.http_error');
    } finally {
      setBusy(null);
    }
  };

  const exportFile = async () => {
    const body = request();
    if (!body) return;
    setBusy('export');
    try {
      await downloadDeviceTotal(api, body);
    } catch (error) {
      failed(error, 'statistics.exportFailed');
    } finally {
      setBusy(null);
    }
  };

  const reset = () => {
    setChosen([]);
    setTimeType(TIME_TYPE_DAY);
    setRange(defaultRange(TIME_TYPE_DAY));
    setResult(null);
  };

  const changeType = (value: number) => {
    setTimeType(value);
    setRange((r) => ({ ...r, etime: defaultEnd(value) }));
  };

  const label = (d: DeviceOption) => (d.fName ? `${d.fName} (${d.fNumber})` : (d.fNumber ?? ''));
  const hasData = !!result && result.chart.series.some((s) => s.data.some((v) => v > 0));

  return (
    <Box data-testid="statistics-page" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Paper sx={{ p: 2 }}>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} useFlexGap sx={{ alignItems: { md: 'center' }, flexWrap: 'wrap' }}>
          <Autocomplete
            multiple
            size="small"
            limitTags={2}
            options={devices}
            value={chosen}
            onChange={(_e, v) => setChosen(v)}
            getOptionLabel={label}
            isOptionEqualToValue={(a, b) => a.fId === b.fId}
            sx={{ minWidth: 280, flex: '1 1 280px' }}
            renderInput={(params) => (
              <TextField {...params} label={translate('statistics.devices')} placeholder={chosen.length ? '' : translate('statistics.devicesPlaceholder')} />
            )}
            data-testid="statistics-devices"
          />
          <DateTimeInput seconds label={translate('statistics.begin')} value={range.stime} onChange={(v) => setRange((r) => ({ ...r, stime: v }))} testId="statistics-begin" sx={{ flexShrink: 0 }} />
          <DateTimeInput seconds label={translate('statistics.end')} value={range.etime} onChange={(v) => setRange((r) => ({ ...r, etime: v }))} testId="statistics-end" sx={{ flexShrink: 0 }} />
          <TextField
            select
            size="small"
            label={translate('statistics.type')}
            value={timeType}
            onChange={(e) => changeType(Number(e.target.value))}
            sx={{ width: 130, flexShrink: 0 }}
            slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'statistics-type' } as object } }}
          >
            <MenuItem value={TIME_TYPE_DAY} data-testid="statistics-type-1">
              {translate('statistics.types.day')}
            </MenuItem>
            <MenuItem value={TIME_TYPE_HOUR} data-testid="statistics-type-2">
              {translate('statistics.types.hour')}
            </MenuItem>
          </TextField>
          <Stack direction="row" spacing={1} sx={{ flexShrink: 0, '& .MuiButton-root': { whiteSpace: 'nowrap' } }}>
            <Button variant="contained" startIcon={busy === 'query' ? <CircularProgress size={16} color="inherit" /> : <SearchIcon />} onClick={query} disabled={!!busy} data-testid="statistics-query">
              {translate('statistics.query')}
            </Button>
            <Button variant="outlined" startIcon={<RestartAltIcon />} onClick={reset} disabled={!!busy} data-testid="statistics-reset">
              {translate('statistics.reset')}
            </Button>
            <Button variant="outlined" color="success" startIcon={busy === 'export' ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />} onClick={exportFile} disabled={!!busy} data-testid="statistics-export">
              {translate('statistics.export')}
            </Button>
          </Stack>
        </Stack>
      </Paper>

      {result ? (
        <>
          <Box data-testid="statistics-totals" sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))' }}>
            {result.total.map((t, i) => {
              const isSum = i === result.total.length - 1;
              return (
                <Card key={i} data-testid={isSum ? 'statistics-total-sum' : `statistics-total-${i}`} sx={isSum ? { bgcolor: 'primary.main', color: 'primary.contrastText' } : undefined}>
                  <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
                    <Typography variant="body2" sx={{ opacity: 0.8, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={t.name}>
                      {isSum ? translate('statistics.sum') : t.name}
                    </Typography>
                    <Typography variant="h5" sx={{ mt: 0.5, fontWeight: 600 }}>
                      <span data-testid="statistics-total-value">{t.value.toLocaleString(undefined, { maximumFractionDigits: 3 })}</span>
                      <Typography component="span" variant="body2" sx={{ ml: 0.75, opacity: 0.8 }}>
                        {translate('statistics.unit')}
                      </Typography>
                    </Typography>
                  </CardContent>
                </Card>
              );
            })}
          </Box>
          <Card data-testid="statistics-chart">
            <CardContent>
              <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                {translate('statistics.chart')} ({translate('statistics.unit')})
              </Typography>
              {!hasData && (
                <Typography variant="body2" color="text.secondary" data-testid="statistics-no-data">
                  {translate('statistics.noData')}
                </Typography>
              )}
              <EnergyChart chart={result.chart} unit={translate('statistics.unit')} title={translate('statistics.chart')} />
            </CardContent>
          </Card>
        </>
      ) : (
        <Paper sx={{ p: 6, textAlign: 'center', color: 'text.secondary' }} data-testid="statistics-empty">
          {translate('statistics.empty')}
        </Paper>
      )}
    </Box>
  );
}

export default StatisticsPage;

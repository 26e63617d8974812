/**
 * Device location page (spec 000 §2): product, keyword by device ID or name, Query and Reset; a map of
 * the located devices beside two tabs, the device list (Locate, View) and the devices' alarms.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Box, Button, Paper, Tab, Tabs } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useApi } from '../../components/calls';
import { resources } from '../../generated/resources';
import { SearchBar } from '../../components/SearchBar';
import { useSearch } from '../../components/useSearch';
import { DeviceDrawer } from '../DeviceDrawer';
import { BY_NUMBER, KeywordBy, ProductFilter } from '../DeviceSearch';
import type { DeviceRow } from '../cells';
import { LocationMap } from './LocationMap';
import { PAGE_SIZE, PAGE_SIZES, type AlarmRow, type LocatedDevice } from './constants';
import { DataTable, pagerFromOne, type DataPager } from '../../components/DataTable';

interface Filter {
  productId: string;
  selectType: number;
  keyword: string;
}
const EMPTY: Filter = { productId: '', selectType: BY_NUMBER, keyword: '' };

function conditionOf(f: Filter): Record<string, unknown> {
  const c: Record<string, unknown> = {};
  if (f.productId) c.product_id = Number(f.productId);
  if (f.keyword.trim()) {
    c.keyword = f.keyword.trim();
    c.select_type = f.selectType;
  }
  return c;
}

const deviceConfig = resources.find((r) => r.config.name === 'device')?.config;

/** A side list's pager (pages from 1 here): the sizes of the spec, a narrow toolbar that wraps. */
function listPager(total: number, page: number, perPage: number, onPageChange: (p: number) => void, onSize: (s: number) => void, testId: string): DataPager {
  return pagerFromOne({ total, page, perPage, onPageChange }, { sizes: PAGE_SIZES, onSize, testId, sx: { '& .MuiTablePagination-toolbar': { px: 1, flexWrap: 'wrap' } } });
}

export function LocationPage() {
  const translate = useTranslate();
  const api = useApi();
  const { draft, patch, applied, page, setPage, ...search } = useSearch(EMPTY);
  const [devices, setDevices] = useState<LocatedDevice[]>([]);
  const [loading, setLoading] = useState(false);
  const [chosen, setChosen] = useState<LocatedDevice | null>(null);
  const [viewing, setViewing] = useState<DeviceRow | null>(null);
  const [tab, setTab] = useState<'devices' | 'alarms'>('devices');
  const [size, setSize] = useState(PAGE_SIZE);
  const [alarms, setAlarms] = useState<{ records: AlarmRow[]; total: number }>({ records: [], total: 0 });
  const [alarmPage, setAlarmPage] = useState(1);
  const [alarmSize, setAlarmSize] = useState(PAGE_SIZE);
  const [alarmLoading, setAlarmLoading] = useState(false);

  const condition = useMemo(() => conditionOf(applied), [applied]);

  useEffect(() => {
    let alive = true;
    setLoading(true);
    api.call('device.locations', { condition })
      .then((e) => alive && setDevices(Array.isArray(e.data) ? e.data : []))
      .catch(() => alive && setDevices([]))
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
    // Every Query asks again, even for the same filters.
  }, [condition, search.asked, api]);

  useEffect(() => {
    let alive = true;
    setAlarmLoading(true);
    api.call('device.alarmLocations', { condition, current: alarmPage, size: alarmSize })
      .then((e) => alive && setAlarms({ records: e.data?.records ?? [], total: Number(e.data?.total ?? 0) }))
      .catch(() => alive && setAlarms({ records: [], total: 0 }))
      .finally(() => alive && setAlarmLoading(false));
    return () => {
      alive = false;
    };
  }, [condition, alarmPage, alarmSize, search.asked, api]);

  const query = () => {
    search.query();
    setAlarmPage(1);
    setChosen(null);
  };
  const reset = () => {
    search.reset();
    setAlarmPage(1);
    setChosen(null);
  };

  const choose = useCallback((d: LocatedDevice) => {
    // A new object each time, so Locate on the same device brings the map back to it.
    setChosen({ ...d });
  }, []);

  const pageRows = devices.slice((page - 1) * size, page * size);
  const fieldName = (a: AlarmRow) => translate(`location.fields.${a.fField}`, { _: a.fFieldName || a.fField });

  return (
    <Box sx={{ p: { xs: 1, md: 2 }, display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="location-page">
      <SearchBar onQuery={query} onReset={reset} testIds={{ query: 'location-query', reset: 'location-reset' }}>
        <ProductFilter value={draft.productId} onChange={(productId) => patch({ productId })} testId="location-product" />
        <KeywordBy by={draft.selectType} keyword={draft.keyword} onChange={patch} onEnter={query} testIds={{ by: 'location-search-type', keyword: 'location-keyword' }} />
      </SearchBar>

      <Box sx={{ display: 'flex', gap: 2, flexDirection: { xs: 'column', lg: 'row' }, alignItems: 'stretch' }}>
        <Box sx={{ flex: 1, minWidth: 0, height: { xs: 420, lg: 640 } }}>
          <LocationMap devices={devices} chosen={chosen} onChoose={choose} />
        </Box>
        <Paper variant="outlined" sx={{ width: { xs: '100%', lg: 500 }, flexShrink: 0, display: 'flex', flexDirection: 'column' }}>
          <Tabs value={tab} onChange={(_e, v: 'devices' | 'alarms') => setTab(v)} sx={{ borderBottom: 1, borderColor: 'divider', px: 1 }}>
            <Tab value="devices" label={translate('location.tabs.devices')} data-testid="location-tab-devices" />
            <Tab value="alarms" label={translate('location.tabs.alarms')} data-testid="location-tab-alarms" />
          </Tabs>
          {tab === 'devices' ? (
            <Box data-testid="location-devices" sx={{ display: 'flex', flexDirection: 'column', flex: 1 }}>
              <DataTable
                rows={pageRows}
                rowKey={(d) => d.fId}
                loading={loading}
                progressBar
                containerProps={{ sx: { flex: 1 } }}
                rowProps={(d) => ({ selected: chosen?.fId === d.fId, 'data-testid': 'location-device-row', 'data-id': d.fId })}
                columns={[
                  { key: 'number', header: translate('location.columns.number'), headerSx: { fontWeight: 600 }, cellSx: { whiteSpace: 'nowrap' }, cell: (d) => d.fNumber },
                  { key: 'name', header: translate('location.columns.name'), headerSx: { fontWeight: 600 }, cellSx: { maxWidth: 120, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }, cellProps: (d) => ({ title: d.fName ?? '' }), cell: (d) => d.fName || '-' },
                  {
                    key: 'location',
                    header: translate('location.columns.location'),
                    headerSx: { fontWeight: 600 },
                    cellSx: { whiteSpace: 'nowrap', fontSize: 12 },
                    cell: (d) => (
                      <>
                        {d.fGpsLongitude.toFixed(4)}, {d.fGpsLatitude.toFixed(4)}
                      </>
                    ),
                  },
                  {
                    key: 'actions',
                    header: translate('location.columns.actions'),
                    headerSx: { fontWeight: 600, whiteSpace: 'nowrap' },
                    cellSx: { whiteSpace: 'nowrap', py: 0, '& .MuiButton-root': { minWidth: 0, px: 0.75 } },
                    cell: (d) => (
                      <>
                        <Button size="small" onClick={() => choose(d)} data-testid="location-locate">
                          {translate('location.locate')}
                        </Button>
                        {deviceConfig && (
                          <Button size="small" onClick={() => setViewing({ ...(d as unknown as DeviceRow) })} data-testid="location-view">
                            {translate('location.view')}
                          </Button>
                        )}
                      </>
                    ),
                  },
                ]}
                pager={listPager(devices.length, page, size, setPage, setSize, 'location-devices-pager')}
              />
            </Box>
          ) : (
            <Box data-testid="location-alarms" sx={{ display: 'flex', flexDirection: 'column', flex: 1 }}>
              <DataTable
                rows={alarms.records}
                rowKey={(a) => a.fId}
                loading={alarmLoading}
                progressBar
                containerProps={{ sx: { flex: 1 } }}
                rowProps={() => ({ 'data-testid': 'location-alarm-row' })}
                columns={[
                  { key: 'number', header: translate('location.columns.number'), headerSx: { fontWeight: 600 }, cellSx: { whiteSpace: 'nowrap' }, cell: (a) => a.fNumber },
                  {
                    key: 'field',
                    header: translate('location.columns.field'),
                    headerSx: { fontWeight: 600 },
                    cellSx: { whiteSpace: 'nowrap' },
                    cell: (a) => (
                      <>
                        {a.fField}（{fieldName(a)}）
                      </>
                    ),
                  },
                  { key: 'value', header: translate('location.columns.value'), headerSx: { fontWeight: 600 }, cell: (a) => a.fValue ?? '-' },
                  { key: 'time', header: translate('location.columns.time'), headerSx: { fontWeight: 600 }, cellSx: { whiteSpace: 'nowrap', fontSize: 12 }, cell: (a) => a.fIntime },
                ]}
                pager={listPager(alarms.total, alarmPage, alarmSize, setAlarmPage, setAlarmSize, 'location-alarms-pager')}
              />
            </Box>
          )}
        </Paper>
      </Box>
      {deviceConfig && <DeviceDrawer config={deviceConfig} row={viewing} onClose={() => setViewing(null)} />}
    </Box>
  );
}

export default LocationPage;

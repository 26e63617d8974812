import { useCallback, useEffect, useRef, useState } from 'react';
import { Box, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { EmptyState } from '../../../components/EmptyState';
import type { CallAnswer } from '../../../../adapters/dataProvider';
import { CALLS, useSend, type DeviceCalls } from './device';

/** The device's latest samples with their columns, as the readings call answers them. */
export type Readings = CallAnswer<DeviceCalls['elec']>;
export type ReadingColumn = Readings['tableCols'][number];

/** The device's latest samples (device.readings); `load(true)` first asks the device for fresh ones. */
export function useReadings(deviceId: number, name: DeviceCalls['elec'] = CALLS.elec) {
  const send = useSend();
  const [data, setData] = useState<Readings | undefined>();
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);
  const load = useCallback(
    async (isSendCmd = false) => {
      setLoading(true);
      const res = await send(name, { fId: deviceId, isSendCmd });
      if (!alive.current) return;
      setLoading(false);
      if (res.ok && res.data) {
        setData(res.data);
        setError(undefined);
      } else if (!res.announced) setError(res.message);
    },
    [deviceId, name, send],
  );
  useEffect(() => {
    setData(undefined);
    void load(false);
  }, [load]);
  return { data, loading, error, load };
}

function useColumnLabel() {
  const translate = useTranslate();
  return (col: ReadingColumn) => translate(`deviceTab.data.cols.${col.key}`, { _: col.title }) + (col.unit ? ` (${col.unit})` : '');
}

function useCellText() {
  const translate = useTranslate();
  return (col: ReadingColumn, value: unknown) => {
    if (value === null || value === undefined || value === '') return '-';
    if (col.key === 'switch') return translate(Number(value) === 1 ? 'deviceTab.status.on' : 'deviceTab.status.off');
    return String(value);
  };
}

/** Every sample as a row, newest first. */
export function ReadingsTable({ data }: { data: Readings | undefined }) {
  const translate = useTranslate();
  const label = useColumnLabel();
  const text = useCellText();
  if (!data || data.table.length === 0) return <EmptyState message={translate('deviceTab.status.noReadings')} />;
  return (
    <TableContainer component={Paper} variant="outlined" data-testid="readings-table">
      <Table size="small">
        <TableHead>
          <TableRow>
            {data.tableCols.map((c) => (
              <TableCell key={c.key} align={c.key === 'fTime' ? 'left' : 'right'} sx={{ whiteSpace: 'nowrap', fontWeight: 600 }}>
                {label(c)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {data.table.map((row, i) => (
            <TableRow key={i} data-testid="readings-row">
              {data.tableCols.map((c) => (
                <TableCell key={c.key} align={c.key === 'fTime' ? 'left' : 'right'} sx={{ whiteSpace: 'nowrap' }} data-col={c.key}>
                  {text(c, row[c.key])}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** The newest sample as a row of tiles (the running-status tab). */
export function LatestReadings({ data }: { data: Readings | undefined }) {
  const translate = useTranslate();
  const label = useColumnLabel();
  const text = useCellText();
  const latest = data?.table[0];
  if (!data || !latest) return <EmptyState message={translate('deviceTab.status.noReadings')} minHeight={100} />;
  const time = data.tableCols.find((c) => c.key === 'fTime');
  return (
    <Box data-testid="latest-readings">
      {time && (
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 1 }} data-reading="fTime">
          {label(time)}: {text(time, latest.fTime)}
        </Typography>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(110px, 1fr))', gap: 1.5 }}>
        {data.tableCols.filter((c) => c.key !== 'fTime').map((c) => (
          <Paper key={c.key} variant="outlined" sx={{ p: 1.5 }} data-reading={c.key}>
            <Typography variant="caption" color="text.secondary" noWrap component="div">
              {label(c)}
            </Typography>
            <Typography variant="h6" sx={{ mt: 0.5, whiteSpace: 'nowrap' }}>
              {text(c, latest[c.key])}
            </Typography>
          </Paper>
        ))}
      </Box>
    </Box>
  );
}

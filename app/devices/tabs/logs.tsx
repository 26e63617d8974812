import { useCallback, useEffect, useState } from 'react';
import { Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField } from '@mui/material';
import { DataTable } from '../../components/DataTable';
import type { Counted } from '../../components/Pager';
import { DateTimeInput } from '../../components/DateTimeInput';
import { SearchButtons, SearchText } from '../../components/SearchBar';
import { useSearch } from '../../components/useSearch';
import { useTranslate } from 'react-admin';
import type { DeviceTab, DeviceTabProps } from '../DeviceDrawer';
import { CALLS, useSend } from './shared';
import type { CallRow } from '../../../adapters/dataProvider';

/** A message of the log, as the message records call answers it. */
type MessageRow = CallRow<typeof CALLS.records>;

/** Log payloads are cut at 50 characters (spec 000 §9); the whole text opens on demand. */
const PAYLOAD_CUT = 50;
const SIZES = [10, 20, 50, 100];

interface Filters {
  content: string;
  type: number;
  beginTime: string;
  endTime: string;
}
const EMPTY: Filters = { content: '', type: 0, beginTime: '', endTime: '' };

/** The input gives 2026-01-01 10:30; the server adds ':00' / ':59' to minutes. */
const asCondition = (value: string) => value.replace('T', ' ');

function pretty(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

/**
 * Log management: the message records of one device, or of every device of a product (the product
 * drawer), filtered by content, direction and time.
 */
export function MessageLog({ scope }: { scope: { deviceId: number } | { productId: number } }) {
  const translate = useTranslate();
  const send = useSend();
  const { draft, patch, applied: filters, page, setPage, ...search } = useSearch(EMPTY, { first: 0 });
  const [size, setSize] = useState(10);
  const [rows, setRows] = useState<MessageRow[]>([]);
  /** A huge log answers an estimated total and how many of its newest rows can be paged. */
  const [counted, setCounted] = useState<Counted>({ total: 0 });
  const [error, setError] = useState<string | undefined>();
  const [full, setFull] = useState<MessageRow | null>(null);

  const load = useCallback(async () => {
    const res = await send(CALLS.records, {
      current: page + 1,
      size,
      condition: {
        ...scope,
        content: filters.content.trim() || undefined,
        type: filters.type,
        beginTime: filters.beginTime ? asCondition(filters.beginTime) : undefined,
        endTime: filters.endTime ? asCondition(filters.endTime) : undefined,
      },
    });
    if (res.data) {
      setRows(res.data.records);
      setCounted(res.data);
      setError(undefined);
    } else if (!res.announced) setError(res.message);
    // Every Query asks again, even for the same filters.
  }, [JSON.stringify(scope), filters, page, size, search.asked]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <Box data-testid="device-logs-tab" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}>
        <SearchText label={translate('deviceTab.logs.content')} value={draft.content} onChange={(content) => patch({ content })} onEnter={() => search.query()} testId="logs-content" sx={{ width: 180 }} />
        <TextField
          select
          size="small"
          label={translate('deviceTab.logs.type')}
          value={draft.type}
          onChange={(e) => patch({ type: Number(e.target.value) })}
          sx={{ width: 130 }}
          data-testid="logs-type"
        >
          {[0, 1, 2].map((t) => (
            <MenuItem key={t} value={t}>
              {translate(`deviceTab.logs.types.${t}`)}
            </MenuItem>
          ))}
        </TextField>
        <DateTimeInput label={translate('deviceTab.logs.beginTime')} value={draft.beginTime} onChange={(beginTime) => patch({ beginTime })} testId="logs-begin" />
        <DateTimeInput label={translate('deviceTab.logs.endTime')} value={draft.endTime} onChange={(endTime) => patch({ endTime })} testId="logs-end" />
        <SearchButtons onQuery={search.query} onReset={search.reset} testIds={{ query: 'logs-query', reset: 'logs-reset' }} />
      </Box>
      {error && <Box sx={{ color: 'error.main', typography: 'body2' }}>{error}</Box>}
      <DataTable
        rows={rows}
        rowKey={(r) => r.fId}
        emptyAlone framed
        containerProps={{ 'data-testid': 'logs-table' }}
        tableProps={{ sx: { tableLayout: 'fixed' } }}
        rowProps={() => ({ hover: false, 'data-testid': 'logs-row' })}
        columns={[
          { key: 'intime', header: translate('deviceTab.logs.intime'), headerSx: { width: 170 }, cellSx: { whiteSpace: 'nowrap' }, cell: (r) => r.fIntime },
          { key: 'direction', header: translate('deviceTab.logs.direction'), headerSx: { width: 80 }, cell: (r) => <Chip size="small" variant="outlined" color={r.fDirection === 'up' ? 'primary' : 'secondary'} label={translate(`deviceTab.logs.directions.${r.fDirection}`, { _: r.fDirection })} /> },
          { key: 'topic', header: translate('deviceTab.logs.topic'), headerSx: { width: 230 }, cellSx: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }, cellProps: (r) => ({ title: r.fTopic ?? undefined }), cell: (r) => r.fTopic },
          {
            key: 'payload',
            header: translate('deviceTab.logs.payload'),
            cellSx: { fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' },
            cellProps: () => ({ 'data-testid': 'logs-payload' }),
            cell: (r) => {
              const cut = r.fPayload.length > PAYLOAD_CUT;
              return (
                <>
                  {cut ? `${r.fPayload.slice(0, PAYLOAD_CUT)}...` : r.fPayload}
                  {cut && (
                    <Button size="small" sx={{ ml: 1, minWidth: 0, py: 0 }} onClick={() => setFull(r)} data-testid="logs-payload-more">
                      {translate('deviceTab.logs.more')}
                    </Button>
                  )}
                </>
              );
            },
          },
        ]}
        pager={{
          count: counted,
          page,
          rowsPerPage: size,
          sizes: SIZES,
          onPage: setPage,
          onSize: (n) => {
            setSize(n);
            setPage(0);
          },
          testId: 'logs-pager',
        }}
      />
      <Dialog open={full !== null} onClose={() => setFull(null)} maxWidth="md" fullWidth data-testid="logs-full">
        <DialogTitle>{translate('deviceTab.logs.full')}</DialogTitle>
        <DialogContent dividers>
          <Box sx={{ typography: 'caption', color: 'text.secondary', mb: 1 }}>
            {full?.fIntime} · {full?.fTopic}
          </Box>
          <Box component="pre" sx={{ m: 0, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="logs-full-text">
            {full ? pretty(full.fPayload) : ''}
          </Box>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setFull(null)}>{translate('common.close')}</Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

function LogsTab({ device }: DeviceTabProps) {
  return <MessageLog scope={{ deviceId: device.fId }} />;
}

const tab: DeviceTab = { key: 'logs', order: 80, label: 'device.tabs.logs', component: LogsTab };
export default tab;

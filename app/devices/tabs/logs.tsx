import { useCallback, useEffect, useState } from 'react';
import { Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Paper, TextField } from '@mui/material';
import { DataTable } from '../../components/DataTable';
import type { Counted } from '../../components/Pager';
import { DateTimeInput } from '../../components/DateTimeInput';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useTranslate } from 'react-admin';
import type { DeviceTab, DeviceTabProps } from '../DeviceDrawer';
import { EmptyState } from '../../components/EmptyState';
import { CALLS, useSend } from './shared';

interface MessageRow {
  fId: number;
  fTopic: string;
  fIntime: string;
  fPayload: string;
  fDirection: 'up' | 'down';
}

/** Log payloads are cut at 50 characters (spec §9); the whole text opens on demand. */
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
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const [rows, setRows] = useState<MessageRow[]>([]);
  /** A huge log answers an estimated total and how many of its newest rows can be paged. */
  const [counted, setCounted] = useState<Counted>({ total: 0 });
  const [error, setError] = useState<string | undefined>();
  const [full, setFull] = useState<MessageRow | null>(null);

  const load = useCallback(async () => {
    const res = await send<{ records: MessageRow[] } & Counted>(CALLS.records, {
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
  }, [JSON.stringify(scope), filters, page, size]);
  useEffect(() => {
    void load();
  }, [load]);

  const query = () => {
    setPage(0);
    setFilters({ ...draft });
  };
  const reset = () => {
    setDraft(EMPTY);
    setPage(0);
    setFilters(EMPTY);
  };

  return (
    <Box data-testid="device-logs-tab" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}>
        <TextField
          size="small"
          label={translate('deviceTab.logs.content')}
          value={draft.content}
          onChange={(e) => setDraft({ ...draft, content: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter') query();
          }}
          slotProps={{ htmlInput: { 'data-testid': 'logs-content' } }}
          sx={{ width: 180 }}
        />
        <TextField
          select
          size="small"
          label={translate('deviceTab.logs.type')}
          value={draft.type}
          onChange={(e) => setDraft({ ...draft, type: Number(e.target.value) })}
          sx={{ width: 130 }}
          data-testid="logs-type"
        >
          {[0, 1, 2].map((t) => (
            <MenuItem key={t} value={t}>
              {translate(`deviceTab.logs.types.${t}`)}
            </MenuItem>
          ))}
        </TextField>
        <DateTimeInput label={translate('deviceTab.logs.beginTime')} value={draft.beginTime} onChange={(v) => setDraft({ ...draft, beginTime: v })} testId="logs-begin" />
        <DateTimeInput label={translate('deviceTab.logs.endTime')} value={draft.endTime} onChange={(v) => setDraft({ ...draft, endTime: v })} testId="logs-end" />
        <Button variant="contained" startIcon={<SearchIcon />} onClick={query} data-testid="logs-query">
          {translate('common.query')}
        </Button>
        <Button variant="outlined" startIcon={<RestartAltIcon />} onClick={reset} data-testid="logs-reset">
          {translate('common.reset')}
        </Button>
      </Box>
      {error && <Box sx={{ color: 'error.main', typography: 'body2' }}>{error}</Box>}
      {rows.length === 0 ? (
        <EmptyState />
      ) : (
        <Paper variant="outlined">
          <DataTable
            rows={rows}
            rowKey={(r) => r.fId}
            empty={false}
            containerProps={{ 'data-testid': 'logs-table' }}
            tableProps={{ sx: { tableLayout: 'fixed' } }}
            rowProps={() => ({ hover: false, 'data-testid': 'logs-row' })}
            columns={[
              { key: 'intime', header: translate('deviceTab.logs.intime'), headerSx: { width: 170 }, cellSx: { whiteSpace: 'nowrap' }, cell: (r) => r.fIntime },
              { key: 'direction', header: translate('deviceTab.logs.direction'), headerSx: { width: 80 }, cell: (r) => <Chip size="small" variant="outlined" color={r.fDirection === 'up' ? 'primary' : 'secondary'} label={translate(`deviceTab.logs.directions.${r.fDirection}`, { _: r.fDirection })} /> },
              { key: 'topic', header: translate('deviceTab.logs.topic'), headerSx: { width: 230 }, cellSx: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }, cellProps: (r) => ({ title: r.fTopic }), cell: (r) => r.fTopic },
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
        </Paper>
      )}
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

import { useCallback, useEffect, useState } from 'react';
import { Box, Chip, Collapse, IconButton, MenuItem, TextField, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useLocaleState, useTranslate } from 'react-admin';
import { useCan } from '../../auth/useCan';
import { PageColumn } from '../../components/PageColumn';
import { SearchBar, SearchText } from '../../components/SearchBar';
import { useSearch } from '../../components/useSearch';
import { DataTable } from '../../components/DataTable';
import { useRequest } from '../../components/calls';
import { useToggleSet } from '../../components/useToggleSet';
import type { RecordsPage } from '../../components/usePagedCall';
import { DateTimeInput } from '../../components/DateTimeInput';
import type { CallRow } from '../../../adapters/dataProvider';
import { LANGUAGES } from '../../../contract/reasons';

const LOG_CODE = 'log:list';
const PAGE_SIZES = [10, 20, 50, 100];

/**
 * An entry of the log: `logname` the stored key (older rows: the path or the zh-CN words), `lognames` its
 * name in every language when the server knows the call.
 */
type LogRow = CallRow<'monitor.oplog'>;

/** A page of the log; past 10,000 rows the total is an estimate and only the newest `reachable` rows can be paged. */
type LogPage = RecordsPage<LogRow>;
const EMPTY: LogPage = { records: [], total: 0 };

interface Filters {
  keyword: string;
  begin: string;
  end: string;
  succeed: string;
}
const NO_FILTERS: Filters = { keyword: '', begin: '', end: '', succeed: '' };

/** The input gives 'YYYY-MM-DD HH:mm'; the server reads the zone's wall-clock time. */
const wallTime = (v: string, seconds: string) => (v ? v.replace('T', ' ') + seconds : undefined);

/** Operation log (spec 002 §15): operator and time-range search, status filter, expandable details. */
export function OplogPage() {
  const translate = useTranslate();
  const request = useRequest();
  const [locale] = useLocaleState();
  const language = LANGUAGES.find((l) => l === locale);
  const canList = useCan(LOG_CODE);
  const { draft, patch, applied: filters, page, setPage, ...search } = useSearch(NO_FILTERS, { first: 0 });
  const [size, setSize] = useState(PAGE_SIZES[0]);
  const [data, setData] = useState<LogPage>(EMPTY);
  const [loading, setLoading] = useState(false);
  const [open, toggle] = useToggleSet<number>();

  const load = useCallback(async () => {
    if (!canList) return;
    setLoading(true);
    const condition = {
      keyword: filters.keyword.trim(),
      beginTime: wallTime(filters.begin, ':00'),
      endTime: wallTime(filters.end, ':59'),
      succeed: filters.succeed === '' ? undefined : Number(filters.succeed),
    };
    const res = await request('monitor.oplog', { current: page + 1, size, condition });
    setLoading(false);
    setData(res.ok && res.data ? res.data : EMPTY);
  }, [canList, filters, page, size]);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <PageColumn testId="oplog-page" allowed={canList}>
      <SearchBar form onQuery={search.query} onReset={search.reset} testIds={{ query: 'oplog-search', reset: 'oplog-reset' }} sx={{ gap: 1.5 }}>
        <SearchText label={translate('oplog.keyword')} placeholder={translate('oplog.keywordPlaceholder')} value={draft.keyword} onChange={(keyword) => patch({ keyword })} testId="oplog-keyword" />
        <DateTimeInput label={translate('oplog.begin')} value={draft.begin} onChange={(begin) => patch({ begin })} testId="oplog-begin" />
        <DateTimeInput label={translate('oplog.end')} value={draft.end} onChange={(end) => patch({ end })} testId="oplog-end" />
        <TextField
          size="small"
          select
          label={translate('oplog.status')}
          value={draft.succeed}
          // The status applies at once, with what is typed beside it.
          onChange={(e) => search.query({ ...draft, succeed: e.target.value })}
          sx={{ minWidth: 120 }}
          slotProps={{ htmlInput: { 'data-testid': 'oplog-status' } }}
        >
          <MenuItem value="">{translate('oplog.all')}</MenuItem>
          <MenuItem value="1">{translate('oplog.success')}</MenuItem>
          <MenuItem value="0">{translate('oplog.failure')}</MenuItem>
        </TextField>
      </SearchBar>
      <DataTable
        rows={data.records}
        rowKey={(r) => r.id}
        loading={loading} progressBar framed
        empty={translate('oplog.empty')}
        tableProps={{ 'data-testid': 'oplog-table' }}
        rowProps={(r) => ({ 'data-testid': 'oplog-row', 'data-id': r.id, sx: { '& > td': { borderBottom: open.has(r.id) ? 'none' : undefined } } })}
        columns={[
          {
            key: 'expand',
            header: null,
            padding: 'checkbox',
            cell: (r) => (
              <IconButton size="small" onClick={() => toggle(r.id)} aria-label={translate('oplog.expand')} data-testid="oplog-expand">
                {open.has(r.id) ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
              </IconButton>
            ),
          },
          { key: 'logname', header: translate('oplog.logname'), cellSx: { maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }, cellProps: (r) => ({ title: r.logname }), cell: (r) => (language ? r.lognames?.[language] : undefined) ?? r.logname },
          { key: 'operator', header: translate('oplog.operator'), cell: (r) => r.userName || '-' },
          { key: 'logtype', header: translate('oplog.logtype'), cell: (r) => r.logtype },
          { key: 'ip', header: translate('oplog.ip'), cell: (r) => r.ip || '-' },
          { key: 'status', header: translate('oplog.status'), cell: (r) => <Chip size="small" variant="outlined" color={r.succeed === 1 ? 'success' : 'error'} label={translate(r.succeed === 1 ? 'oplog.success' : 'oplog.failure')} /> },
          { key: 'time', header: translate('oplog.time'), cellSx: { whiteSpace: 'nowrap' }, cell: (r) => r.createtime },
        ]}
        detail={(r) => ({
          open: open.has(r.id),
          content: (
            <Collapse in={open.has(r.id)} unmountOnExit>
              <Box sx={{ py: 1.5, pl: 6 }} data-testid="oplog-detail">
                <Typography variant="caption" color="text.secondary">
                  {translate('oplog.message')}
                </Typography>
                <Typography component="pre" variant="body2" sx={{ m: 0, fontFamily: 'monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                  {r.message || '-'}
                </Typography>
              </Box>
            </Collapse>
          ),
        })}
        pager={{ count: data, page, rowsPerPage: size, sizes: PAGE_SIZES, onPage: setPage, onSize: (n) => (setSize(n), setPage(0)) }}
      />
    </PageColumn>
  );
}

export default OplogPage;

import { Fragment, useCallback, useEffect, useState } from 'react';
import { Box, Button, Chip, Collapse, IconButton, LinearProgress, MenuItem, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useLocaleState, useTranslate } from 'react-admin';
import { useCan } from '../auth/useCan';
import { EmptyRow, EmptyState } from '../components/EmptyState';
import { request } from '../devices/tabs/timers/api';
import { Pager, pagerCounts, type Counted } from '../components/Pager';
import { DateTimeInput } from '../components/DateTimeInput';

const LOG_PATH = '/system/log/pageList';
const LOG_CODE = 'log:list';
const PAGE_SIZES = [10, 20, 50, 100];

interface LogRow {
  id: number;
  message: string | null;
  logtype: string;
  userName: string | null;
  /** The stored key (older rows: the path or the zh-CN words). */
  logname: string;
  /** Its name in every language, when the server knows the call. */
  lognames: Record<string, string> | null;
  ip: string | null;
  succeed: number;
  createtime: string;
}

/** A page of the log; past 10,000 rows the total is an estimate and only the newest `reachable` rows can be paged. */
interface LogPage extends Counted {
  records: LogRow[];
}
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
  const [locale] = useLocaleState();
  const canList = useCan(LOG_CODE);
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(PAGE_SIZES[0]);
  const [data, setData] = useState<LogPage>(EMPTY);
  const [loading, setLoading] = useState(false);
  const [open, setOpen] = useState<Set<number>>(new Set());

  const load = useCallback(async () => {
    if (!canList) return;
    setLoading(true);
    const condition = {
      keyword: filters.keyword.trim(),
      beginTime: wallTime(filters.begin, ':00'),
      endTime: wallTime(filters.end, ':59'),
      succeed: filters.succeed === '' ? undefined : Number(filters.succeed),
    };
    const res = await request<LogPage>(LOG_PATH, { current: page + 1, size, condition });
    setLoading(false);
    setData(res.ok && res.data ? res.data : EMPTY);
  }, [canList, filters, page, size]);
  useEffect(() => {
    void load();
  }, [load]);

  const toggle = (id: number) =>
    setOpen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const apply = (next: Filters) => {
    setPage(0);
    setFilters(next);
  };

  if (!canList) return <EmptyState />;

  return (
    <Box data-testid="oplog-page" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Paper
        variant="outlined"
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          apply(draft);
        }}
        sx={{ p: 2, display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}
      >
        <TextField size="small" label={translate('oplog.keyword')} placeholder={translate('oplog.keywordPlaceholder')} value={draft.keyword} onChange={(e) => setDraft({ ...draft, keyword: e.target.value })} slotProps={{ htmlInput: { 'data-testid': 'oplog-keyword' } }} />
        <DateTimeInput label={translate('oplog.begin')} value={draft.begin} onChange={(begin) => setDraft({ ...draft, begin })} testId="oplog-begin" />
        <DateTimeInput label={translate('oplog.end')} value={draft.end} onChange={(end) => setDraft({ ...draft, end })} testId="oplog-end" />
        <TextField
          size="small"
          select
          label={translate('oplog.status')}
          value={draft.succeed}
          onChange={(e) => {
            const next = { ...draft, succeed: e.target.value };
            setDraft(next);
            apply(next);
          }}
          sx={{ minWidth: 120 }}
          slotProps={{ htmlInput: { 'data-testid': 'oplog-status' } }}
        >
          <MenuItem value="">{translate('oplog.all')}</MenuItem>
          <MenuItem value="1">{translate('oplog.success')}</MenuItem>
          <MenuItem value="0">{translate('oplog.failure')}</MenuItem>
        </TextField>
        <Button type="submit" variant="contained" startIcon={<SearchIcon />} data-testid="oplog-search">
          {translate('common.query')}
        </Button>
        <Button variant="outlined" startIcon={<RestartAltIcon />} onClick={() => (setDraft(NO_FILTERS), apply(NO_FILTERS))} data-testid="oplog-reset">
          {translate('common.reset')}
        </Button>
      </Paper>
      <Paper variant="outlined">
        <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
        <TableContainer>
          <Table size="small" data-testid="oplog-table">
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox" />
                <TableCell>{translate('oplog.logname')}</TableCell>
                <TableCell>{translate('oplog.operator')}</TableCell>
                <TableCell>{translate('oplog.logtype')}</TableCell>
                <TableCell>{translate('oplog.ip')}</TableCell>
                <TableCell>{translate('oplog.status')}</TableCell>
                <TableCell>{translate('oplog.time')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.records.map((r) => (
                <Fragment key={r.id}>
                  <TableRow hover data-testid="oplog-row" data-id={r.id} sx={{ '& > td': { borderBottom: open.has(r.id) ? 'none' : undefined } }}>
                    <TableCell padding="checkbox">
                      <IconButton size="small" onClick={() => toggle(r.id)} aria-label={translate('oplog.expand')} data-testid="oplog-expand">
                        {open.has(r.id) ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
                      </IconButton>
                    </TableCell>
                    <TableCell sx={{ maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={r.logname}>{r.lognames?.[locale] ?? r.logname}</TableCell>
                    <TableCell>{r.userName || '-'}</TableCell>
                    <TableCell>{r.logtype}</TableCell>
                    <TableCell>{r.ip || '-'}</TableCell>
                    <TableCell>
                      <Chip size="small" variant="outlined" color={r.succeed === 1 ? 'success' : 'error'} label={translate(r.succeed === 1 ? 'oplog.success' : 'oplog.failure')} />
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.createtime}</TableCell>
                  </TableRow>
                  <TableRow>
                    <TableCell colSpan={7} sx={{ py: 0, borderBottom: open.has(r.id) ? undefined : 'none' }}>
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
                    </TableCell>
                  </TableRow>
                </Fragment>
              ))}
              {data.records.length === 0 && !loading && <EmptyRow columns={7} message={translate('oplog.empty')} />}
            </TableBody>
          </Table>
        </TableContainer>
        <Pager
          component="div"
          {...pagerCounts(data)}
          page={page}
          onPageChange={(_e, n) => setPage(n)}
          rowsPerPage={size}
          rowsPerPageOptions={PAGE_SIZES}
          onRowsPerPageChange={(e) => (setSize(Number(e.target.value)), setPage(0))}
        />
      </Paper>
    </Box>
  );
}

export default OplogPage;

import { useEffect, useState } from 'react';
import { Box, Button, Checkbox, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslate } from 'react-admin';
import { OnlineChip } from '../devices/cells';
import { request } from '../devices/tabs/timers/api';
import { PAGE_SIZE, type Page } from './api';
import { Pager } from '../components/Pager';

type Row = Record<string, unknown> & { fId: number };

export interface RoomDevicePickerProps {
  open: boolean;
  title: string;
  /** selected-devices (link rows, device under `device`) or unselected-devices (device rows). */
  path: string;
  condition: Record<string, unknown>;
  emptyMessage: string;
  onClose: () => void;
  /** Answers whether the dialog may close. */
  onConfirm: (picked: Row[]) => Promise<boolean>;
  testId: string;
}

const deviceOf = (row: Row) => ((row.device as Row | undefined) ?? row) as Row;

/**
 * Multi-select of devices with keyword search, 10 a page; the choice survives paging and searching.
 * Unlike the gateway picker it also lists binding rows, whose device is nested.
 */
export function RoomDevicePicker({ open, title, path, condition, emptyMessage, onClose, onConfirm, testId }: RoomDevicePickerProps) {
  const translate = useTranslate();
  const [draft, setDraft] = useState('');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(0);
  const [data, setData] = useState<Page<Row>>({ records: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [picked, setPicked] = useState<Map<number, Row>>(new Map());
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setDraft('');
    setKeyword('');
    setPage(0);
    setPicked(new Map());
    setError('');
  }, [open]);

  const conditionKey = JSON.stringify(condition);
  useEffect(() => {
    if (!open) return;
    let live = true;
    setLoading(true);
    void request<Page<Row>>(path, { current: page + 1, size: PAGE_SIZE, condition: { ...condition, keyword } }).then((res) => {
      if (!live) return;
      setLoading(false);
      setData(res.ok && res.data ? res.data : { records: [], total: 0 });
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, path, conditionKey, keyword, page]);

  const toggle = (row: Row) =>
    setPicked((m) => {
      const next = new Map(m);
      if (next.has(row.fId)) next.delete(row.fId);
      else next.set(row.fId, row);
      return next;
    });
  const allOnPage = data.records.length > 0 && data.records.every((r) => picked.has(r.fId));
  const togglePage = () =>
    setPicked((m) => {
      const next = new Map(m);
      for (const r of data.records) {
        if (allOnPage) next.delete(r.fId);
        else next.set(r.fId, r);
      }
      return next;
    });

  const confirm = async () => {
    if (picked.size === 0) {
      setError(emptyMessage);
      return;
    }
    setBusy(true);
    const done = await onConfirm([...picked.values()]);
    setBusy(false);
    if (done) onClose();
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth data-testid={testId}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers>
        <Box component="form" onSubmit={(e) => { e.preventDefault(); setPage(0); setKeyword(draft.trim()); }} sx={{ display: 'flex', gap: 1, mb: 2, flexWrap: 'wrap' }}>
          <TextField size="small" label={translate('places.keyword')} value={draft} onChange={(e) => setDraft(e.target.value)} slotProps={{ htmlInput: { 'data-testid': testId + '-keyword' } }} />
          <Button type="submit" variant="contained" startIcon={<SearchIcon />} data-testid={testId + '-search'}>
            {translate('common.query')}
          </Button>
          <Box sx={{ flex: 1 }} />
          <Typography variant="body2" color="text.secondary" sx={{ alignSelf: 'center' }}>
            {translate('places.selected', { count: picked.size })}
          </Typography>
        </Box>
        <TableContainer>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  <Checkbox size="small" checked={allOnPage} onChange={togglePage} slotProps={{ input: { 'aria-label': translate('common.all') } }} />
                </TableCell>
                <TableCell>{translate('places.number')}</TableCell>
                <TableCell>{translate('places.deviceName')}</TableCell>
                <TableCell>{translate('places.product')}</TableCell>
                <TableCell>{translate('places.online')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.records.map((r) => {
                const d = deviceOf(r);
                return (
                  <TableRow key={r.fId} hover onClick={() => toggle(r)} sx={{ cursor: 'pointer' }} data-testid={testId + '-row'} data-id={r.fId}>
                    <TableCell padding="checkbox">
                      <Checkbox size="small" checked={picked.has(r.fId)} slotProps={{ input: { 'aria-label': String(d.fNumber ?? r.fId) } }} />
                    </TableCell>
                    <TableCell>{String(d.fNumber ?? '')}</TableCell>
                    <TableCell>{String(d.fName ?? '')}</TableCell>
                    <TableCell>{String((d.tProduct as Row | null | undefined)?.fName ?? '')}</TableCell>
                    <TableCell>
                      <OnlineChip value={d.tOnline} />
                    </TableCell>
                  </TableRow>
                );
              })}
              {data.records.length === 0 && (
                <TableRow>
                  <TableCell colSpan={5} align="center" sx={{ color: 'text.disabled', py: 4 }}>
                    {loading ? <CircularProgress size={20} /> : translate('common.noData')}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <Pager
          component="div"
          count={data.total}
          page={Math.min(page, Math.max(0, Math.ceil(data.total / PAGE_SIZE) - 1))}
          onPageChange={(_e, p) => setPage(p)}
          rowsPerPage={PAGE_SIZE}
          rowsPerPageOptions={[PAGE_SIZE]}
        />
        {error && (
          <Typography color="error" variant="body2" data-testid={testId + '-error'}>
            {error}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('common.cancel')}</Button>
        <Button variant="contained" onClick={() => void confirm()} disabled={busy} data-testid={testId + '-confirm'}>
          {busy ? <CircularProgress size={18} /> : translate('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

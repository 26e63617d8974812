import { useEffect, useState } from 'react';
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslate } from 'react-admin';
import { OnlineChip } from '../cells';
import type { CallName } from '../../../adapters/dataProvider';
import { useRequest } from '../../components/calls';
import { PICKER_SIZE, type DeviceRow, type Page } from './api';
import { DataTable } from '../../components/DataTable';

export interface DevicePickerDialogProps {
  open: boolean;
  title: string;
  /** The paged call that lists the devices that may be picked. */
  call: CallName;
  /** Fixed condition keys (gateway: type_id; group: group_id). */
  condition: Record<string, unknown>;
  /** How the search box is sent: one keyword, or separate name and number. */
  search: 'keyword' | 'nameNumber';
  /** Message shown when confirming with nothing picked. */
  emptyMessage: string;
  onClose: () => void;
  /** Answers whether the dialog may close. */
  onConfirm: (picked: DeviceRow[]) => Promise<boolean>;
  testId?: string;
  /** The device a listed row shows, when rows are links that carry their device (a room's bindings). */
  deviceOf?: (row: DeviceRow) => DeviceRow;
}

const itself = (row: DeviceRow) => row;

/** Multi-select of devices, 10 a page; the choice survives paging and searching. */
export function DevicePickerDialog({ open, title, call, condition, search, emptyMessage, onClose, onConfirm, testId = 'device-picker', deviceOf = itself }: DevicePickerDialogProps) {
  const translate = useTranslate();
  const request = useRequest();
  const [name, setName] = useState('');
  const [number, setNumber] = useState('');
  const [applied, setApplied] = useState({ name: '', number: '' });
  const [page, setPage] = useState(0);
  const [data, setData] = useState<Page>({ records: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [picked, setPicked] = useState<Map<number, DeviceRow>>(new Map());
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName('');
    setNumber('');
    setApplied({ name: '', number: '' });
    setPage(0);
    setPicked(new Map());
    setError('');
  }, [open]);

  const conditionKey = JSON.stringify(condition);
  useEffect(() => {
    if (!open) return;
    let live = true;
    const searchCondition = search === 'keyword' ? { keyword: applied.name } : { name: applied.name, number: applied.number };
    setLoading(true);
    void request<Page>(call, { current: page + 1, size: PICKER_SIZE, condition: { ...condition, ...searchCondition } }).then((res) => {
      if (!live) return;
      setLoading(false);
      setData(res.ok && res.data ? res.data : { records: [], total: 0 });
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, call, conditionKey, search, applied, page]);

  const toggle = (row: DeviceRow) =>
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
        <Box component="form" onSubmit={(e) => { e.preventDefault(); setPage(0); setApplied({ name, number }); }} sx={{ display: 'flex', gap: 1, mb: 2, flexWrap: 'wrap' }}>
          <TextField size="small" label={translate(search === 'keyword' ? 'gateways.keyword' : 'gateways.deviceName')} value={name} onChange={(e) => setName(e.target.value)} slotProps={{ htmlInput: { 'data-testid': testId + '-name' } }} />
          {search === 'nameNumber' && (
            <TextField size="small" label={translate('gateways.deviceNumber')} value={number} onChange={(e) => setNumber(e.target.value)} slotProps={{ htmlInput: { 'data-testid': testId + '-number' } }} />
          )}
          <Button type="submit" variant="contained" startIcon={<SearchIcon />} data-testid={testId + '-search'}>
            {translate('common.query')}
          </Button>
          <Box sx={{ flex: 1 }} />
          <Typography variant="body2" color="text.secondary" sx={{ alignSelf: 'center' }}>
            {translate('gateways.selected', { count: picked.size })}
          </Typography>
        </Box>
        <DataTable
          rows={data.records}
          rowKey={(r) => r.fId}
          loading={loading}
          emptySpinner
          containerProps={{ sx: { position: 'relative' } }}
          rowProps={(r) => ({ onClick: () => toggle(r), sx: { cursor: 'pointer' }, 'data-testid': testId + '-row', 'data-id': r.fId })}
          selection={{
            all: { checked: allOnPage, onChange: togglePage, props: { slotProps: { input: { 'aria-label': translate('common.all') } } } },
            row: (r) => ({ checked: picked.has(r.fId), props: { slotProps: { input: { 'aria-label': String(deviceOf(r).fNumber ?? r.fId) } } } }),
          }}
          columns={[
            { key: 'number', header: translate('gateways.deviceNumber'), cell: (r) => String(deviceOf(r).fNumber ?? '') },
            { key: 'name', header: translate('gateways.deviceName'), cell: (r) => String(deviceOf(r).fName ?? '') },
            { key: 'product', header: translate('resources.device.fields.fProductId'), cell: (r) => String((deviceOf(r).tProduct as Record<string, unknown> | null | undefined)?.fName ?? '') },
            { key: 'online', header: translate('resources.device.fields.tOnline'), cell: (r) => <OnlineChip value={deviceOf(r).tOnline} /> },
          ]}
          pager={{ count: data, page, rowsPerPage: PICKER_SIZE, onPage: setPage }}
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

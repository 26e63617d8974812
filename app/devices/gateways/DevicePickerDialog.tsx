import { useEffect, useState } from 'react';
import { Box, Button, Dialog, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useTranslate } from 'react-admin';
import { OnlineChip } from '../cells';
import type { CallRow } from '../../../adapters/dataProvider';
import { usePagedCall, type PagedCallName } from '../../components/usePagedCall';
import { PICKER_SIZE } from './api';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { DialogFooter } from '../../components/DialogFooter';

/** The picker's test ids; those left out derive from `testId` or are not set. */
export interface PickerTestIds {
  search: string;
  number: string;
  query: string;
  count?: string;
  row: string;
  checkPage?: string;
  check?: (id: number) => string;
  error: string;
  cancel?: string;
  confirm: string;
}

/** A row a picker offers, as its paged call answers it: a device, or a row carrying its device (`deviceOf`). */
export type PickerRow<N extends PagedCallName> = CallRow<N> & { fId: number };
/** What the default columns show of a row's device. */
type ShownDevice = Partial<CallRow<'device.list'>>;

export interface DevicePickerDialogProps<N extends PagedCallName> {
  open: boolean;
  title: string;
  /** The paged call that lists the devices that may be picked. */
  call: N;
  /** Fixed condition keys (gateway: type_id; group: group_id; firmware: its id and product). */
  condition: Record<string, unknown>;
  /** How the search box is sent: one keyword, or separate name and number. */
  search: 'keyword' | 'nameNumber';
  /** The keyword box's label, already worded (default gateways.keyword). */
  searchLabel?: string;
  /** i18n key of the count of picked devices, given %{count} (default gateways.selected). */
  countKey?: string;
  /** The empty table's words (default the table's). */
  empty?: string;
  /** Shown under the table when confirming with nothing picked; without it the confirm answers that itself. */
  emptyMessage?: string;
  /** The table's columns (default number, name, product, connection). */
  columns?: DataColumn<PickerRow<N>>[];
  onClose: () => void;
  /** Answers whether the dialog may close. */
  onConfirm: (picked: PickerRow<N>[]) => Promise<boolean>;
  testId?: string;
  /** Test ids of a screen whose tests named them otherwise. */
  testIds?: Partial<PickerTestIds>;
  /** The device a listed row shows, when rows are links that carry their device (a room's bindings). */
  deviceOf?: (row: PickerRow<N>) => ShownDevice;
}

/** A row that is a device shows itself. */
const itself = (row: { fId: number }): ShownDevice => row;

/** Multi-select of devices, 10 a page; the choice survives paging and searching. */
export function DevicePickerDialog<N extends PagedCallName>({
  open,
  title,
  call,
  condition,
  search,
  searchLabel,
  countKey = 'gateways.selected',
  empty,
  emptyMessage,
  columns,
  onClose,
  onConfirm,
  testId = 'device-picker',
  testIds,
  deviceOf = itself,
}: DevicePickerDialogProps<N>) {
  const translate = useTranslate();
  const ids: PickerTestIds = { search: testId + '-name', number: testId + '-number', query: testId + '-search', row: testId + '-row', error: testId + '-error', confirm: testId + '-confirm', ...testIds };
  const [name, setName] = useState('');
  const [number, setNumber] = useState('');
  const [applied, setApplied] = useState({ name: '', number: '' });
  const [page, setPage] = useState(0);
  const [picked, setPicked] = useState<Map<number, PickerRow<N>>>(new Map());
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

  const searchCondition = search === 'keyword' ? { keyword: applied.name } : { name: applied.name, number: applied.number };
  const offered = usePagedCall(call, open ? { current: page + 1, size: PICKER_SIZE, condition: { ...condition, ...searchCondition } } : null);

  const choose = (rows: PickerRow<N>[], on: boolean) =>
    setPicked((m) => {
      const next = new Map(m);
      for (const r of rows) {
        if (on) next.set(r.fId, r);
        else next.delete(r.fId);
      }
      return next;
    });
  const allOnPage = offered.data.records.length > 0 && offered.data.records.every((r) => picked.has(r.fId));

  const confirm = async () => {
    if (picked.size === 0 && emptyMessage) {
      setError(emptyMessage);
      return;
    }
    setBusy(true);
    const done = await onConfirm([...picked.values()]);
    setBusy(false);
    if (done) onClose();
  };

  return (
    <Dialog open={open} onClose={() => !busy && onClose()} maxWidth="md" fullWidth data-testid={testId}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent dividers>
        <Box
          component="form"
          onSubmit={(e) => {
            e.preventDefault();
            setPage(0);
            setApplied({ name: name.trim(), number: number.trim() });
          }}
          sx={{ display: 'flex', gap: 1, mb: 2, flexWrap: 'wrap', alignItems: 'center' }}
        >
          <TextField
            size="small"
            label={searchLabel ?? translate(search === 'keyword' ? 'gateways.keyword' : 'gateways.deviceName')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            slotProps={{ htmlInput: { 'data-testid': ids.search } }}
          />
          {search === 'nameNumber' && (
            <TextField size="small" label={translate('gateways.deviceNumber')} value={number} onChange={(e) => setNumber(e.target.value)} slotProps={{ htmlInput: { 'data-testid': ids.number } }} />
          )}
          <Button type="submit" variant="contained" startIcon={<SearchIcon />} data-testid={ids.query}>
            {translate('common.query')}
          </Button>
          <Box sx={{ flex: 1 }} />
          <Typography variant="body2" color="text.secondary" data-testid={ids.count}>
            {translate(countKey, { count: picked.size })}
          </Typography>
        </Box>
        <DataTable
          {...offered.table}
          empty={empty}
          rowProps={(r) => ({ onClick: () => choose([r], !picked.has(r.fId)), sx: { cursor: 'pointer' }, 'data-testid': ids.row, 'data-id': r.fId })}
          selection={{
            all: {
              checked: allOnPage,
              indeterminate: !allOnPage && offered.data.records.some((r) => picked.has(r.fId)),
              onChange: (on) => choose(offered.data.records, on),
              props: { slotProps: { input: { 'aria-label': translate('common.all'), 'data-testid': ids.checkPage } as object } },
            },
            row: (r) => ({ checked: picked.has(r.fId), props: { slotProps: { input: { 'aria-label': String(deviceOf(r).fNumber ?? r.fId), 'data-testid': ids.check?.(r.fId) } as object } } }),
          }}
          columns={
            columns ?? [
              { key: 'number', header: translate('gateways.deviceNumber'), cell: (r) => String(deviceOf(r).fNumber ?? '') },
              { key: 'name', header: translate('gateways.deviceName'), cell: (r) => String(deviceOf(r).fName ?? '') },
              { key: 'product', header: translate('resources.device.fields.fProductId'), cell: (r) => String(deviceOf(r).tProduct?.fName ?? '') },
              { key: 'online', header: translate('resources.device.fields.tOnline'), cell: (r) => <OnlineChip value={deviceOf(r).tOnline} /> },
            ]
          }
          pager={{ count: offered.data, page, rowsPerPage: PICKER_SIZE, onPage: setPage }}
        />
        {error && (
          <Typography color="error" variant="body2" data-testid={ids.error}>
            {error}
          </Typography>
        )}
      </DialogContent>
      <DialogFooter onCancel={onClose} cancelTestId={ids.cancel} onSubmit={() => void confirm()} submitTestId={ids.confirm} busy={busy} />
    </Dialog>
  );
}

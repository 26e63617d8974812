import { useEffect, useState } from 'react';
import { Box, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError, envelopeText } from '../../../adapters/http';
import { useApi } from '../../components/calls';
import { UPGRADE_CALLS } from './endpoints';
import { DataTable } from '../../components/DataTable';

type Device = { fId: number; fNumber: string; fName?: string | null; tOnline?: number | null };
interface Page {
  records: Device[];
  total: number;
}

/** Pickers show 10 a page (spec §9). */
const PICKER_SIZE = 10;

/** Devices of the firmware's product not yet added, 10 a page, chosen across pages and added together. */
export function DevicePicker({ firmware, open, onClose, onAdded }: { firmware: { fId: number; fProductId?: unknown }; open: boolean; onClose: () => void; onAdded: () => void }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [data, setData] = useState<Page>({ records: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [saving, setSaving] = useState(false);
  const [chosen, setChosen] = useState<Map<number, Device>>(new Map());

  useEffect(() => {
    if (!open) return;
    setTyped('');
    setKeyword('');
    setPage(1);
    setChosen(new Map());
  }, [open]);

  useEffect(() => {
    if (!open) return;
    let alive = true;
    setLoading(true);
    api.call<Page>(UPGRADE_CALLS.undevices, { current: page, size: PICKER_SIZE, condition: { fFirmwareId: firmware.fId, fProductId: firmware.fProductId, keyword } })
      .then((e) => alive && setData(e.data))
      .catch(() => alive && setData({ records: [], total: 0 }))
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, [open, page, keyword, firmware.fId, firmware.fProductId]);

  const toggle = (d: Device, on: boolean) =>
    setChosen((prev) => {
      const next = new Map(prev);
      if (on) next.set(d.fId, d);
      else next.delete(d.fId);
      return next;
    });
  const allOnPage = data.records.length > 0 && data.records.every((d) => chosen.has(d.fId));

  const add = async () => {
    if (!chosen.size) return notify(translate('firmware.upgrade.noneSelected'), { type: 'warning' });
    setSaving(true);
    try {
      const envelope = await api.call(UPGRADE_CALLS.addDevices, [...chosen.keys()].map((fDeviceId) => ({ fDeviceId, fFirmwareId: firmware.fId })));
      notify(envelopeText(envelope) || translate('firmware.upgrade.added'), { type: 'success' });
      onAdded();
      onClose();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 200) notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onClose={() => !saving && onClose()} fullWidth maxWidth="md" data-testid="firmware-device-picker">
      <DialogTitle>{translate('firmware.picker.title')}</DialogTitle>
      <DialogContent dividers>
        <Box sx={{ display: 'flex', gap: 1, mb: 1, alignItems: 'center' }}>
          <TextField
            size="small"
            label={translate('firmware.picker.keyword')}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                setKeyword(typed.trim());
                setPage(1);
              }
            }}
            slotProps={{ htmlInput: { 'data-testid': 'picker-keyword' } }}
          />
          <Button
            variant="contained"
            startIcon={<SearchIcon />}
            onClick={() => {
              setKeyword(typed.trim());
              setPage(1);
            }}
            data-testid="picker-query"
          >
            {translate('common.query')}
          </Button>
          <Box sx={{ flex: 1 }} />
          <Typography variant="body2" color="text.secondary" data-testid="picker-selected">
            {translate('firmware.picker.selected', { count: chosen.size })}
          </Typography>
        </Box>
        <DataTable
          rows={data.records}
          rowKey={(d) => d.fId}
          loading={loading}
          progressBar
          empty={translate('firmware.picker.empty')}
          rowProps={(d) => ({ onClick: () => toggle(d, !chosen.has(d.fId)), sx: { cursor: 'pointer' }, 'data-testid': 'picker-row' })}
          selection={{
            all: {
              checked: allOnPage,
              indeterminate: !allOnPage && data.records.some((d) => chosen.has(d.fId)),
              onChange: (checked) => data.records.forEach((d) => toggle(d, checked)),
              props: { slotProps: { input: { 'data-testid': 'picker-check-page' } as object } },
            },
            row: (d) => ({ checked: chosen.has(d.fId), props: { slotProps: { input: { 'data-testid': `picker-check-${d.fId}` } as object } } }),
          }}
          columns={[
            { key: 'device', header: translate('firmware.upgrade.device'), headerSx: { fontWeight: 600 }, cell: (d) => d.fNumber },
            { key: 'name', header: translate('firmware.upgrade.deviceName'), headerSx: { fontWeight: 600 }, cell: (d) => d.fName ?? '-' },
            {
              key: 'state',
              header: translate('firmware.picker.state'),
              headerSx: { fontWeight: 600 },
              cell: (d) => <Chip size="small" variant="outlined" color={d.tOnline === 1 ? 'success' : 'default'} label={translate(d.tOnline === 1 ? 'firmware.picker.online' : 'firmware.picker.offline')} />,
            },
          ]}
          pager={{ count: data.total, page: Math.max(0, page - 1), rowsPerPage: PICKER_SIZE, onPage: (p) => setPage(p + 1) }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={saving} data-testid="picker-cancel">
          {translate('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void add()} disabled={saving} startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined} data-testid="picker-add">
          {translate('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

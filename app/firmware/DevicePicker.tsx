import { useEffect, useState } from 'react';
import { Box, Button, Checkbox, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError, call } from '../../adapters/http';
import { EmptyState } from '../components/EmptyState';
import { upgradeEndpoints } from './endpoints';
import { Pager } from '../components/Pager';

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
    call<Page>(upgradeEndpoints().undevices, { current: page, size: PICKER_SIZE, condition: { fFirmwareId: firmware.fId, fProductId: firmware.fProductId, keyword } })
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
      const envelope = await call(upgradeEndpoints().addDevices, [...chosen.keys()].map((fDeviceId) => ({ fDeviceId, fFirmwareId: firmware.fId })));
      notify(envelope.message || translate('firmware.upgrade.added'), { type: 'success' });
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
        <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  size="small"
                  checked={allOnPage}
                  indeterminate={!allOnPage && data.records.some((d) => chosen.has(d.fId))}
                  onChange={(e) => data.records.forEach((d) => toggle(d, e.target.checked))}
                  slotProps={{ input: { 'data-testid': 'picker-check-page' } as object }}
                />
              </TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{translate('firmware.upgrade.device')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{translate('firmware.upgrade.deviceName')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{translate('firmware.picker.state')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.records.map((d) => (
              <TableRow key={d.fId} hover onClick={() => toggle(d, !chosen.has(d.fId))} sx={{ cursor: 'pointer' }} data-testid="picker-row">
                <TableCell padding="checkbox">
                  <Checkbox size="small" checked={chosen.has(d.fId)} slotProps={{ input: { 'data-testid': `picker-check-${d.fId}` } as object }} />
                </TableCell>
                <TableCell>{d.fNumber}</TableCell>
                <TableCell>{d.fName ?? '-'}</TableCell>
                <TableCell>
                  <Chip size="small" variant="outlined" color={d.tOnline === 1 ? 'success' : 'default'} label={translate(d.tOnline === 1 ? 'firmware.picker.online' : 'firmware.picker.offline')} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {!loading && data.records.length === 0 && <EmptyState message={translate('firmware.picker.empty')} minHeight={120} />}
        <Pager
          component="div"
          count={data.total}
          page={Math.max(0, page - 1)}
          rowsPerPage={PICKER_SIZE}
          rowsPerPageOptions={[PICKER_SIZE]}
          onPageChange={(_e, p) => setPage(p + 1)}
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

import { useCallback, useEffect, useState } from 'react';
import { Box, Button, Checkbox, Drawer, IconButton, Link, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import AddLinkIcon from '@mui/icons-material/AddLink';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import { useNotify, useTranslate } from 'react-admin';
import { useCan } from '../auth/useCan';
import { useConfirm } from '../components/ConfirmDialog';
import { OnlineChip, type DeviceRow } from '../devices/cells';
import { DeviceDrawer } from '../devices/DeviceDrawer';
import { request } from '../devices/tabs/timers/api';
import { DevicePickerDialog } from '../gateways/DevicePickerDialog';
import { resources } from '../generated/resources';
import { DEVICE_PAGE, GROUP_CODES, GROUP_DEVICE_PATHS, type Group } from './api';
import { EmptyRow } from '../components/EmptyState';
import { Pager } from '../components/Pager';

interface Link {
  fId: number;
  fGroupId: number;
  fDeviceId: number;
  tDevice: DeviceRow | null;
}

/** A group's bound devices: unbind the selected ones, bind more from a picker, open a device's detail drawer. */
export function GroupDrawer({ group, onClose, onChanged }: { group: Group | null; onClose: () => void; onChanged: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const canBind = useCan(GROUP_CODES.bind);
  const canUnbind = useCan(GROUP_CODES.unbind);
  const { ask, dialog } = useConfirm();
  const [page, setPage] = useState(0);
  const [data, setData] = useState<{ records: Link[]; total: number }>({ records: [], total: 0 });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [picking, setPicking] = useState(false);
  const [device, setDevice] = useState<DeviceRow | null>(null);
  const deviceConfig = resources.find((r) => r.config.name === 'device')?.config;

  const load = useCallback(async () => {
    if (!group) return;
    const res = await request<{ records: Link[]; total: number }>(GROUP_DEVICE_PATHS.list, { current: page + 1, size: DEVICE_PAGE, condition: { group_id: group.fId } });
    setData(res.ok && res.data ? res.data : { records: [], total: 0 });
  }, [group, page]);
  useEffect(() => {
    setSelected(new Set());
    void load();
  }, [load]);
  useEffect(() => setPage(0), [group?.fId]);

  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const all = data.records.length > 0 && data.records.every((l) => selected.has(l.fId));

  const unbind = () => {
    const rows = data.records.filter((l) => selected.has(l.fId));
    if (rows.length === 0) {
      notify(translate('groups.unbindNone'), { type: 'warning' });
      return;
    }
    ask(translate('groups.confirmUnbind'), async () => {
      const res = await request(GROUP_DEVICE_PATHS.unbind, rows.map(({ fId, fGroupId, fDeviceId }) => ({ fId, fGroupId, fDeviceId })));
      if (res.ok) {
        notify(res.message || translate('groups.unbound'), { type: 'success' });
        void load();
        onChanged();
      } else if (!res.announced) notify(res.message, { type: 'error' });
    });
  };

  const bind = async (picked: DeviceRow[]) => {
    if (!group) return false;
    const res = await request(GROUP_DEVICE_PATHS.bind, picked.map((d) => ({ fDeviceId: d.fId, fGroupId: group.fId })));
    if (res.ok) {
      notify(res.message || translate('groups.bound'), { type: 'success' });
      void load();
      onChanged();
      return true;
    }
    if (!res.announced) notify(res.message, { type: 'error' });
    return false;
  };

  return (
    <Drawer anchor="right" open={group !== null} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', md: 760 } } } }}>
      {group && (
        <Box data-testid="group-drawer" sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
          <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}>
            <Typography variant="h6" sx={{ flex: 1 }} noWrap>
              {translate('groups.viewTitle')} · {group.fName}
            </Typography>
            <IconButton onClick={onClose} aria-label={translate('common.close')} data-testid="group-drawer-close">
              <CloseIcon />
            </IconButton>
          </Box>
          <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1.5, overflow: 'auto', flex: 1 }}>
            {group.fRemork && (
              <Typography variant="body2" color="text.secondary">
                {translate('groups.remark')}: {group.fRemork}
              </Typography>
            )}
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
                {translate('groups.boundDevices')}
              </Typography>
              {canUnbind && (
                <Button size="small" color="error" variant="outlined" startIcon={<LinkOffIcon />} onClick={unbind} data-testid="group-unbind-selected">
                  {translate('groups.unbindSelected')}
                </Button>
              )}
              {canBind && (
                <Button size="small" variant="contained" startIcon={<AddLinkIcon />} onClick={() => setPicking(true)} data-testid="group-bind">
                  {translate('groups.bind')}
                </Button>
              )}
            </Box>
            <TableContainer>
              <Table size="small" data-testid="group-devices">
                <TableHead>
                  <TableRow>
                    {canUnbind && (
                      <TableCell padding="checkbox">
                        <Checkbox size="small" checked={all} onChange={() => setSelected(all ? new Set() : new Set(data.records.map((l) => l.fId)))} slotProps={{ input: { 'aria-label': translate('common.all') } }} />
                      </TableCell>
                    )}
                    <TableCell>{translate('gateways.deviceNumber')}</TableCell>
                    <TableCell>{translate('gateways.deviceName')}</TableCell>
                    <TableCell>{translate('resources.device.fields.fProductId')}</TableCell>
                    <TableCell>{translate('resources.device.fields.tOnline')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.records.map((l) => (
                    <TableRow key={l.fId} hover data-testid="group-device-row" data-id={l.fDeviceId}>
                      {canUnbind && (
                        <TableCell padding="checkbox">
                          <Checkbox size="small" checked={selected.has(l.fId)} onChange={() => toggle(l.fId)} slotProps={{ input: { 'aria-label': String(l.tDevice?.fNumber ?? l.fDeviceId) } }} />
                        </TableCell>
                      )}
                      <TableCell>
                        <Link component="button" onClick={() => l.tDevice && setDevice(l.tDevice)} data-testid="group-device-open">
                          {String(l.tDevice?.fNumber ?? '')}
                        </Link>
                      </TableCell>
                      <TableCell>{String(l.tDevice?.fName ?? '')}</TableCell>
                      <TableCell>{String((l.tDevice?.tProduct as Record<string, unknown> | null)?.fName ?? '')}</TableCell>
                      <TableCell>
                        <OnlineChip value={l.tDevice?.tOnline} />
                      </TableCell>
                    </TableRow>
                  ))}
                  {data.records.length === 0 && <EmptyRow columns={5} message={translate('groups.noDevices')} />}
                </TableBody>
              </Table>
            </TableContainer>
            <Pager
              component="div"
              count={data.total}
              page={page}
              onPageChange={(_e, p) => setPage(p)}
              rowsPerPage={DEVICE_PAGE}
              rowsPerPageOptions={[DEVICE_PAGE]}
            />
          </Box>
          <DevicePickerDialog
            open={picking}
            title={`${translate('groups.bindTitle')} · ${group.fName}`}
            path={GROUP_DEVICE_PATHS.unbound}
            condition={{ group_id: group.fId }}
            search="keyword"
            emptyMessage={translate('groups.bindNone')}
            onClose={() => setPicking(false)}
            onConfirm={bind}
            testId="group-picker"
          />
          {deviceConfig && <DeviceDrawer config={deviceConfig} row={device} onClose={() => setDevice(null)} />}
          {dialog}
        </Box>
      )}
    </Drawer>
  );
}

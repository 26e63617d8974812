import { useEffect, useState } from 'react';
import { Box, Button, Link, Typography } from '@mui/material';
import AddLinkIcon from '@mui/icons-material/AddLink';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import { useNotify, useTranslate } from 'react-admin';
import { useCans } from '../../auth/useCan';
import { useConfirmedCall } from '../../components/useConfirmedCall';
import { usePagedCall } from '../../components/usePagedCall';
import { OnlineChip, type DeviceRow } from '../cells';
import { DeviceDrawer } from '../DeviceDrawer';
import { useToggleSet } from '../../components/useToggleSet';
import { DevicePickerDialog } from '../gateways/DevicePickerDialog';
import { resources } from '../../generated/resources';
import { DEVICE_PAGE, GROUP_CODES, GROUP_DEVICE_CALLS, type Group } from './api';
import { DataTable } from '../../components/DataTable';
import { TitleRow } from '../../components/TitledSection';
import { DetailDrawer } from '../../components/DetailDrawer';

/** A group's bound devices: unbind the selected ones, bind more from a picker, open a device's detail drawer. */
export function GroupDrawer({ group, onClose, onChanged }: { group: Group | null; onClose: () => void; onChanged: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { bind: canBind, unbind: canUnbind } = useCans(GROUP_CODES);
  const { confirmCall, call, dialog } = useConfirmedCall();
  const [page, setPage] = useState(0);
  const [selected, toggle, setSelected] = useToggleSet<number>();
  const [picking, setPicking] = useState(false);
  const [device, setDevice] = useState<DeviceRow | null>(null);
  const deviceConfig = resources.find((r) => r.config.name === 'device')?.config;

  const links = usePagedCall(GROUP_DEVICE_CALLS.list, group ? { current: page + 1, size: DEVICE_PAGE, condition: { group_id: group.fId } } : null);
  const data = links.data;
  // Another group or page: nothing chosen.
  useEffect(() => setSelected(new Set()), [group, page]);
  useEffect(() => setPage(0), [group?.fId]);

  const changed = () => {
    links.reload();
    onChanged();
  };

  const all = data.records.length > 0 && data.records.every((l) => selected.has(l.fId));

  const unbind = () => {
    const rows = data.records.filter((l) => selected.has(l.fId));
    if (rows.length === 0) {
      notify(translate('groups.unbindNone'), { type: 'warning' });
      return;
    }
    confirmCall(translate('groups.confirmUnbind'), GROUP_DEVICE_CALLS.unbind, rows.map(({ fId, fGroupId, fDeviceId }) => ({ fId, fGroupId, fDeviceId })), {
      done: (res) => res.message || translate('groups.unbound'),
      failed: (res) => res.message,
      after: changed,
    });
  };

  const bind = async (picked: { fId: number }[]) =>
    group !== null &&
    call(GROUP_DEVICE_CALLS.bind, picked.map((d) => ({ fDeviceId: d.fId, fGroupId: group.fId })), {
      done: (res) => res.message || translate('groups.bound'),
      failed: (res) => res.message,
      after: changed,
    });

  return (
    <DetailDrawer record={group} onClose={onClose} width={760} testId="group-drawer" closeTestId="group-drawer-close" title={(g) => `${translate('groups.viewTitle')} · ${g.fName}`}>
      {(group) => (
        <>
          <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1.5, overflow: 'auto', flex: 1 }}>
            {group.fRemork && (
              <Typography variant="body2" color="text.secondary">
                {translate('groups.remark')}: {group.fRemork}
              </Typography>
            )}
            <TitleRow title={translate('groups.boundDevices')} sx={{ gap: 1 }}>
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
            </TitleRow>
            <DataTable
              rows={data.records}
              rowKey={(l) => l.fId}
              empty={translate('groups.noDevices')}
              tableProps={{ 'data-testid': 'group-devices' }}
              rowProps={(l) => ({ 'data-testid': 'group-device-row', 'data-id': l.fDeviceId })}
              selection={
                canUnbind
                  ? {
                      all: { checked: all, onChange: () => setSelected(all ? new Set() : new Set(data.records.map((l) => l.fId))), props: { slotProps: { input: { 'aria-label': translate('common.all') } } } },
                      row: (l) => ({ checked: selected.has(l.fId), onChange: () => toggle(l.fId), props: { slotProps: { input: { 'aria-label': String(l.tDevice?.fNumber ?? l.fDeviceId) } } } }),
                    }
                  : undefined
              }
              columns={[
                {
                  key: 'number',
                  header: translate('gateways.deviceNumber'),
                  // The drawer takes a row of the device list (its fields by name): the link's device as one.
                  cell: (l) => (
                    <Link component="button" onClick={() => l.tDevice && setDevice({ ...l.tDevice })} data-testid="group-device-open">
                      {String(l.tDevice?.fNumber ?? '')}
                    </Link>
                  ),
                },
                { key: 'name', header: translate('gateways.deviceName'), cell: (l) => String(l.tDevice?.fName ?? '') },
                { key: 'product', header: translate('resources.device.fields.fProductId'), cell: (l) => String(l.tDevice?.tProduct?.fName ?? '') },
                { key: 'online', header: translate('resources.device.fields.tOnline'), cell: (l) => <OnlineChip value={l.tDevice?.tOnline} /> },
              ]}
              pager={{ count: data.total, page, rowsPerPage: DEVICE_PAGE, onPage: setPage }}
            />
          </Box>
          <DevicePickerDialog
            open={picking}
            title={`${translate('groups.bindTitle')} · ${group.fName}`}
            call={GROUP_DEVICE_CALLS.unbound}
            condition={{ group_id: group.fId }}
            search="keyword"
            emptyMessage={translate('groups.bindNone')}
            onClose={() => setPicking(false)}
            onConfirm={bind}
            testId="group-picker"
          />
          {deviceConfig && <DeviceDrawer config={deviceConfig} row={device} onClose={() => setDevice(null)} />}
          {dialog}
        </>
      )}
    </DetailDrawer>
  );
}

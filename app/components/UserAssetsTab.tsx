/**
 * The asset tab of a user's drawer (spec 001 §2.7 tenants, spec 002 §4 system users): the devices in the
 * rooms of the user's places, filtered by room, device id and device name. Rooms come from the call
 * room.userrooms (place name, room name, room type), devices from roomDevice.list (condition roomId,
 * deviceId, deviceName, userId).
 */
import { useMemo, useState } from 'react';
import { Box, Button, Chip, MenuItem, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useTranslate } from 'react-admin';
import { DataTable } from './DataTable';
import { useCallQuery } from './calls';
import type { CallRow } from '../../adapters/dataProvider';

/** A device filed in a room of the user's places, with the device and its product. */
type AssetRow = CallRow<'roomDevice.list'>;
type AssetDevice = NonNullable<AssetRow['device']>;
interface Filters {
  roomId: string;
  deviceId: string;
  deviceName: string;
}
const EMPTY: Filters = { roomId: '', deviceId: '', deviceName: '' };
const ASSET_COLUMNS = ['home', 'room', 'roomType', 'deviceName', 'number', 'activation', 'online', 'product', 'productType'] as const;

export function UserAssetsTab({ userId }: { userId: number }) {
  const translate = useTranslate();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const { data: rooms } = useCallQuery('room.userrooms', { fUserId: userId });
  const condition = { userId, ...Object.fromEntries(Object.entries(applied).map(([k, v]) => [k, v.trim()]).filter(([, v]) => v !== '')) };
  const { data, loading } = useCallQuery('roomDevice.list', { current: page + 1, size, condition });
  const roomOf = useMemo(() => new Map((rooms ?? []).map((r) => [Number(r.fId), r])), [rooms]);
  const records = data?.records ?? [];
  const dash = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : String(v));
  /** A cell of the asset table: the room's, the device's or its product's. */
  const assetCell = (key: (typeof ASSET_COLUMNS)[number], r: AssetRow) => {
    const room = roomOf.get(Number(r.fRoomId));
    const device: Partial<AssetDevice> = r.device ?? {};
    const product: Partial<NonNullable<AssetDevice['tProduct']>> = device.tProduct ?? {};
    const online = Number(device.tOnline) === 1;
    const active = Number(device.fStatus) === 1;
    switch (key) {
      case 'home':
        return dash(room?.homeName);
      case 'room':
        return dash(room?.fName);
      case 'roomType':
        return dash(room?.type?.fContent);
      case 'deviceName':
        return dash(device.fName);
      case 'number':
        return <Box component="span" sx={{ fontFamily: 'monospace' }}>{dash(device.fNumber)}</Box>;
      case 'activation':
        return <Chip size="small" variant="outlined" color={active ? 'success' : 'default'} label={translate(active ? 'assets.activated' : 'assets.notActivated')} />;
      case 'online':
        return <Chip size="small" color={online ? 'success' : 'default'} label={translate(`enums.online.${online ? 1 : 0}`)} />;
      case 'product':
        return dash(product.fName);
      case 'productType':
        return product.fDeviceType ? translate(`assets.productTypes.${product.fDeviceType}`, { _: translate(`enums.deviceType.${product.fDeviceType}`, { _: String(product.fDeviceType) }) }) : '-';
    }
  };
  const query = () => {
    setApplied(draft);
    setPage(0);
  };

  return (
    <Box data-testid="user-assets">
      <Box component="form" onSubmit={(e) => (e.preventDefault(), query())} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mb: 1.5 }}>
        <TextField select size="small" label={translate('assets.room')} value={draft.roomId} onChange={(e) => setDraft({ ...draft, roomId: e.target.value })} sx={{ minWidth: 180 }} data-testid="assets-filter-room">
          <MenuItem value="">{translate('common.all')}</MenuItem>
          {(rooms ?? []).map((r) => (
            <MenuItem key={String(r.fId)} value={String(r.fId)}>
              {`${dash(r.homeName)} / ${dash(r.fName)}`}
            </MenuItem>
          ))}
        </TextField>
        <TextField size="small" label={translate('assets.deviceId')} value={draft.deviceId} onChange={(e) => setDraft({ ...draft, deviceId: e.target.value.replace(/\D/g, '') })} sx={{ width: 130 }} slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'assets-filter-id' } }} />
        <TextField size="small" label={translate('assets.deviceName')} value={draft.deviceName} onChange={(e) => setDraft({ ...draft, deviceName: e.target.value })} sx={{ width: 170 }} slotProps={{ htmlInput: { 'data-testid': 'assets-filter-name' } }} />
        <Button type="submit" variant="contained" size="small" startIcon={<SearchIcon />} data-testid="assets-query">
          {translate('common.query')}
        </Button>
        <Button variant="outlined" size="small" startIcon={<RestartAltIcon />} onClick={() => (setDraft(EMPTY), setApplied(EMPTY), setPage(0))}>
          {translate('common.reset')}
        </Button>
      </Box>
      <DataTable
        rows={records}
        rowKey={(r) => String(r.fId)}
        loading={loading}
        progressBar
        bordered
        rowProps={() => ({ 'data-testid': 'asset-row' })}
        columns={ASSET_COLUMNS.map((k) => ({ key: k, header: translate(`assets.columns.${k}`), headerSx: { fontWeight: 600, whiteSpace: 'nowrap' }, cell: (r: AssetRow) => assetCell(k, r) }))}
        pager={{ count: data?.total ?? 0, page, rowsPerPage: size, sizes: [10, 20, 50], onPage: setPage, onSize: (n) => (setSize(n), setPage(0)) }}
      />
    </Box>
  );
}

export default UserAssetsTab;

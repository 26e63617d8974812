/**
 * The asset tab of a user's drawer (spec 001 §2.7 tenants, spec 002 §4 system users): the devices in the
 * rooms of the user's places, filtered by room, device id and device name. Rooms come from
 * /biz/t-sys-user-room/userrooms (place name, room name, room type), devices from
 * /biz/t-sys-user-room-device/pageList (condition roomId, deviceId, deviceName, userId).
 */
import { useMemo, useState } from 'react';
import { Box, Button, Chip, LinearProgress, MenuItem, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import { useTranslate } from 'react-admin';
import { EmptyState } from './EmptyState';
import { Pager } from './Pager';
import { useRemote } from './useRemote';

export const USER_ASSET_PATHS = { rooms: '/biz/t-sys-user-room/userrooms', devices: '/biz/t-sys-user-room-device/pageList' };

type Row = Record<string, unknown>;
interface Filters {
  roomId: string;
  deviceId: string;
  deviceName: string;
}
const EMPTY: Filters = { roomId: '', deviceId: '', deviceName: '' };

export function UserAssetsTab({ userId }: { userId: number }) {
  const translate = useTranslate();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const { data: rooms } = useRemote<Row[]>(USER_ASSET_PATHS.rooms, { fUserId: userId }, [userId]);
  const condition = { userId, ...Object.fromEntries(Object.entries(applied).map(([k, v]) => [k, v.trim()]).filter(([, v]) => v !== '')) };
  const { data, loading } = useRemote<{ records: Row[]; total: number }>(USER_ASSET_PATHS.devices, { current: page + 1, size, condition }, [userId, page, size, JSON.stringify(applied)]);
  const roomOf = useMemo(() => new Map((rooms ?? []).map((r) => [Number(r.fId), r])), [rooms]);
  const records = data?.records ?? [];
  const dash = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : String(v));
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
      <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              {['home', 'room', 'roomType', 'deviceName', 'number', 'activation', 'online', 'product', 'productType'].map((k) => (
                <TableCell key={k} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                  {translate(`assets.columns.${k}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {records.map((r) => {
              const room = roomOf.get(Number(r.fRoomId));
              const device = (r.device ?? {}) as Row;
              const product = (device.tProduct ?? {}) as Row;
              const online = Number(device.tOnline) === 1;
              const active = Number(device.fStatus) === 1;
              return (
                <TableRow key={String(r.fId)} hover data-testid="asset-row">
                  <TableCell>{dash(room?.homeName)}</TableCell>
                  <TableCell>{dash(room?.fName)}</TableCell>
                  <TableCell>{dash((room?.type as Row | null)?.fContent)}</TableCell>
                  <TableCell>{dash(device.fName)}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{dash(device.fNumber)}</TableCell>
                  <TableCell>
                    <Chip size="small" variant="outlined" color={active ? 'success' : 'default'} label={translate(active ? 'assets.activated' : 'assets.notActivated')} />
                  </TableCell>
                  <TableCell>
                    <Chip size="small" color={online ? 'success' : 'default'} label={translate(`enums.online.${online ? 1 : 0}`)} />
                  </TableCell>
                  <TableCell>{dash(product.fName)}</TableCell>
                  <TableCell>{product.fDeviceType ? translate(`assets.productTypes.${product.fDeviceType}`, { _: translate(`enums.deviceType.${product.fDeviceType}`, { _: String(product.fDeviceType) }) }) : '-'}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
        {records.length === 0 && !loading && <EmptyState minHeight={120} />}
      </TableContainer>
      <Pager
        component="div"
        count={data?.total ?? 0}
        page={page}
        rowsPerPage={size}
        rowsPerPageOptions={[10, 20, 50]}
        onPageChange={(_e, p) => setPage(p)}
        onRowsPerPageChange={(e) => (setSize(Number(e.target.value)), setPage(0))}
      />
    </Box>
  );
}

export default UserAssetsTab;

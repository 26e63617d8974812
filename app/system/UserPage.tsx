import { useState } from 'react';
import { Box, Button, Chip, Drawer, IconButton, MenuItem, Paper, Stack, Tab, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tabs, TextField, Tooltip, Typography } from '@mui/material';
import { Pager } from '../components/Pager';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import DownloadIcon from '@mui/icons-material/Download';
import VisibilityIcon from '@mui/icons-material/Visibility';
import LockResetIcon from '@mui/icons-material/LockReset';
import InfoIcon from '@mui/icons-material/Info';
import { useNotify, useTranslate } from 'react-admin';
import { getToken } from '../../adapters/http';
import { useCan } from '../auth/useCan';
import { useConfirm } from '../components/ConfirmDialog';
import { EmptyState } from '../components/EmptyState';
import { request } from '../devices/tabs/timers/api';
import { CODES, PAGE_SIZE, PAGE_SIZES, USER_PATHS, type Page, type UserRow } from './api';
import { UserDialog, type UserMode } from './UserDialog';
import { useLoad } from './shared';
import { IconAction } from '../components/IconAction';

interface Filters {
  keyword: string;
  status: number | '';
  userType: number | '';
}
const EMPTY: Filters = { keyword: '', status: '', userType: '' };
// The kind filter is fAdmin (0 user, 1 administrator, 2 agent); userType 1 keeps tenants (userType 2) out.
const condition = ({ userType, ...f }: Filters) => ({ ...Object.fromEntries(Object.entries({ ...f, fAdmin: userType, keyword: f.keyword.trim() }).filter(([, v]) => v !== '')), userType: 1 });

/** Spec 002 screen 4: search, add and export, the user table, the add/edit/view form and a detail drawer. */
export function UserPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const { ask, dialog } = useConfirm();
  const canList = useCan(CODES.userList);
  const canAdd = useCan(CODES.userAdd);
  const canEdit = useCan(CODES.userEdit);
  const canExport = useCan(CODES.userExport);
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(PAGE_SIZE);
  const [form, setForm] = useState<{ mode: UserMode; row: UserRow | null } | null>(null);
  const [detail, setDetail] = useState<UserRow | null>(null);
  const { data, loading, reload } = useLoad<Page<UserRow>>(USER_PATHS.list, { current: page + 1, pageSize: size, condition: condition(applied) }, canList, { records: [], total: 0 });

  const act = (message: string, path: string, body: object) =>
    ask(message, async () => {
      const res = await request(path, body);
      // The list refreshes only when the call succeeded.
      if (res.ok) {
        notify(res.message || translate('sys.saved'), { type: 'success' });
        reload();
      } else if (!res.announced) notify(res.message || translate('sys.failed'), { type: 'error' });
    });

  const exportFile = async () => {
    const res = await fetch(USER_PATHS.export, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: getToken() ?? '' }, body: JSON.stringify({ condition: condition(applied) }) });
    if (!res.ok || !(res.headers.get('content-type') ?? '').includes('spreadsheet')) return notify(translate('sys.failed'), { type: 'error' });
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = '用户数据.xlsx';
    a.click();
    URL.revokeObjectURL(url);
  };

  if (!canList) return <EmptyState />;
  const rows = data.records;

  return (
    <Box data-testid="sys-user-page" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Paper
        variant="outlined"
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(0);
          setApplied(draft);
          reload();
        }}
        sx={{ p: 2, display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}
      >
        <TextField size="small" label={translate('sys.user.keyword')} value={draft.keyword} onChange={(e) => setDraft({ ...draft, keyword: e.target.value })} sx={{ width: 200 }} slotProps={{ htmlInput: { 'data-testid': 'user-filter-keyword' } }} />
        <TextField select size="small" label={translate('sys.user.status')} value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value === '' ? '' : Number(e.target.value) })} sx={{ width: 140 }} slotProps={{ htmlInput: { 'data-testid': 'user-filter-status' } }}>
          <MenuItem value="">{translate('common.all')}</MenuItem>
          <MenuItem value={1}>{translate('sys.user.enabled')}</MenuItem>
          <MenuItem value={0}>{translate('sys.user.disabled')}</MenuItem>
        </TextField>
        <TextField select size="small" label={translate('sys.user.kind')} value={draft.userType} onChange={(e) => setDraft({ ...draft, userType: e.target.value === '' ? '' : Number(e.target.value) })} sx={{ width: 160 }} slotProps={{ htmlInput: { 'data-testid': 'user-filter-kind' } }}>
          <MenuItem value="">{translate('common.all')}</MenuItem>
          {[0, 1, 2].map((k) => (
            <MenuItem key={k} value={k}>
              {translate(`sys.user.kinds.${k}`)}
            </MenuItem>
          ))}
        </TextField>
        <Button type="submit" variant="contained" startIcon={<SearchIcon />} data-testid="user-query">
          {translate('common.query')}
        </Button>
        <Button variant="outlined" startIcon={<RestartAltIcon />} onClick={() => (setDraft(EMPTY), setApplied(EMPTY), setPage(0))} data-testid="user-reset">
          {translate('common.reset')}
        </Button>
        <Box sx={{ flex: 1 }} />
        {canAdd && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setForm({ mode: 'add', row: null })} data-testid="user-add">
            {translate('sys.user.add')}
          </Button>
        )}
        {canExport && (
          <Button variant="outlined" startIcon={<DownloadIcon />} onClick={() => void exportFile()} data-testid="user-export">
            {translate('sys.user.export')}
          </Button>
        )}
      </Paper>

      <Paper variant="outlined">
        <TableContainer>
          <Table size="small" data-testid="user-table">
            <TableHead>
              <TableRow>
                <TableCell>{translate('sys.user.name')}</TableCell>
                <TableCell>{translate('sys.user.phone')}</TableCell>
                <TableCell>{translate('sys.user.kind')}</TableCell>
                <TableCell>{translate('sys.user.roles')}</TableCell>
                <TableCell>{translate('sys.user.status')}</TableCell>
                <TableCell>{translate('sys.user.createTime')}</TableCell>
                <TableCell>{translate('sys.user.lastLogin')}</TableCell>
                <TableCell align="right">{translate('common.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => {
                const on = Number(r.fStatus) === 1;
                return (
                  <TableRow key={r.fId} hover data-testid={`user-row-${r.fId}`}>
                    <TableCell>{r.fChineseName}</TableCell>
                    <TableCell>{r.fPhone}</TableCell>
                    <TableCell>{translate(`sys.user.kinds.${r.fAdmin}`)}</TableCell>
                    <TableCell>{r.roleids.map((x) => x.name).join('、')}</TableCell>
                    <TableCell>
                      <Chip size="small" color={on ? 'success' : 'default'} label={translate(on ? 'sys.user.enabled' : 'sys.user.disabled')} />
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.fCreateTime ?? ''}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.fLastloginDate ?? ''}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <Tooltip title={translate('sys.user.detail')}>
                        <IconButton size="small" onClick={() => setDetail(r)} data-testid="user-detail">
                          <InfoIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      <Tooltip title={translate('common.view')}>
                        <IconButton size="small" onClick={() => setForm({ mode: 'view', row: r })} data-testid="user-view">
                          <VisibilityIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                      {canEdit && (
                        <>
                          <IconAction kind="edit" onClick={() => setForm({ mode: 'edit', row: r })} testId="user-edit" />
                          <Button size="small" color={on ? 'warning' : 'success'} onClick={() => act(translate(on ? 'sys.user.confirmDisable' : 'sys.user.confirmEnable'), USER_PATHS.status, { fId: r.fId, fStatus: on ? 0 : 1 })} data-testid="user-status">
                            {translate(on ? 'sys.user.disable' : 'sys.user.enable')}
                          </Button>
                          <Tooltip title={translate('sys.user.resetPwd')}>
                            <IconButton size="small" onClick={() => act(translate('sys.user.confirmReset'), USER_PATHS.resetPwd, { fId: r.fId })} data-testid="user-reset-pwd">
                              <LockResetIcon fontSize="small" />
                            </IconButton>
                          </Tooltip>
                          <IconAction kind="delete" onClick={() => act(translate('sys.user.confirmDelete'), USER_PATHS.remove, { fId: r.fId })} testId="user-delete" />
                        </>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
              {!rows.length && !loading && (
                <TableRow>
                  <TableCell colSpan={8}>
                    <EmptyState />
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <Pager component="div" count={data.total} page={page} rowsPerPage={size} rowsPerPageOptions={PAGE_SIZES} onPageChange={(_e, p) => setPage(p)} onRowsPerPageChange={(e) => (setSize(Number(e.target.value)), setPage(0))} data-testid="user-pagination" />
      </Paper>

      <UserDialog mode={form?.mode ?? null} row={form?.row ?? null} onClose={() => setForm(null)} onSaved={reload} />
      <UserDrawer row={detail} onClose={() => setDetail(null)} />
      {dialog}
    </Box>
  );
}

interface DeviceRow {
  fId: number;
  fNumber: string;
  fName: string;
  fStatus: number;
  tOnline: number;
  productName: string | null;
  productDeviceType: number | null;
  homeName: string | null;
  roomName: string | null;
  roomType: string | null;
}

function UserDrawer({ row, onClose }: { row: UserRow | null; onClose: () => void }) {
  const translate = useTranslate();
  const [tab, setTab] = useState(0);
  const [page, setPage] = useState(0);
  const { data } = useLoad<Page<DeviceRow>>(USER_PATHS.devices, { id: row?.fId, current: page + 1, size: PAGE_SIZE }, !!row && tab === 1, { records: [], total: 0 });
  const line = (label: string, value: unknown) => (
    <Stack direction="row" spacing={2} sx={{ py: 0.75, borderBottom: 1, borderColor: 'divider' }}>
      <Typography sx={{ width: 120, color: 'text.secondary' }}>{label}</Typography>
      <Typography>{value === null || value === undefined || value === '' ? '-' : String(value)}</Typography>
    </Stack>
  );
  return (
    <Drawer anchor="right" open={!!row} onClose={() => (onClose(), setTab(0), setPage(0))} slotProps={{ paper: { sx: { width: { xs: '100%', md: 820 } } } }} data-testid="user-drawer">
      {row && (
        <Box sx={{ p: 2 }}>
          <Typography variant="h6">{row.fChineseName}</Typography>
          <Tabs value={tab} onChange={(_e, v) => setTab(v)} sx={{ mb: 2 }}>
            <Tab label={translate('sys.user.basic')} data-testid="user-drawer-basic" />
            <Tab label={translate('sys.user.assets')} data-testid="user-drawer-assets" />
          </Tabs>
          {tab === 0 && (
            <Box>
              {line(translate('sys.user.name'), row.fChineseName)}
              {line(translate('sys.user.phone'), row.fPhone)}
              {line(translate('sys.user.kind'), translate(`sys.user.kinds.${row.fAdmin}`))}
              {line(translate('sys.user.roles'), row.roleids.map((x) => x.name).join('、'))}
              {line(translate('sys.user.status'), translate(Number(row.fStatus) === 1 ? 'sys.user.enabled' : 'sys.user.disabled'))}
              {line(translate('sys.user.createTime'), row.fCreateTime)}
              {line(translate('sys.user.lastLogin'), row.fLastloginDate)}
            </Box>
          )}
          {tab === 1 && (
            <>
              <TableContainer>
                <Table size="small" data-testid="user-assets-table">
                  <TableHead>
                    <TableRow>
                      {['homeName', 'roomName', 'roomType', 'deviceName', 'deviceNumber', 'activation', 'online', 'productName', 'productType'].map((k) => (
                        <TableCell key={k} sx={{ whiteSpace: 'nowrap' }}>
                          {translate(`sys.user.${k}`)}
                        </TableCell>
                      ))}
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {data.records.map((d) => (
                      <TableRow key={d.fId}>
                        <TableCell>{d.homeName ?? '-'}</TableCell>
                        <TableCell>{d.roomName ?? '-'}</TableCell>
                        <TableCell>{d.roomType ?? '-'}</TableCell>
                        <TableCell>{d.fName}</TableCell>
                        <TableCell>{d.fNumber}</TableCell>
                        <TableCell>{translate(Number(d.fStatus) === 1 ? 'sys.user.activated' : 'sys.user.inactive')}</TableCell>
                        <TableCell>{translate(Number(d.tOnline) === 1 ? 'sys.user.onlineYes' : 'sys.user.onlineNo')}</TableCell>
                        <TableCell>{d.productName ?? '-'}</TableCell>
                        <TableCell>{d.productDeviceType ? translate(`enums.deviceType.${d.productDeviceType}`, { _: String(d.productDeviceType) }) : '-'}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
              {!data.records.length && <EmptyState />}
              <Pager component="div" count={data.total} page={page} rowsPerPage={PAGE_SIZE} rowsPerPageOptions={[PAGE_SIZE]} onPageChange={(_e, p) => setPage(p)} />
            </>
          )}
        </Box>
      )}
    </Drawer>
  );
}

export default UserPage;

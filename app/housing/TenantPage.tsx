/**
 * 租客管理 (spec 001 §2.7): the users of type 2 through the system-user list call (condition keyword —
 * name or phone —, status, userType 2), phones and ID numbers masked, a drawer with the basic info and
 * the shared asset tab, and disable/enable after a confirmation (tenant:status).
 */
import { useState } from 'react';
import {
  Avatar, Box, Button, Chip, Divider, Drawer, FormControlLabel, IconButton, LinearProgress, Paper, Radio, RadioGroup, Tab, Table, TableBody, TableCell,
  TableContainer, TableHead, TableRow, Tabs, TextField, Typography,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import CloseIcon from '@mui/icons-material/Close';
import { useNotify, useTranslate } from 'react-admin';
import { call } from '../../adapters/http';
import { useCan } from '../auth/useCan';
import type { ResourceConfig } from '../resources/types';
import { DetailFields, EmptyState, UserAssetsTab, imageUrl, useConfirm, useRemote } from '../components';
import { Pager } from '../components/Pager';
import { maskIdcard, maskPhone } from '../components/mask';

export const TENANT_PATHS = { list: '/system/t-sys-user/pageList', status: '/system/t-sys-user/statusUser' };
export const TENANT_CODES = { list: 'tenant:list', status: 'tenant:status' };

type Row = Record<string, unknown>;
interface Lease {
  fHouseName?: string;
  fRoom?: string;
  fAddress?: string;
}
const dash = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : String(v));
const leaseText = (l: Lease | null | undefined) => (l ? [l.fHouseName, l.fRoom].filter(Boolean).join(' ') : '');
const NO_FIELDS = { fields: {} } as unknown as ResourceConfig;

export function TenantPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const confirm = useConfirm();
  const canList = useCan(TENANT_CODES.list);
  const canStatus = useCan(TENANT_CODES.status);
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState({ keyword: '', status: '' });
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(10);
  const [open, setOpen] = useState<Row | null>(null);
  const condition = { userType: 2, ...(applied.keyword ? { keyword: applied.keyword } : {}), ...(applied.status !== '' ? { status: Number(applied.status) } : {}) };
  const { data, loading, reload } = useRemote<{ records: Row[]; total: number }>(canList ? TENANT_PATHS.list : null, { current: page + 1, pageSize: size, condition }, [page, size, applied.keyword, applied.status]);
  const rows = data?.records ?? [];

  const toggle = (row: Row) => {
    const enable = Number(row.fStatus) !== 1;
    confirm.ask(translate(enable ? 'tenant.confirmEnable' : 'tenant.confirmDisable'), async () => {
      try {
        await call(TENANT_PATHS.status, { ...row, fUserType: 2, fStatus: enable ? 1 : 0 });
        notify('tenant.statusChanged', { type: 'success' });
        if (open && open.fId === row.fId) setOpen({ ...open, fStatus: enable ? 1 : 0 });
        reload();
      } catch (error) {
        notify('tenant.statusFailed', { type: 'error', messageArgs: { message: error instanceof Error ? error.message : '' } });
      }
    });
  };

  return (
    <Box sx={{ p: { xs: 1, md: 2 } }} data-testid="tenant-page">
      <Paper
        variant="outlined"
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ ...applied, keyword: keyword.trim() });
          setPage(0);
        }}
        sx={{ p: 2, mb: 2, display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center' }}
      >
        <TextField size="small" label={translate('tenant.keyword')} placeholder={translate('tenant.keywordHint')} value={keyword} onChange={(e) => setKeyword(e.target.value)} sx={{ width: 240 }} slotProps={{ htmlInput: { 'data-testid': 'tenant-keyword' } }} />
        <RadioGroup
          row
          value={applied.status}
          onChange={(e) => {
            setApplied({ ...applied, status: e.target.value });
            setPage(0);
          }}
          data-testid="tenant-status-filter"
        >
          <FormControlLabel value="" control={<Radio size="small" />} label={translate('common.all')} />
          <FormControlLabel value="1" control={<Radio size="small" />} label={translate('enums.userStatus.1')} />
          <FormControlLabel value="0" control={<Radio size="small" />} label={translate('enums.userStatus.0')} />
        </RadioGroup>
        <Button type="submit" variant="contained" startIcon={<SearchIcon />} data-testid="tenant-query">
          {translate('common.query')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<RestartAltIcon />}
          onClick={() => {
            setKeyword('');
            setApplied({ keyword: '', status: '' });
            setPage(0);
          }}
        >
          {translate('common.reset')}
        </Button>
      </Paper>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
      <TableContainer sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}>
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              {['name', 'phone', 'idcard', 'gender', 'lease', 'status', 'lastLogin', 'actions'].map((k) => (
                <TableCell key={k} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                  {translate(`tenant.columns.${k}`)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((r) => (
              <TableRow key={String(r.fId)} hover data-testid="tenant-row">
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{dash(r.fChineseName)}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{dash(maskPhone(r.fPhone))}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace' }}>{dash(maskIdcard(r.fIdcard))}</TableCell>
                <TableCell>{r.fGender === null || r.fGender === undefined ? '-' : translate(`enums.gender.${r.fGender}`, { _: String(r.fGender) })}</TableCell>
                <TableCell>{dash(leaseText(r.lease as Lease))}</TableCell>
                <TableCell>
                  <Chip size="small" color={Number(r.fStatus) === 1 ? 'success' : 'default'} label={translate(`enums.userStatus.${Number(r.fStatus) === 1 ? 1 : 0}`)} data-testid="tenant-status" />
                </TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{dash(r.fLastloginDate)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  <Button size="small" onClick={() => setOpen(r)} data-testid="tenant-view">
                    {translate('common.view')}
                  </Button>
                  {canStatus && (
                    <Button size="small" color={Number(r.fStatus) === 1 ? 'error' : 'success'} onClick={() => toggle(r)} data-testid="tenant-toggle">
                      {translate(Number(r.fStatus) === 1 ? 'tenant.disable' : 'tenant.enable')}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {rows.length === 0 && !loading && <EmptyState />}
      </TableContainer>
      <Pager
        component="div"
        count={data?.total ?? 0}
        page={page}
        rowsPerPage={size}
        rowsPerPageOptions={[10, 20, 50, 100]}
        onPageChange={(_e, p) => setPage(p)}
        onRowsPerPageChange={(e) => (setSize(Number(e.target.value)), setPage(0))}
      />
      <TenantDrawer tenant={open} onClose={() => setOpen(null)} />
      {confirm.dialog}
    </Box>
  );
}

/** The tenant's basic info and assets. */
function TenantDrawer({ tenant, onClose }: { tenant: Row | null; onClose: () => void }) {
  const translate = useTranslate();
  const [tab, setTab] = useState(0);
  const [broken, setBroken] = useState(false);
  const t = tenant ?? {};
  const pic = broken ? null : imageUrl((t.fPic as string) || ((t.wxOpen as Row | undefined)?.fAvatarUrl as string));
  const lease = t.lease as Lease | null | undefined;
  const item = (key: string, value: unknown) => ({ label: translate(`tenant.fields.${key}`), value: dash(value) });
  return (
    <Drawer anchor="right" open={Boolean(tenant)} onClose={onClose} slotProps={{ paper: { sx: { width: { xs: '100%', md: 960 } } } }} data-testid="tenant-drawer">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 2, py: 1.5 }}>
        <Avatar src={pic ?? undefined} slotProps={{ img: { onError: () => setBroken(true) } }} sx={{ width: 40, height: 40 }}>
          {String(t.fChineseName ?? '?').slice(0, 1)}
        </Avatar>
        <Typography variant="h6" sx={{ flex: 1 }}>
          {translate('tenant.detail', { name: dash(t.fChineseName) })}
        </Typography>
        <IconButton onClick={onClose} aria-label={translate('common.close')}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Divider />
      <Tabs value={tab} onChange={(_e, v: number) => setTab(v)} sx={{ px: 2 }}>
        <Tab label={translate('tenant.tabs.basic')} data-testid="tenant-tab-basic" />
        <Tab label={translate('tenant.tabs.assets')} data-testid="tenant-tab-assets" />
      </Tabs>
      <Box sx={{ p: 2, overflowY: 'auto' }}>
        {tenant && tab === 0 && (
          <Box data-testid="tenant-basic">
            <Box sx={{ display: 'flex', justifyContent: 'center', mb: 2 }}>
              <Avatar src={pic ?? undefined} variant="rounded" sx={{ width: 96, height: 96, fontSize: 36 }} slotProps={{ img: { onError: () => setBroken(true) } }}>
                {String(t.fChineseName ?? '?').slice(0, 1)}
              </Avatar>
            </Box>
            <DetailFields
              config={NO_FIELDS}
              row={t}
              sources={[]}
              extra={[
                item('fId', t.fId),
                item('fChineseName', t.fChineseName),
                item('fPhone', t.fPhone),
                item('fIdcard', maskIdcard(t.fIdcard)),
                { label: translate('tenant.fields.fGender'), value: t.fGender === null || t.fGender === undefined ? '-' : translate(`enums.gender.${t.fGender}`, { _: String(t.fGender) }) },
                { label: translate('tenant.fields.fStatus'), value: translate(`enums.userStatus.${Number(t.fStatus) === 1 ? 1 : 0}`) },
                item('fEmail', t.fEmail),
                item('fWorkUnit', t.fWorkUnit),
                item('fWorkAddress', t.fWorkAddress),
                item('lease', leaseText(lease)),
                item('leaseAddress', lease?.fAddress),
                item('fCreateTime', t.fCreateTime),
                item('fLastloginDate', t.fLastloginDate),
              ]}
            />
          </Box>
        )}
        {tenant && tab === 1 && <UserAssetsTab userId={Number(t.fId)} />}
      </Box>
    </Drawer>
  );
}

export default TenantPage;

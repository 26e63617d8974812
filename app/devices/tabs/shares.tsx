import { useCallback, useEffect, useState } from 'react';
import {
  Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Paper, Table, TableBody, TableCell, TableContainer,
  TableHead, TableRow, TextField, Typography,
} from '@mui/material';
import ShareIcon from '@mui/icons-material/Share';
import { useNotify, useTranslate } from 'react-admin';
import type { DeviceTab, DeviceTabProps } from '../DeviceDrawer';
import { useCan } from '../../auth/useCan';
import { EmptyState } from '../../components/EmptyState';
import { useConfirm } from '../../components/ConfirmDialog';
import { CALLS, useSend } from './shared';
import { reasonText } from '../../../adapters/i18nProvider';
import type { AnsweredReason } from '../../../contract/reasons';

/** What a share answers: the legacy summaries, and the same by code (devices shared, devices refused). */
export interface ShareAnswer {
  successMsg?: string;
  errorMsg?: string;
  shared?: AnsweredReason;
  refused?: AnsweredReason;
}

interface ShareRow {
  fId: number;
  userName: string | null;
  userPhone: string | null;
  fIntime: string;
  fOwner: number;
  isCanDel: number;
}

/** The legacy screen fetched every share at once. */
const ALL = 10000;

/** Add by phone or name; one device here, the list's batch share sends several. */
function ShareDialog({ open, deviceId, onClose, onShared }: { open: boolean; deviceId: number; onClose: () => void; onShared: () => void }) {
  const translate = useTranslate();
  const send = useSend();
  const notify = useNotify();
  const [user, setUser] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      setUser('');
      setError(undefined);
    }
  }, [open]);

  const submit = async () => {
    if (busy) return;
    if (!user.trim()) {
      setError(translate('deviceTab.shares.userRequired'));
      return;
    }
    setBusy(true);
    const res = await send<ShareAnswer>(CALLS.shareMore, { deviceIds: [deviceId], user: user.trim() });
    setBusy(false);
    if (res.ok) {
      notify(res.data?.shared ? reasonText(res.data.shared) : res.message, { type: 'success' });
      if (res.data?.refused) notify(reasonText(res.data.refused), { type: 'warning' });
      onClose();
      onShared();
    } else if (!res.announced) {
      // The dialog stays open so the name can be corrected.
      setError(res.message || translate('deviceTab.shares.failed'));
    }
  };

  return (
    <Dialog open={open} onClose={() => !busy && onClose()} maxWidth="xs" fullWidth data-testid="share-dialog">
      <DialogTitle>{translate('deviceTab.shares.title')}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          size="small"
          required
          sx={{ mt: 1 }}
          label={translate('deviceTab.shares.user')}
          placeholder={translate('deviceTab.shares.userPlaceholder')}
          value={user}
          onChange={(e) => {
            setUser(e.target.value);
            setError(undefined);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void submit();
          }}
          error={Boolean(error)}
          helperText={error ?? ' '}
          slotProps={{ htmlInput: { 'data-testid': 'share-user' } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy} data-testid="share-cancel">
          {translate('common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined} data-testid="share-save">
          {translate('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Share management: who the device is shared with (shared users only, fOwner 0), add and withdraw. */
function SharesTab({ device }: DeviceTabProps) {
  const translate = useTranslate();
  const send = useSend();
  const notify = useNotify();
  const canShare = useCan('device:device-share-more');
  const canDelete = useCan('device:share-del');
  const { ask, dialog } = useConfirm();
  const [rows, setRows] = useState<ShareRow[]>([]);
  const [loading, setLoading] = useState(false);
  const [adding, setAdding] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    const res = await send<{ records: ShareRow[] }>(CALLS.shares, { condition: { deviceId: device.fId }, current: 1, size: ALL });
    setLoading(false);
    setRows((res.data?.records ?? []).filter((r) => Number(r.fOwner) === 0));
  }, [device.fId]);
  useEffect(() => {
    void load();
  }, [load]);

  const remove = (row: ShareRow) =>
    ask(translate('deviceTab.shares.confirmDelete'), async () => {
      const res = await send(CALLS.shareDel, { fId: row.fId });
      if (res.ok) notify(res.message, { type: 'success' });
      else if (!res.announced) notify(res.message || translate('deviceTab.shares.deleteFailed'), { type: 'error' });
      await load();
    });

  return (
    <Box data-testid="device-shares-tab" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
          {translate('device.tabs.shares')}
        </Typography>
        {canShare && (
          <Button variant="contained" size="small" startIcon={<ShareIcon />} onClick={() => setAdding(true)} data-testid="share-add">
            {translate('deviceTab.shares.add')}
          </Button>
        )}
      </Box>
      {rows.length === 0 ? (
        loading ? <EmptyState message={translate('common.loading')} /> : <EmptyState message={translate('deviceTab.shares.empty')} />
      ) : (
        <TableContainer component={Paper} variant="outlined" data-testid="share-table">
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('deviceTab.shares.userName')}</TableCell>
                <TableCell>{translate('deviceTab.shares.userPhone')}</TableCell>
                <TableCell>{translate('deviceTab.shares.intime')}</TableCell>
                <TableCell align="right">{translate('common.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r) => (
                <TableRow key={r.fId} data-testid="share-row" data-id={r.fId}>
                  <TableCell>{r.userName ?? '-'}</TableCell>
                  <TableCell>{r.userPhone ?? '-'}</TableCell>
                  <TableCell>{r.fIntime}</TableCell>
                  <TableCell align="right">
                    {canDelete && Number(r.isCanDel) === 1 ? (
                      <Button size="small" color="error" onClick={() => remove(r)} data-testid="share-delete">
                        {translate('common.delete')}
                      </Button>
                    ) : (
                      '-'
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ShareDialog open={adding} deviceId={device.fId} onClose={() => setAdding(false)} onShared={() => void load()} />
      {dialog}
    </Box>
  );
}

const tab: DeviceTab = { key: 'shares', order: 40, label: 'device.tabs.shares', component: SharesTab };
export default tab;

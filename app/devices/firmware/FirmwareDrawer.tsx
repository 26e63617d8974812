import { useCallback, useEffect, useState } from 'react';
import { Box, Button, Chip, IconButton, LinearProgress, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import SendIcon from '@mui/icons-material/SystemUpdateAlt';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError, envelopeText } from '../../../adapters/http';
import { useApi } from '../../components/calls';
import { useCan } from '../../auth/useCan';
import { useConfirm } from '../../components/ConfirmDialog';
import { DetailDrawer } from '../../components/DetailDrawer';
import { DetailFields } from '../../components/FieldValue';
import type { ResourceConfig } from '../../resources/types';
import { DevicePicker } from './DevicePicker';
import { STATUS_COLORS, UPGRADE_CALLS } from './endpoints';
import type { FirmwareRow } from './endpoints';
import { DataTable } from '../../components/DataTable';
import type { CallAnswer, CallRow } from '../../../adapters/dataProvider';

/** The upgrade table's headers. */
const HEAD = { fontWeight: 600, whiteSpace: 'nowrap' } as const;

/** A device of the version's upgrade, with the device. */
type UpgradeRow = CallRow<typeof UPGRADE_CALLS.list>;
type Page = CallAnswer<typeof UPGRADE_CALLS.list>;
type Counts = Record<'-1' | '0' | '1' | '2', number>;

const INFO = ['fName', 'fProductId', 'fVersion', 'fVersionCode', 'fMd5Sign', 'fFileName', 'fIntime', 'fRemark'];
/** While a record is being sent the drawer follows its progress. */
const POLL_MS = 2000;

/** A firmware version's details and its upgrade devices: add selected or all, remove, push, statuses. */
export function FirmwareDrawer({ config, row, onClose }: { config: ResourceConfig; row: FirmwareRow | null; onClose: () => void }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();
  const confirm = useConfirm();
  const canAdd = useCan('firmware:add-device');
  const canAddAll = useCan('firmware:add-device-all');
  const canDelete = useCan('firmware-update-device:del');
  const canPush = useCan('firmware:push');

  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(10);
  const [data, setData] = useState<Page>({ records: [], total: 0 });
  const [counts, setCounts] = useState<Counts>({ '-1': 0, '0': 0, '1': 0, '2': 0 });
  const [loading, setLoading] = useState(false);
  const [tick, setTick] = useState(0);
  const [picking, setPicking] = useState(false);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const firmwareId = row?.fId;

  useEffect(() => {
    setPage(1);
  }, [firmwareId]);

  useEffect(() => {
    if (!firmwareId) return;
    let alive = true;
    setLoading(true);
    const list = UPGRADE_CALLS.list;
    const condition = { fFirmwareId: firmwareId };
    Promise.all([
      api.call(list, { current: page, size: perPage, condition }),
      ...(['-1', '0', '1', '2'] as const).map((s) => api.call(list, { current: 1, size: 1, condition: { ...condition, fStatus: Number(s) } })),
    ])
      .then(([records, ...byStatus]) => {
        if (!alive) return;
        setData(records.data);
        setCounts({ '-1': byStatus[0].data.total, '0': byStatus[1].data.total, '1': byStatus[2].data.total, '2': byStatus[3].data.total });
      })
      .catch(() => undefined)
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, [firmwareId, page, perPage, tick]);

  const sending = counts['1'] > 0;
  useEffect(() => {
    if (!sending || !firmwareId) return;
    const t = setInterval(reload, POLL_MS);
    return () => clearInterval(t);
  }, [sending, firmwareId, reload]);

  const failed = (error: unknown, key?: string) => {
    if (error instanceof ApiError && error.status !== 200) return;
    const text = error instanceof Error ? error.message : String(error);
    notify(key ? `${translate(key)}:${text}` : text, { type: 'error' });
  };

  const addAll = () =>
    confirm.ask(translate('firmware.upgrade.confirmAddAll'), async () => {
      try {
        const e = await api.call(UPGRADE_CALLS.addAll, { fFirmwareId: firmwareId, fProductId: row?.fProductId });
        notify(envelopeText(e) || translate('firmware.upgrade.added'), { type: 'success' });
        reload();
      } catch (error) {
        failed(error);
      }
    });
  const push = (record?: UpgradeRow) =>
    confirm.ask(translate('firmware.upgrade.confirmPush'), async () => {
      try {
        const e = await api.call(UPGRADE_CALLS.push, record ? { fId: record.fId } : { fFirmwareId: firmwareId });
        notify(envelopeText(e), { type: 'success' });
      } catch (error) {
        failed(error);
      } finally {
        reload();
      }
    });
  const remove = (record: UpgradeRow) =>
    confirm.ask(translate('firmware.upgrade.confirmDelete'), async () => {
      try {
        await api.call(UPGRADE_CALLS.delete, { fId: record.fId });
        notify(translate('firmware.upgrade.deleteSuccess'), { type: 'success' });
        if (data.records.length === 1 && page > 1) setPage(page - 1);
        reload();
      } catch (error) {
        failed(error, 'firmware.upgrade.deleteFailed');
      }
    });

  const total = counts['-1'] + counts['0'] + counts['1'] + counts['2'];
  return (
    <DetailDrawer record={row} onClose={onClose} width={1024} testId="firmware-drawer" title={(r) => `${translate('firmware.detail')} · ${String(r.fName ?? '')} ${String(r.fVersion ?? '')}`}>
      {(row) => (
        <>
          <Box sx={{ p: 2, overflow: 'auto', flex: 1 }}>
            <DetailFields config={config} row={{ ...row, tProduct: row.product }} sources={INFO} />
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 3, mb: 1, flexWrap: 'wrap' }}>
              <Typography variant="subtitle1" sx={{ fontWeight: 600, mr: 1 }}>
                {translate('firmware.upgrade.title')}
              </Typography>
              <Typography variant="body2" color="text.secondary" data-testid="upgrade-counts">
                {translate('firmware.upgrade.counts', { total, waiting: counts['0'], sending: counts['1'], success: counts['2'], failed: counts['-1'] })}
              </Typography>
              <Box sx={{ flex: 1 }} />
              <IconButton size="small" onClick={reload} aria-label={translate('firmware.upgrade.refresh')} data-testid="upgrade-refresh">
                <RefreshIcon fontSize="small" />
              </IconButton>
              {canAdd && (
                <Button size="small" variant="outlined" startIcon={<AddIcon />} onClick={() => setPicking(true)} data-testid="upgrade-add">
                  {translate('firmware.upgrade.addSelected')}
                </Button>
              )}
              {canAddAll && (
                <Button size="small" variant="outlined" startIcon={<PlaylistAddIcon />} onClick={addAll} data-testid="upgrade-add-all">
                  {translate('firmware.upgrade.addAll')}
                </Button>
              )}
              {canPush && (
                <Button size="small" variant="contained" startIcon={<SendIcon />} onClick={() => push()} disabled={counts['0'] === 0} data-testid="upgrade-push">
                  {translate('firmware.upgrade.push')}
                </Button>
              )}
            </Box>
            <DataTable
              rows={data.records}
              rowKey={(r) => r.fId}
              loading={loading}
              progressBar
              bordered
              tableProps={{ 'data-testid': 'upgrade-table' }}
              rowProps={(r) => ({ 'data-testid': 'upgrade-row', 'data-status': r.fStatus })}
              columns={[
                { key: 'device', header: translate('firmware.upgrade.device'), headerSx: HEAD, cell: (r) => r.device?.fNumber ?? r.fDeviceId },
                { key: 'deviceName', header: translate('firmware.upgrade.deviceName'), headerSx: HEAD, cell: (r) => r.device?.fName ?? '-' },
                {
                  key: 'status',
                  header: translate('firmware.upgrade.status'),
                  headerSx: HEAD,
                  cell: (r) => (
                    <Chip
                      size="small"
                      color={STATUS_COLORS[String(r.fStatus)] ?? 'default'}
                      variant={r.fStatus === 0 ? 'outlined' : 'filled'}
                      label={translate(`firmware.upgrade.statuses.${r.fStatus}`, { _: String(r.fStatus) })}
                      data-testid="upgrade-status"
                    />
                  ),
                },
                {
                  key: 'progress',
                  header: translate('firmware.upgrade.progress'),
                  headerSx: HEAD,
                  cellSx: { minWidth: 120 },
                  cell: (r) =>
                    r.fStatus === 1 || r.fStatus === 2 ? (
                      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                        <LinearProgress variant="determinate" value={Number(r.fProgress ?? 0)} sx={{ flex: 1 }} color={r.fStatus === 2 ? 'success' : 'primary'} />
                        <Typography variant="caption">{Number(r.fProgress ?? 0)}%</Typography>
                      </Box>
                    ) : (
                      '-'
                    ),
                },
                { key: 'message', header: translate('firmware.upgrade.message'), headerSx: HEAD, cellSx: { maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }, cellProps: (r) => ({ title: r.fMessage ?? '' }), cell: (r) => r.fMessage || '-' },
                { key: 'added_at', header: translate('firmware.upgrade.added_at'), headerSx: HEAD, cellSx: { whiteSpace: 'nowrap' }, cell: (r) => r.fIntime ?? '-' },
                ...(canDelete || canPush
                  ? [
                      {
                        key: 'actions',
                        header: translate('common.actions'),
                        headerSx: { fontWeight: 600 },
                        cellSx: { whiteSpace: 'nowrap' },
                        cell: (r: UpgradeRow) => (
                          <>
                            {canPush && r.fStatus === -1 && (
                              <Button size="small" onClick={() => push(r)} data-testid="upgrade-retry">
                                {translate('firmware.upgrade.retry')}
                              </Button>
                            )}
                            {canDelete && (
                              <Button size="small" color="error" disabled={r.fStatus === 1} onClick={() => remove(r)} data-testid="upgrade-delete">
                                {translate('common.delete')}
                              </Button>
                            )}
                          </>
                        ),
                      },
                    ]
                  : []),
              ]}
              pager={{
                count: data.total,
                page: Math.max(0, page - 1),
                rowsPerPage: perPage,
                sizes: [10, 20, 50],
                onPage: (p) => setPage(p + 1),
                onSize: (n) => {
                  setPerPage(n);
                  setPage(1);
                },
              }}
            />
          </Box>
          <DevicePicker firmware={{ fId: row.fId, fProductId: row.fProductId }} open={picking} onClose={() => setPicking(false)} onAdded={reload} />
          {confirm.dialog}
        </>
      )}
    </DetailDrawer>
  );
}

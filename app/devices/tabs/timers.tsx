import { useCallback, useEffect, useState } from 'react';
import { Alert, Chip, IconButton, Switch, Tooltip } from '@mui/material';
import SyncIcon from '@mui/icons-material/Sync';
import { useNotify, useTranslate } from 'react-admin';
import type { DeviceTab, DeviceTabProps } from '../DeviceDrawer';
import { useCans } from '../../auth/useCan';
import { AddButton } from '../../components/AddButton';
import { EmptyState } from '../../components/EmptyState';
import { TitledSection } from '../../components/TitledSection';
import { useConfirm } from '../../components/ConfirmDialog';
import { CODES, hasTimers, type Timer } from './timers/api';
import { useRequest } from '../../components/calls';
import { TimerDialog } from './timers/TimerDialog';
import { SyncDialog } from './timers/SyncDialog';
import { DataTable, actionsColumn } from '../../components/DataTable';
import { IconAction } from '../../components/IconAction';

const PAGE_SIZES = [10, 20, 50, 100];

interface Page {
  records: Timer[];
  total: number;
}

/** The device's timers: time, validity, action, reverse, state (saved on toggle), last and next run. */
function TimersTab({ device }: DeviceTabProps) {
  const translate = useTranslate();
  const request = useRequest();
  const notify = useNotify();
  const { timerList: canList, edit: canEdit, del: canDelete } = useCans(CODES);
  const { ask, dialog } = useConfirm();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(PAGE_SIZES[0]);
  const [data, setData] = useState<Page>({ records: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [editing, setEditing] = useState<{ record: Timer | null } | null>(null);
  const [syncing, setSyncing] = useState<Timer | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [toggling, setToggling] = useState<number | null>(null);

  const load = useCallback(async () => {
    if (!canList) return;
    setLoading(true);
    const res = await request('deviceTiming.list', { condition: { fDeviceId: device.fId }, current: page + 1, size });
    setLoading(false);
    if (res.ok && res.data) setData({ records: res.data.records ?? [], total: Number(res.data.total ?? 0) });
  }, [canList, device.fId, page, size]);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => setNotice(null), [device.fId]);

  const toggle = async (row: Timer, on: boolean) => {
    if (!row.fId) return;
    setToggling(row.fId);
    // Shown at once; a refusal puts the server's state back.
    setData((d) => ({ ...d, records: d.records.map((r) => (r.fId === row.fId ? { ...r, fState: on ? 1 : 0 } : r)) }));
    const res = await request('deviceTiming.save', { fId: row.fId, fState: on ? 1 : 0 });
    setToggling(null);
    if (res.ok) notify(translate('deviceTimers.saved'), { type: 'success' });
    else if (!res.announced) notify(translate('deviceTimers.saveFailed', { message: res.message }), { type: 'error' });
    await load();
  };

  const remove = (row: Timer) =>
    ask(translate('deviceTimers.confirmDelete'), async () => {
      const res = await request('deviceTiming.delete', { fId: row.fId });
      if (res.ok) notify(translate('deviceTimers.deleted'), { type: 'success' });
      else if (!res.announced) notify(translate('deviceTimers.deleteFailed', { message: res.message }), { type: 'error' });
      if (res.ok && data.records.length === 1 && page > 0) setPage((p) => p - 1);
      else await load();
    });

  if (!canList) return <EmptyState />;

  const reverseText = (r: Timer) => (Number(r.fReverse) === 1 ? translate('deviceTimers.reverseAfter', { seconds: r.fReverseSecond }) : translate('deviceTimers.noReverse'));

  return (
    <TitledSection testId="device-timers-tab" title={translate('device.tabs.timers')} actions={canEdit && <AddButton size="small" onClick={() => setEditing({ record: null })} label={translate('deviceTimers.add')} testId="timer-add" />}>
      {notice && (
        <Alert severity="success" onClose={() => setNotice(null)} data-testid="timer-sync-notice">
          {notice}
        </Alert>
      )}
      <DataTable
        rows={data.records}
        rowKey={(r) => r.fId ?? 0}
        loading={loading} empty={translate('deviceTimers.empty')} emptyAlone framed
        containerProps={{ 'data-testid': 'timer-table' }}
        rowProps={(r) => ({ 'data-testid': 'timer-row', 'data-id': r.fId })}
        columns={[
          { key: 'time', header: translate('deviceTimers.time'), cellSx: { fontWeight: 600, fontVariantNumeric: 'tabular-nums' }, cell: (r) => r.fTime },
          { key: 'validType', header: translate('deviceTimers.validType'), cell: (r) => translate(`deviceTimers.validTypes.${r.fValidType}`) },
          { key: 'opt', header: translate('deviceTimers.opt'), cell: (r) => <Chip size="small" label={translate(`deviceTimers.opts.${r.fOpt}`)} color={Number(r.fOpt) === 1 ? 'success' : 'default'} variant={Number(r.fOpt) === 1 ? 'filled' : 'outlined'} /> },
          { key: 'reverse', header: translate('deviceTimers.reverse'), cellSxOf: (r) => ({ color: Number(r.fReverse) === 1 ? 'text.primary' : 'text.disabled', whiteSpace: 'nowrap' }), cell: (r) => reverseText(r) },
          {
            key: 'state',
            header: translate('deviceTimers.state'),
            cell: (r) => (
              <Switch
                size="small"
                checked={Number(r.fState) === 1}
                disabled={!canEdit || toggling === r.fId}
                onChange={(_e, on) => void toggle(r, on)}
                slotProps={{ input: { 'aria-label': translate('deviceTimers.state'), ...({ 'data-testid': 'timer-state-toggle' } as object) } }}
              />
            ),
          },
          { key: 'runTime', header: translate('deviceTimers.runTime'), cellSxOf: (r) => ({ whiteSpace: 'nowrap', color: r.fRunTime ? 'text.primary' : 'text.disabled' }), cell: (r) => r.fRunTime ?? '-' },
          { key: 'runNextTime', header: translate('deviceTimers.runNextTime'), cellSxOf: (r) => ({ whiteSpace: 'nowrap', color: r.fRunNextTime ? 'text.primary' : 'text.disabled' }), cell: (r) => r.fRunNextTime ?? '-' },
          ...(canEdit || canDelete
            ? [
                actionsColumn(translate('common.actions'), (r: Timer) => (
                  <>
                    {canEdit && <IconAction kind="edit" onClick={() => setEditing({ record: r })} testId="timer-edit" />}
                    {canEdit && (
                      <Tooltip title={translate('deviceTimers.syncTitle')}>
                        <IconButton size="small" color="primary" onClick={() => setSyncing(r)} data-testid="timer-sync">
                          <SyncIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                    {canDelete && <IconAction kind="delete" onClick={() => remove(r)} testId="timer-delete" />}
                  </>
                )),
              ]
            : []),
        ]}
        pager={{
          count: data.total,
          page,
          rowsPerPage: size,
          sizes: PAGE_SIZES,
          onPage: setPage,
          onSize: (n) => {
            setSize(n);
            setPage(0);
          },
        }}
      />
      <TimerDialog open={editing !== null} deviceId={device.fId} record={editing?.record ?? null} onClose={() => setEditing(null)} onSaved={() => void load()} />
      <SyncDialog open={syncing !== null} deviceId={device.fId} timer={syncing} onClose={() => setSyncing(null)} onSynced={setNotice} />
      {dialog}
    </TitledSection>
  );
}

const tab: DeviceTab = { key: 'timers', order: 50, label: 'device.tabs.timers', component: TimersTab, when: hasTimers };
export default tab;

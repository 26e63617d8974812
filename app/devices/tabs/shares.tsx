import { useCallback, useEffect, useState } from 'react';
import { Button } from '@mui/material';
import ShareIcon from '@mui/icons-material/Share';
import { useNotify, useTranslate } from 'react-admin';
import type { DeviceTab, DeviceTabProps } from '../DeviceDrawer';
import { useCan } from '../../auth/useCan';
import { TitledSection } from '../../components/TitledSection';
import { DataTable, actionsColumn } from '../../components/DataTable';
import { useConfirm } from '../../components/ConfirmDialog';
import { PromptDialog } from '../../components/PromptDialog';
import { CALLS, useSend } from './shared';
import { reasonText } from '../../../adapters/i18nProvider';
import type { CallRow } from '../../../adapters/dataProvider';
import { TextAction } from '../../components/IconAction';

/** Who the device is shared with (or its holder, fOwner 1), as the shares call answers it. */
type ShareRow = CallRow<typeof CALLS.shares>;

/** The legacy screen fetched every share at once. */
const ALL = 10000;

/** Add by phone or name; one device here, the list's batch share sends several. */
function ShareDialog({ open, deviceId, onClose, onShared }: { open: boolean; deviceId: number; onClose: () => void; onShared: () => void }) {
  const translate = useTranslate();
  const send = useSend();
  const notify = useNotify();

  const share = async (user: string) => {
    const res = await send(CALLS.shareMore, { deviceIds: [deviceId], user: user.trim() });
    if (res.ok) {
      notify(res.data?.shared ? reasonText(res.data.shared) : res.message, { type: 'success' });
      if (res.data?.refused) notify(reasonText(res.data.refused), { type: 'warning' });
      onClose();
      onShared();
      return undefined;
    }
    // The dialog stays open so the name can be corrected.
    return res.announced ? undefined : res.message || translate('deviceTab.shares.failed');
  };

  return (
    <PromptDialog
      open={open}
      title={translate('deviceTab.shares.title')}
      required
      label={translate('deviceTab.shares.user')}
      placeholder={translate('deviceTab.shares.userPlaceholder')}
      check={(user) => (user.trim() ? undefined : translate('deviceTab.shares.userRequired'))}
      onSubmit={share}
      onClose={onClose}
      testIds={{ dialog: 'share-dialog', input: 'share-user', cancel: 'share-cancel', submit: 'share-save' }}
    />
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
    const res = await send(CALLS.shares, { condition: { deviceId: device.fId }, current: 1, size: ALL });
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
    <TitledSection
      testId="device-shares-tab"
      title={translate('device.tabs.shares')}
      actions={
        canShare && (
          <Button variant="contained" size="small" startIcon={<ShareIcon />} onClick={() => setAdding(true)} data-testid="share-add">
            {translate('deviceTab.shares.add')}
          </Button>
        )
      }
    >
      <DataTable
        rows={rows}
        rowKey={(r) => r.fId}
        loading={loading} empty={translate('deviceTab.shares.empty')} emptyAlone bordered
        containerProps={{ 'data-testid': 'share-table' }}
        rowProps={(r) => ({ hover: false, 'data-testid': 'share-row', 'data-id': r.fId })}
        columns={[
          { key: 'userName', header: translate('deviceTab.shares.userName'), cell: (r) => r.userName ?? '-' },
          { key: 'userPhone', header: translate('deviceTab.shares.userPhone'), cell: (r) => r.userPhone ?? '-' },
          { key: 'intime', header: translate('deviceTab.shares.intime'), cell: (r) => r.fIntime },
          actionsColumn(translate('common.actions'), (r: ShareRow) => (canDelete && Number(r.isCanDel) === 1 ? <TextAction kind="delete" onClick={() => remove(r)} testId="share-delete" /> : '-')),
        ]}
      />
      <ShareDialog open={adding} deviceId={device.fId} onClose={() => setAdding(false)} onShared={() => void load()} />
      {dialog}
    </TitledSection>
  );
}

const tab: DeviceTab = { key: 'shares', order: 40, label: 'device.tabs.shares', component: SharesTab };
export default tab;

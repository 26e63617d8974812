import { Chip } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError, envelopeText } from '../../../adapters/http';
import { useApi } from '../../components/calls';
import { DevicePickerDialog } from '../gateways/DevicePickerDialog';
import { UPGRADE_CALLS } from './endpoints';

const HEAD = { fontWeight: 600 } as const;

/** The test ids the firmware screen's tests know its picker by. */
const TEST_IDS = {
  search: 'picker-keyword',
  query: 'picker-query',
  count: 'picker-selected',
  row: 'picker-row',
  checkPage: 'picker-check-page',
  check: (id: number) => `picker-check-${id}`,
  cancel: 'picker-cancel',
  confirm: 'picker-add',
};

/** Devices of the firmware's product not yet added, 10 a page, chosen across pages and added together. */
export function DevicePicker({ firmware, open, onClose, onAdded }: { firmware: { fId: number; fProductId?: unknown }; open: boolean; onClose: () => void; onAdded: () => void }) {
  const translate = useTranslate();
  const api = useApi();
  const notify = useNotify();

  const add = async (picked: { fId: number }[]) => {
    if (!picked.length) {
      notify(translate('firmware.upgrade.noneSelected'), { type: 'warning' });
      return false;
    }
    try {
      const envelope = await api.call(UPGRADE_CALLS.addDevices, picked.map((d) => ({ fDeviceId: d.fId, fFirmwareId: firmware.fId })));
      notify(envelopeText(envelope) || translate('firmware.upgrade.added'), { type: 'success' });
      onAdded();
      return true;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 200) notify(error instanceof Error ? error.message : String(error), { type: 'error' });
      return false;
    }
  };

  return (
    <DevicePickerDialog
      open={open}
      title={translate('firmware.picker.title')}
      call={UPGRADE_CALLS.undevices}
      condition={{ fFirmwareId: firmware.fId, fProductId: firmware.fProductId }}
      search="keyword"
      searchLabel={translate('firmware.picker.keyword')}
      countKey="firmware.picker.selected"
      empty={translate('firmware.picker.empty')}
      columns={[
        { key: 'device', header: translate('firmware.upgrade.device'), headerSx: HEAD, cell: (d) => String(d.fNumber ?? '') },
        { key: 'name', header: translate('firmware.upgrade.deviceName'), headerSx: HEAD, cell: (d) => String(d.fName ?? '-') },
        {
          key: 'state',
          header: translate('firmware.picker.state'),
          headerSx: HEAD,
          cell: (d) => <Chip size="small" variant="outlined" color={d.tOnline === 1 ? 'success' : 'default'} label={translate(d.tOnline === 1 ? 'firmware.picker.online' : 'firmware.picker.offline')} />,
        },
      ]}
      onClose={onClose}
      onConfirm={add}
      testId="firmware-device-picker"
      testIds={TEST_IDS}
    />
  );
}

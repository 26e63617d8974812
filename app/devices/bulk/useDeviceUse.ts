/** Use/remove (spec 000 §4) for the device rows: offered with device:use, shown by the row only when canUse is 1. */
import { useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import { useApi } from '../../components/calls';
import { useCan } from '../../auth/useCan';
import type { DeviceRow } from '../cells';

export function useDeviceUse(onDone: () => void): ((row: DeviceRow) => void) | undefined {
  const translate = useTranslate();
  const notify = useNotify();
  const allowed = useCan('device:use');
  const api = useApi();
  if (!allowed) return undefined;
  return (row: DeviceRow) => {
    api
      .call('device.use', { fId: row.fId })
      .then((answer) => {
        const added = Number(answer.data?.isUse) === 1;
        notify(translate(added ? 'deviceBulk.useAdded' : 'deviceBulk.useRemoved'), { type: 'success' });
        onDone();
      })
      .catch((error: unknown) => {
        if (!(error instanceof ApiError) || error.status === 200) notify(translate('device.operationFailed', { message: error instanceof Error ? error.message : String(error) }), { type: 'error' });
      });
  };
}

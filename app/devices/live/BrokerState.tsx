import { Chip, Tooltip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { useBrokerState } from '../../platform';

/** Says plainly when devices cannot be reached, instead of letting commands fail silently. */
export function BrokerStateChip() {
  const translate = useTranslate();
  const state = useBrokerState();
  if (state === 'connected') return null;
  return (
    <Tooltip title={translate('device.broker.hint')}>
      <Chip
        size="small"
        color={state === 'unknown' ? 'default' : 'warning'}
        label={translate(`device.broker.${state}`)}
        data-testid="broker-state"
        data-state={state}
      />
    </Tooltip>
  );
}

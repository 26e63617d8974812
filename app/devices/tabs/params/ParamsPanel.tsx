import { useState } from 'react';
import { Box } from '@mui/material';
import type { DeviceTabProps } from '../../DeviceDrawer';
import { useCan } from '../../../auth/useCan';
import { hasThresholds, isGateway, callsFor } from '../shared';
import { ThresholdSection } from './ThresholdSection';
import { BreakerSection } from './BreakerSection';

/** Parameter configuration: gateway thresholds for types 2, 4 and 6; protection and calibration for every non-gateway device. */
export function ParamsPanel({ device }: DeviceTabProps) {
  const canControl = useCan('device:control');
  // The device answers one command at a time: the breaker's reads wait for the threshold read.
  const [thresholdsRead, setThresholdsRead] = useState(!hasThresholds(device));
  return (
    <Box data-testid="device-params-tab" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {hasThresholds(device) && <ThresholdSection key={`t-${device.fId}`} deviceId={device.fId} setCall={callsFor(device).setThreshold} canControl={canControl} onRead={() => setThresholdsRead(true)} />}
      {!isGateway(device) && <BreakerSection key={`b-${device.fId}`} deviceId={device.fId} canControl={canControl} start={thresholdsRead} />}
    </Box>
  );
}

export default ParamsPanel;

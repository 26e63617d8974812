import { Suspense } from 'react';
import { lazyChunk } from '../../shell/chunks';
import { Box, CircularProgress } from '@mui/material';
import type { DeviceTab, DeviceTabProps } from '../DeviceDrawer';

// The schema-form library is loaded when the tab is first opened, not with the device list.
const ParamsPanel = lazyChunk(() => import('./params/ParamsPanel'));

function ParamsTab(props: DeviceTabProps) {
  return (
    <Suspense
      fallback={
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress size={24} />
        </Box>
      }
    >
      <ParamsPanel {...props} />
    </Suspense>
  );
}

const tab: DeviceTab = { key: 'params', order: 70, label: 'device.tabs.params', component: ParamsTab };
export default tab;

import { Suspense } from 'react';
import { lazyChunk } from '../../shell/chunks';
import { LinearProgress } from '@mui/material';
import { getStoredPermissions } from '../../../adapters/authProvider';
import type { DeviceTab, DeviceTabProps } from '../DeviceDrawer';

// The form library weighs more than the rest of the drawer: fetched when the tab is first opened.
const CommandPanels = lazyChunk(() => import('./commands/CommandPanels'));

function CommandsTab(props: DeviceTabProps) {
  return (
    <Suspense fallback={<LinearProgress />}>
      <CommandPanels {...props} />
    </Suspense>
  );
}

/**
 * Product command tabs (spec 000 §2: "command tabs per product"). Tabs are declared once for every
 * device, but the libraries belong to each device's product, so one tab holds an inner tab per library.
 */
const tabs: DeviceTab[] = [
  {
    key: 'commands',
    order: 90,
    label: 'device.tabs.commands',
    component: CommandsTab,
    when: () => getStoredPermissions().includes('device:command'),
  },
];

export default tabs;

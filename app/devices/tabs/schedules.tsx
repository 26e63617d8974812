import type { DeviceTab, DeviceTabProps } from '../DeviceDrawer';
import { hasTimers } from './timers/api';
import { SchedulePanel } from './timers/SchedulePanel';

function SchedulesTab({ device }: DeviceTabProps) {
  return <SchedulePanel deviceId={device.fId} />;
}

/** The timed-switch panel, next to the timers; like them, not for gateways. */
const tab: DeviceTab = { key: 'schedules', order: 55, label: 'device.tabs.schedules', component: SchedulesTab, when: hasTimers };
export default tab;

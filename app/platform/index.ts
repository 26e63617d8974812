/** What the platform domain lets the other domains use; nothing else of it is reached from outside. */
export { useAlarmEvents, useBrokerState, useDeviceAlarmEvents, useDeviceEvents, useDeviceImportEvents, type AlarmEvent, type DeviceEvent } from './events';

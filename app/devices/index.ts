/** What the devices domain lets the other domains use; nothing else of it is reached from outside. */
export { DevicePickerDialog } from './gateways/DevicePickerDialog';
export { type DeviceRow } from './gateways/api';

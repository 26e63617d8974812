/** What the devices domain lets the other domains use; nothing else of it is reached from outside. */
export { DevicePickerDialog, type PickerRow } from './gateways/DevicePickerDialog';

/** The gateway page's codes and shapes (its calls: gateway.*, resources/calls/gateway.json). */
import type { Counted } from '../../components/Pager';
export const GATEWAY_CODES = { list: 'gateway:list', add: 'gateway:add' };
/** Spec 000 §9. */
export const CARD_SIZE = 8;
export const CHILD_SIZE = 4;
export const PICKER_SIZE = 10;

export type DeviceRow = Record<string, unknown> & { fId: number };
/** A page of devices; the picker of bindable devices may answer an estimated total (a city's worth of them). */
export interface Page<T = DeviceRow> extends Counted {
  records: T[];
}

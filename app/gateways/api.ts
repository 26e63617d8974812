/** The gateway page's calls (server/domain/gateways.ts) and codes. */
import type { Counted } from '../components/Pager';
export const GATEWAY_PATHS = {
  cards: '/biz/t-device/devicesmore',
  children: '/biz/t-gateway-device/devicesbygatewayid',
  bindable: '/biz/t-device/devicesbygateway',
  add: '/biz/t-gateway-device/add',
  del: '/biz/t-gateway-device/del',
};
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

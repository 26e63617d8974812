/** The gateway page's codes and shapes (its calls: gateway.*, resources/calls/gateway.json). */
import type { CallAnswer, CallRow } from '../../../adapters/dataProvider';
export const GATEWAY_CODES = { list: 'gateway:list', add: 'gateway:add' };
/** Spec 000 §9. */
export const CARD_SIZE = 8;
export const CHILD_SIZE = 4;
export const PICKER_SIZE = 10;

/** A page of gateways, as the cards call answers it. */
export type CardsPage = CallAnswer<'gateway.cards'>;
/** A gateway: the device, how many children it has and its first children. */
export type GatewayRow = CallRow<'gateway.cards'>;
/** A child device of a gateway. */
export type ChildRow = CallRow<'gateway.children'>;

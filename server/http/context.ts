/**
 * The server as a call's handler sees it: what registering a call needs (server/http/route.ts), the live
 * devices and the relay of events. Kept apart from route.ts so registering a call does not depend on the
 * device side, which registers calls of its own.
 */
import type { CallServices } from './route';
import type { LiveDevices } from '../devices/live';
import type { Relay } from '../relay';

export interface RouteContext extends CallServices {
  live: LiveDevices;
  /** Events of every replica (server/relay.ts). */
  relay: Relay;
}

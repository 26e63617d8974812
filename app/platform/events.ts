/**
 * One live connection per page to the server's event stream (/api/events): device online, switch and
 * lock changes, device alarms raised and cleared, new alarms, new messages of the message centre, the
 * progress of the user's own device imports, and the state of the server's MQTT connection. Components
 * subscribe with the hooks.
 */
import { useEffect, useState } from 'react';
import { getToken } from '../../adapters/http';
import { callUrl, dataProvider } from '../../adapters/dataProvider';
import type { DeviceAlarmEvent } from '../../contract/deviceAlarm';
import type { DeviceImportProgress } from '../../contract/deviceImport';
import type { AlarmEvent as ContractAlarmEvent, DeviceChange, MessageEvent as CentreMessage } from '../../contract/liveEvents';

/** Wait before opening the stream again after it dropped (server restart, network). */
const RETRY_MS = 3000;

/** A device's change as the stream sends it. */
export type DeviceEvent = DeviceChange;

/** A new rental-house alarm the user's alarm lists would show: the stream sends its id and type. */
export type AlarmEvent = Pick<ContractAlarmEvent, 'fId' | 'fAlarmType'>;

/** A new message of the message centre, addressed to the logged-in user. */
export type InboxEvent = Omit<CentreMessage, 'userId'>;

export type BrokerState = 'connected' | 'reconnecting' | 'offline' | 'unknown';

type Listener = {
  device?: (e: DeviceEvent) => void;
  deviceAlarm?: (e: DeviceAlarmEvent) => void;
  broker?: (s: BrokerState) => void;
  alarm?: (e: AlarmEvent) => void;
  message?: (e: InboxEvent) => void;
  deviceImport?: (e: DeviceImportProgress) => void;
};

const listeners = new Set<Listener>();
let source: EventSource | null = null;
let broker: BrokerState = 'unknown';

let opening = false;

/**
 * Asks for a single-use ticket (live.ticket: the token travels in the header, never in the URL), then
 * opens the stream (live.events). One stream per tab, shared by every page: asked of the data provider
 * itself, outside any component.
 */
async function connect() {
  if (source || opening || !getToken() || typeof EventSource === 'undefined') return;
  opening = true;
  let ticket: string;
  try {
    ticket = (await dataProvider.call('live.ticket', {}, { quiet: true })).data.ticket;
  } catch {
    opening = false;
    return;
  }
  opening = false;
  if (source || listeners.size === 0) return;
  open(ticket);
}

function open(ticket: string) {
  source = new EventSource(callUrl('live.events', {}, { ticket }));
  // Each kind of event goes to the listeners that asked for it, by the same name.
  for (const kind of ['device', 'deviceAlarm', 'alarm', 'message', 'deviceImport'] as const) {
    source.addEventListener(kind, (m) => {
      const e = JSON.parse((m as MessageEvent).data) as never;
      for (const l of listeners) (l[kind] as ((e: never) => void) | undefined)?.(e);
    });
  }
  source.addEventListener('broker', (m) => {
    broker = (JSON.parse((m as MessageEvent).data) as { state: BrokerState }).state;
    for (const l of listeners) l.broker?.(broker);
  });
  // A ticket is good once, so the browser's own retry is refused: close and reconnect with a new ticket.
  const current = source;
  // The server closed this stream for a newer one of the same user (it keeps a few per user, one per tab:
  // MAX_STREAMS_PER_USER in server/devices/routes.ts). This tab opens another only once it is looked at
  // again, so tabs left open do not take the streams from each other in turn.
  current.addEventListener('superseded', () => {
    current.close();
    if (source === current) source = null;
    broker = 'unknown';
    for (const l of listeners) l.broker?.(broker);
    whenLookedAt(() => {
      if (listeners.size > 0) void connect();
    });
  });
  current.onerror = () => {
    broker = 'unknown';
    for (const l of listeners) l.broker?.(broker);
    current.close();
    if (source === current) source = null;
    setTimeout(() => {
      if (listeners.size > 0) void connect();
    }, RETRY_MS);
  };
}

/** Calls back the next time the page becomes visible (the user switches to its tab or window). */
function whenLookedAt(then: () => void) {
  if (typeof document === 'undefined') return;
  const check = () => {
    if (document.visibilityState !== 'visible') return;
    document.removeEventListener('visibilitychange', check);
    then();
  };
  document.addEventListener('visibilitychange', check);
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  void connect();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && source) {
      source.close();
      source = null;
    }
  };
}

/** Calls back on every device change the user may see. */
export function useDeviceEvents(onEvent: (e: DeviceEvent) => void) {
  useEffect(() => subscribe({ device: onEvent }), [onEvent]);
}

/** Calls back on every alarm raised or cleared on a device the user may see. */
export function useDeviceAlarmEvents(onEvent: (e: DeviceAlarmEvent) => void) {
  useEffect(() => subscribe({ deviceAlarm: onEvent }), [onEvent]);
}

/** Calls back on every new alarm the user may see. */
export function useAlarmEvents(onEvent: (e: AlarmEvent) => void) {
  useEffect(() => subscribe({ alarm: onEvent }), [onEvent]);
}

/** Calls back on every new message addressed to the user. */
export function useInboxEvents(onEvent: (e: InboxEvent) => void) {
  useEffect(() => subscribe({ message: onEvent }), [onEvent]);
}

/** Calls back with how far the user's own device imports have got, while `active`. */
export function useDeviceImportEvents(onEvent: (e: DeviceImportProgress) => void, active = true) {
  useEffect(() => (active ? subscribe({ deviceImport: onEvent }) : undefined), [onEvent, active]);
}

/** The server's connection to the MQTT broker, as last reported. */
export function useBrokerState(): BrokerState {
  const [state, setState] = useState<BrokerState>(broker);
  useEffect(() => subscribe({ broker: setState }), []);
  return state;
}

/**
 * One live connection per page to the server's event stream (/api/events): device online, switch and
 * lock changes, and the state of the server's MQTT connection. Components subscribe with the hooks.
 */
import { useEffect, useState } from 'react';
import { getToken } from '../../../adapters/http';

export interface DeviceEvent {
  fId: number;
  fNumber: string;
  tOnline?: number;
  switchStatus?: number;
  fLock?: number;
}

export type BrokerState = 'connected' | 'reconnecting' | 'offline' | 'unknown';

type Listener = { device?: (e: DeviceEvent) => void; broker?: (s: BrokerState) => void };

const listeners = new Set<Listener>();
let source: EventSource | null = null;
let broker: BrokerState = 'unknown';

function connect() {
  const token = getToken();
  if (source || !token || typeof EventSource === 'undefined') return;
  source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
  source.addEventListener('device', (m) => {
    const e = JSON.parse((m as MessageEvent).data) as DeviceEvent;
    for (const l of listeners) l.device?.(e);
  });
  source.addEventListener('broker', (m) => {
    broker = (JSON.parse((m as MessageEvent).data) as { state: BrokerState }).state;
    for (const l of listeners) l.broker?.(broker);
  });
  // The browser reconnects by itself; while it does, the console does not know the broker's state.
  source.onerror = () => {
    broker = 'unknown';
    for (const l of listeners) l.broker?.(broker);
  };
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  connect();
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

/** The server's connection to the MQTT broker, as last reported. */
export function useBrokerState(): BrokerState {
  const [state, setState] = useState<BrokerState>(broker);
  useEffect(() => subscribe({ broker: setState }), []);
  return state;
}

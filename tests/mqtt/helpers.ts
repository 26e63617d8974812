import { EventEmitter } from 'node:events';
import mqtt from 'mqtt';
import { deviceTopic } from '../../server/mqtt/topics.js';

/** Resolves with the first event that satisfies `match`, or rejects after `timeoutMs`. */
export function nextEvent<T>(
  emitter: EventEmitter<any>,
  event: string,
  match: (value: T) => boolean = () => true,
  timeoutMs = 3000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      emitter.off(event, listener);
      reject(new Error(`no matching '${event}' event within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (value: T) => {
      if (!match(value)) return;
      clearTimeout(timer);
      emitter.off(event, listener);
      resolve(value);
    };
    emitter.on(event, listener);
  });
}

export async function eventually(check: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Unique per run, so parallel runs on a shared broker never see each other's devices. */
export function runTag(): string {
  return Math.random().toString(36).slice(2, 8).toUpperCase();
}

/** Removes the retained status messages a test left on a long-lived broker. */
export async function clearRetained(url: string, devices: { productNumber: string; deviceNumber: string }[]) {
  const client = await mqtt.connectAsync(url, { reconnectPeriod: 0 });
  for (const d of devices) {
    await client.publishAsync(deviceTopic(d.productNumber, d.deviceNumber, 'status'), '', { qos: 1, retain: true });
  }
  await client.endAsync();
}

import mqtt from 'mqtt';

export type ProtocolVersion = 4 | 5;
export type ProtocolChoice = ProtocolVersion | 'auto';

export interface Credentials {
  username?: string;
  password?: string;
}

/** aedes answers an MQTT 5 CONNECT with this 3.1.1 return code; a v5 broker would use reason 132. */
function isUnsupportedProtocol(err: Error & { code?: unknown }): boolean {
  return err.code === 1 || err.code === 132 || /protocol version/i.test(err.message);
}

/**
 * Asks the broker whether it speaks MQTT 5 by trying a v5 CONNECT on a throw-away connection.
 * Resolves 5 or 4; rejects when the broker cannot be reached at all.
 */
export function detectProtocolVersion(
  url: string,
  { connectTimeoutMs = 5000, ...credentials }: Credentials & { connectTimeoutMs?: number } = {},
): Promise<ProtocolVersion> {
  return new Promise((resolve, reject) => {
    const probe = mqtt.connect(url, {
      ...credentials,
      protocolVersion: 5,
      reconnectPeriod: 0,
      connectTimeout: connectTimeoutMs,
      clientId: `probe-${Math.random().toString(36).slice(2, 10)}`,
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      probe.end(true);
      fn();
    };
    probe.once('connect', () => settle(() => resolve(5)));
    probe.once('error', (err) =>
      settle(() => (isUnsupportedProtocol(err) ? resolve(4) : reject(err))),
    );
    probe.once('close', () => settle(() => reject(new Error(`cannot reach MQTT broker at ${url}`))));
  });
}

export async function resolveProtocolVersion(
  url: string,
  choice: ProtocolChoice,
  options: Credentials & { connectTimeoutMs?: number } = {},
): Promise<ProtocolVersion> {
  return choice === 'auto' ? detectProtocolVersion(url, options) : choice;
}

import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startBroker, type EmbeddedBroker } from '../../server/mqtt/broker.js';
import { DeviceTransport } from '../../server/mqtt/transport.js';
import { deviceSuite } from './suite.js';

let broker: EmbeddedBroker;
beforeAll(async () => {
  broker = await startBroker({ port: 0 });
});
afterAll(async () => {
  await broker?.close();
});

deviceSuite('devices on the embedded broker (aedes, MQTT 3.1.1)', { url: () => broker.url, expectedProtocol: 4 });

describe('embedded broker', () => {
  it('refuses a second broker on a port in use', async () => {
    await expect(startBroker({ port: broker.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('rejects a command at once when not connected', async () => {
    const t = new DeviceTransport({ url: broker.url });
    expect(t.state).toBe('offline');
    await expect(t.sendCommand('P1', 'X1', { bid: 'refresh' })).rejects.toMatchObject({ code: 'not-connected' });
    await t.close();
  });

  it('keeps trying when the broker is not there yet', async () => {
    const late = await startBroker({ port: 0 });
    const port = late.port;
    await late.close();
    const t = new DeviceTransport({ url: `mqtt://127.0.0.1:${port}`, reconnectPeriodMs: 50 });
    await expect(t.connect({ waitMs: 200 })).rejects.toThrow(/not reachable/);
    expect(t.state).toBe('reconnecting');
    const again = await startBroker({ port });
    try {
      await t.connect({ waitMs: 3000 });
      expect(t.state).toBe('connected');
    } finally {
      await t.close();
      await again.close();
    }
  });
});

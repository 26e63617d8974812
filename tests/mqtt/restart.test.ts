/** A broker restart in the middle of a run: nothing in flight is left hanging, and work resumes. */
import { describe, it, expect, afterAll } from 'vitest';
import { startBroker, type EmbeddedBroker } from '../../server/mqtt/broker.js';
import { DeviceTransport, type StatusEvent, type TransportState } from '../../server/mqtt/transport.js';
import { startSimulator, type SimulatorHandle } from '../../server/simulator/simulator.js';
import { eventually, nextEvent } from './helpers.js';

describe('broker restart', () => {
  let broker: EmbeddedBroker;
  let sim: SimulatorHandle | undefined;
  let transport: DeviceTransport | undefined;

  afterAll(async () => {
    await transport?.close();
    await sim?.stop();
    await broker?.close();
  });

  it('fails pending commands, refuses new ones while down, and recovers', async () => {
    broker = await startBroker({ port: 0 });
    const port = broker.port;
    const devices = [
      { productNumber: 'P5', deviceNumber: 'RST1', type: 5 as const },
      { productNumber: 'P2', deviceNumber: 'RST2', type: 2 as const, children: ['RST3'] },
    ];
    sim = await startSimulator({ url: broker.url, devices, telemetryMs: 100, reconnectPeriodMs: 100 });
    transport = new DeviceTransport({ url: broker.url, reconnectPeriodMs: 100 });
    const states: TransportState[] = [];
    transport.on('state', (s) => states.push(s));
    await transport.connect();
    expect(await transport.sendCommand('P5', 'RST1', { bid: 'switch', value: 0 }, { timeoutMs: 1000 })).toMatchObject({ ack: true });

    // Two commands that will still be waiting when the broker goes: to an absent device, and one
    // whose ack cannot arrive in time because the broker is gone.
    const started = Date.now();
    const pending = [
      transport.sendCommand('P5', 'ABSENT', { bid: 'refresh' }, { timeoutMs: 10_000 }).catch((e) => e),
      transport.sendCommand('P2', 'RST2', { bid: 'set-threshold', tHi: 80 }, { timeoutMs: 10_000 }).then((ack) => ack, (e) => e),
    ];
    await broker.close();
    const [absent, inFlight] = await Promise.all(pending);
    expect(absent).toMatchObject({ name: 'CommandError', code: 'disconnected' });
    // The second one may have been acknowledged before the close; either way it is settled.
    expect(inFlight.ack === true || inFlight.code === 'disconnected').toBe(true);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(transport.pendingCount).toBe(0);

    await eventually(() => transport!.state === 'reconnecting', 1000, 'reconnecting state');
    await expect(transport.sendCommand('P5', 'RST1', { bid: 'refresh' })).rejects.toMatchObject({ code: 'not-connected' });

    broker = await startBroker({ port });
    const back = nextEvent<StatusEvent>(transport, 'status', (s) => s.deviceNumber === 'RST1' && s.online, 5000);
    const childBack = nextEvent<StatusEvent>(transport, 'status', (s) => s.deviceNumber === 'RST3' && s.online, 5000);
    await eventually(() => transport!.state === 'connected', 5000, 'reconnected');
    await back;
    await childBack;
    expect(states).toEqual(['connected', 'reconnecting', 'connected']);

    // State survived the restart on the device side; commands work again.
    expect(sim.device('RST1')!.switch).toBe(0);
    expect(await transport.sendCommand('P5', 'RST1', { bid: 'switch', value: 1 }, { timeoutMs: 1000 })).toMatchObject({ ack: true, state: { switch: 1 } });
    expect(await transport.sendCommand('P2', 'RST2', { bid: 'read-threshold' }, { timeoutMs: 1000 })).toMatchObject({ ack: true });
    await nextEvent(transport, 'telemetry', (t: { deviceNumber: string }) => t.deviceNumber === 'RST3', 2000);
  });
});

/**
 * Starts the device side of the server: the embedded broker (unless MQTT_URL names one), the
 * transport, the live-device service, and the simulator for the demo devices.
 */
import type { Config } from '../config';
import type { DB } from '../db';
import { startBroker, type EmbeddedBroker } from '../mqtt/broker';
import { DeviceTransport } from '../mqtt/transport';
import { startSimulator, type SimulatorHandle } from '../simulator/simulator';
import type { DeviceSpec } from '../simulator/device';
import { LiveDevices } from './live';
import { startLeadership } from './leader';
import { startCommandSweeper } from './commands';
import { securityDevices, startSecuritySimulator, type SecuritySimulator } from '../simulator/security';
import { recordSecurityEvent } from '../security';

export interface DeviceSide {
  live: LiveDevices;
  url: string;
  /** The embedded broker, when no MQTT_URL was given. */
  broker?: EmbeddedBroker;
  simulator?: SimulatorHandle;
  /** The door locks and access controls of the rental houses (security events). */
  security?: SecuritySimulator;
  stop(): Promise<void>;
}

/**
 * The devices the simulator plays: `demo` (default) those the demo seed created, `all` every device
 * in the database, `off` none. Gateways carry the children bound to them.
 */
export async function simulatedDevices(db: DB, which: string): Promise<DeviceSpec[]> {
  if (which === 'off') return [];
  let q = db
    .selectFrom('t_device as d')
    .innerJoin('t_product as p', 'p.fId', 'd.fProductId')
    .leftJoin('t_gateway_device as gd', 'gd.fDeviceId', 'd.fId')
    .select(['d.fId', 'd.fNumber', 'd.fTypeId', 'p.fNumber as productNumber', 'gd.fGatewayId']);
  if (which !== 'all') q = q.where((eb) => eb.or([eb('d.fNumber', 'like', 'DEV0%'), eb('d.fNumber', 'like', 'RG0%')]));
  const rows = await q.orderBy('d.fId').execute();
  const byId = new Map(rows.map((r) => [r.fId, r]));
  const specs = new Map<number, DeviceSpec>();
  for (const r of rows) {
    if (r.fGatewayId && byId.has(r.fGatewayId)) continue;
    specs.set(r.fId, { productNumber: r.productNumber, deviceNumber: r.fNumber, type: (r.fTypeId ?? 1) as DeviceSpec['type'] });
  }
  for (const r of rows) {
    const gateway = r.fGatewayId ? specs.get(r.fGatewayId) : undefined;
    if (gateway) (gateway.children ??= []).push({ deviceNumber: r.fNumber, type: (r.fTypeId ?? 1) as 1 });
  }
  return [...specs.values()];
}

export async function startDevices(config: Config, db: DB, options: { simulate?: string; telemetryMs?: number; securityMs?: number } = {}): Promise<DeviceSide> {
  let broker: EmbeddedBroker | undefined;
  if (!config.mqttUrl) broker = await startBroker({ port: config.mqttPort });
  const url = config.mqttUrl ?? broker!.url;
  // Commands a stopped replica left in flight end as timed out, on whichever replica runs.
  const stopSweeper = startCommandSweeper(db);
  // This replica's own connection: commands, their acknowledgements, device statuses. With a client id that
  // survives restarts the broker keeps the session, so QoS 1 messages not yet stored when the process
  // stopped are delivered again (docs/mqtt.md, storing device messages).
  const protocolVersion = config.mqttUrl ? 'auto' : 4;
  const transport = new DeviceTransport({
    url,
    protocolVersion,
    channels: ['ack', 'status'],
    ...(config.mqttClientId ? { clientId: config.mqttClientId, persistentSession: true } : {}),
  });
  // On PostgreSQL the message log of a batch is written by INGEST_LOG_WRITERS connections side by side;
  // PGlite has one connection, on which the writes would only take turns.
  const live = new LiveDevices(db, transport, async (deviceNumber, event) => void (await recordSecurityEvent(db, deviceNumber, event)), { logWriters: config.databaseUrl ? config.ingestLogWriters : 1 });
  // The `up` channel is read by one replica at a time, on the installation's ingest session. Replicas share
  // a broker only through MQTT_URL: an embedded broker's devices are its own process's to store.
  const leadership = startLeadership(config.mqttUrl ? config.databaseUrl : undefined, (fence) => {
    const ingest = new DeviceTransport({
      url,
      protocolVersion,
      channels: ['up'],
      // The broker keeps this session a week for whichever replica leads next (a takeover, a broker outage).
      ...(config.mqttIngestClientId ? { clientId: config.mqttIngestClientId, persistentSession: true, sessionExpirySeconds: 7 * 86_400 } : {}),
    });
    const source = live.read(ingest, fence);
    const ready = ingest.connect({ waitMs: 5000 }).catch((e) => console.warn(`mqtt ingest: ${(e as Error).message}; retrying`));
    return {
      ready,
      // Stopped without draining, the lock is lost: another replica may already hold the session, and the
      // messages taken here and not yet stored are its to store.
      stop: (options) => {
        if (!options.drain) source.abandoned = true;
        return ingest.close(options);
      },
    };
  });
  await leadership.first;
  // Without a broker the server still serves everything else; the transport keeps trying.
  await transport.connect({ waitMs: 5000 }).catch((e) => console.warn(`mqtt: ${url} not reachable yet (${(e as Error).message}); retrying`));
  const specs = await simulatedDevices(db, options.simulate ?? 'demo');
  const simulator = specs.length
    ? await startSimulator({ url, devices: specs, telemetryMs: options.telemetryMs ?? 30_000 }).catch((e) => {
        console.warn(`simulator: ${(e as Error).message}`);
        return undefined;
      })
    : undefined;
  const security = options.simulate !== 'off' && (options.simulate ?? 'demo')
    ? await startSecuritySimulator({ url, devices: await securityDevices(db), periodMs: options.securityMs }).catch((e) => {
        console.warn(`security simulator: ${(e as Error).message}`);
        return undefined;
      })
    : undefined;
  const side: DeviceSide = {
    live,
    url,
    broker,
    simulator,
    security,
    async stop() {
      stopSweeper();
      await security?.stop();
      await simulator?.stop();
      // The ingest session first, its batch stored and acknowledged, so another replica takes over from there.
      await leadership.stop();
      await transport.close({ drain: true });
      // What arrived before the close is still written.
      await live.ingest.close();
      // A broker restarted by a test replaces the one started here.
      await side.broker?.close();
    },
  };
  return side;
}

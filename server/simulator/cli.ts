/**
 * Runs a fleet of simulated devices against a broker until interrupted.
 *   tsx server/simulator/cli.ts --url mqtt://127.0.0.1:1884 --devices 12 --telemetry-ms 30000
 */
import { Command, InvalidArgumentError } from 'commander';
import { generateDevices, startSimulator } from './simulator.js';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

const program = new Command()
  .name('simulate')
  .description('Simulated switches, breakers and gateways speaking MQTT (docs/mqtt.md)')
  .option('--url <url>', 'MQTT broker address', process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1884')
  .option('--devices <n>', 'number of top-level devices (gateways bring 2-3 children each)', positiveInt, 12)
  .option('--telemetry-ms <ms>', 'telemetry period per device', positiveInt, 30_000)
  .option('--prefix <prefix>', 'device number prefix', 'SIM')
  .option('--product-prefix <prefix>', 'product number prefix (product = prefix + device type)', 'P')
  .option('--protocol <version>', '4, 5 or auto', 'auto')
  .parse();

const opts = program.opts<{
  url: string;
  devices: number;
  telemetryMs: number;
  prefix: string;
  productPrefix: string;
  protocol: string;
}>();

const protocolVersion = opts.protocol === '4' ? 4 : opts.protocol === '5' ? 5 : 'auto';
const devices = generateDevices(opts.devices, { prefix: opts.prefix, productPrefix: opts.productPrefix });

const sim = await startSimulator({ url: opts.url, devices, telemetryMs: opts.telemetryMs, protocolVersion });
const total = devices.reduce((n, d) => n + 1 + (d.children?.length ?? 0), 0);
console.log(`simulating ${total} devices (${devices.length} connections) on ${opts.url}, MQTT ${sim.protocolVersion === 5 ? '5' : '3.1.1'}`);
for (const d of devices) {
  const children = d.children?.length ? ` children ${d.children.map((c) => (typeof c === 'string' ? c : c.deviceNumber)).join(',')}` : '';
  console.log(`  ${d.productNumber}/${d.deviceNumber} type ${d.type}${children}`);
}

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await sim.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

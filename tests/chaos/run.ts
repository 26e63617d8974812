/**
 * `npm run chaos [fault…]`: every fault of ./faults.ts (or those named) in turn on two replicas in network
 * namespaces, each checked as it ends, then the full disk of ./disk.ts (`disk-full`); the figures go to
 * tests/chaos/last-run.json, from which docs/reliability.md quotes. Needs root (network namespaces,
 * iptables, a tmpfs) and PostgreSQL on 127.0.0.1:5432 (CHAOS_DATABASE_URL names another database to
 * connect to first); Mosquitto is started by the run itself. CHAOS_VERBOSE=1 shows the replicas' output.
 */
import { writeFileSync } from 'node:fs';
import { cpus, hostname, totalmem } from 'node:os';
import { join } from 'node:path';
import { startCluster } from './cluster';
import { runDiskFull, type DiskResult } from './disk';
import { clockWrap, fault, FAULTS, runFault, type FaultResult } from './faults';
import { unavailable } from './network';

const why = unavailable();
if (why) {
  console.error(`npm run chaos: ${why}`);
  process.exit(1);
}
const names = process.argv.slice(2);
const chosen = (names.length ? names.filter((n) => n !== 'disk-full') : FAULTS.map((f) => f.name)).map(fault);
const disk = !names.length || names.includes('disk-full');
const verbose = process.env.CHAOS_VERBOSE === '1';
const started = new Date();
const results: FaultResult[] = [];
let diskResult: DiskResult | undefined;
// The network faults one after another on one installation; each clock fault on one of its own, whose
// first replica starts with its clock off.
const groups = [chosen.filter((f) => !f.clock), ...chosen.filter((f) => f.clock).map((f) => [f])].filter((g) => g.length);
for (const group of groups) {
  const offset = group[0].clock;
  const cluster = await startCluster({ env: { COMMAND_TIMEOUT_MS: '5000' }, wraps: offset ? [clockWrap(offset)] : [], log: (l) => verbose && console.log(l) });
  try {
    for (const f of group) results.push(await runFault(cluster, f, { timer: true }));
  } finally {
    await cluster.close();
  }
}
if (disk) {
  diskResult = await runDiskFull();
  console.log(`disk-full: ${diskResult.violations.length ? `VIOLATED: ${diskResult.violations.join('; ')}` : 'all held'}`);
}
const machine = `${hostname()}: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB`;
writeFileSync(join(import.meta.dirname, 'last-run.json'), JSON.stringify({ started: started.toISOString(), ended: new Date().toISOString(), machine, results, disk: diskResult }, null, 2) + '\n');
const failed = [...results.filter((r) => r.violations.length).map((r) => r.fault), ...(diskResult?.violations.length ? ['disk-full'] : [])];
const total = results.length + (diskResult ? 1 : 0);
console.log(`\n${total - failed.length} of ${total} faults held every invariant${failed.length ? `; violated: ${failed.join(', ')}` : ''}`);
process.exit(failed.length ? 1 : 0);

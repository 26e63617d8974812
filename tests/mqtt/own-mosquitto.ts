/**
 * A Mosquitto of the test's own (the machine's broker serves others), configured as deploy/mosquitto.conf
 * configures production (persistence on, its queue and inflight limits), on a port and in a folder of the
 * test's, so the test may stop and restart it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

export const MOSQUITTO = '/usr/sbin/mosquitto';

const DEPLOY_CONF = join(import.meta.dirname, '..', '..', 'deploy', 'mosquitto.conf');

/**
 * Starts it (persistent in `dir`, listening on 127.0.0.1:`port`) and resolves once it takes connections.
 * `settings` replace deploy/mosquitto.conf's of the same name, or are added (`{ max_queued_messages: 50 }`).
 */
export async function startMosquitto(dir: string, port: number, overrides: Record<string, string | number> = {}): Promise<ChildProcess> {
  const conf = join(dir, 'mosquitto.conf');
  const settings = readFileSync(DEPLOY_CONF, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(#|$|listener\b|persistence_location\b)/.test(line) && !(line.trim().split(/\s+/)[0] in overrides))
    .concat(Object.entries(overrides).map(([name, value]) => `${name} ${value}`));
  writeFileSync(conf, [`listener ${port} 127.0.0.1`, `persistence_location ${dir}/`, ...settings, ...(process.getuid?.() === 0 ? ['user root'] : [])].join('\n') + '\n');
  const child = spawn(MOSQUITTO, ['-c', conf], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (up) return child;
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`mosquitto did not start on port ${port}`);
}

/** Stops it with SIGTERM (it saves its persistence file on the way) and resolves once it is gone. */
export async function stopMosquitto(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  }
}

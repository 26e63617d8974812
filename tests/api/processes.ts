/**
 * Real server processes for the tests that stop one the hard way (SIGTERM, SIGKILL) and start it again
 * on the same database: `npm start`'s entry point in a child process, on a port of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export interface Running {
  child: ChildProcess;
  url: string;
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Starts server/main.ts with the environment; resolves once it listens and its MQTT side is up. */
export function startProcess(env: NodeJS.ProcessEnv): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 90_000);
    child.stderr!.on('data', (d) => (out += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /console and API: http:\/\/localhost:(\d+)/.exec(out);
      if (m && out.includes('MQTT broker:')) {
        clearTimeout(timer);
        resolve({ child, url: `http://127.0.0.1:${m[1]}` });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
  });
}

/** Resolves once the process has exited (at once when it already has). */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

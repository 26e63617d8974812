/**
 * Real server processes for the tests that need several of them, or one that dies: `server/main.ts`
 * started as `npm start` would, on a free port, with the environment the test gives it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  url: string;
  /** Everything the process wrote so far (stdout and stderr), for failure messages. */
  output(): string;
  /** Settles when the process has exited, whichever way. */
  exited: Promise<void>;
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

/**
 * Starts the server and answers once it listens and has reached its MQTT broker. `wrap` runs it through
 * another command first (`ip netns exec <namespace>`, `faketime <offset>`); `host` is the address it
 * answers on when that is not 127.0.0.1 (a network namespace's); `spawned` is told of the process at once,
 * so a caller interrupted while it starts can still stop it.
 */
export function startProcess(env: NodeJS.ProcessEnv, timeoutMs = 90_000, { wrap = [], host = '127.0.0.1', spawned }: { wrap?: string[]; host?: string; spawned?: (child: ChildProcess) => void } = {}): Promise<ServerProcess> {
  const command = [...wrap, process.execPath, '--import', 'tsx', 'server/main.ts'];
  const child = spawn(command[0], command.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  spawned?.(child);
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${out}`));
    }, timeoutMs);
    child.stderr!.on('data', (d) => (out += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /console and API: http:\/\/localhost:(\d+)/.exec(out);
      if (m && out.includes('MQTT broker:')) {
        clearTimeout(timer);
        resolve({ child, url: `http://${host}:${m[1]}`, output: () => out, exited });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}):\n${out}`));
    });
  });
}

/** Sends the signal (SIGKILL unless told) and waits for the process to be gone. */
export async function stopProcess(server: ServerProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  await server.exited;
}

/** Resolves once a child process (a server, a broker) has exited (at once when it already has). */
export function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
}

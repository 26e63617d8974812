/**
 * `npm run cluster`: the production topology on one machine with local processes — N API replicas on one
 * PostgreSQL and one MQTT 5 broker, behind the reverse proxy of deploy/proxy.ts, as deploy/compose.yaml
 * runs it with containers. `npm run cluster -- restart` (or SIGHUP) restarts the replicas one at a time:
 * drained at the proxy, SIGTERM, started again, back in rotation once healthy. Ctrl-C stops everything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { loadSecret } from '../server/auth/tokens';
import { startProxy, type Proxy } from './proxy';

const ROOT = join(import.meta.dirname, '..');

export interface ClusterOptions {
  replicas: number;
  /** The proxy's port; replica i listens on port + i (0: ports the caller names in replicaPorts). */
  port: number;
  replicaPorts?: number[];
  databaseUrl: string;
  mqttUrl: string;
  /** Shared by the replicas: the token secret when TOKEN_SECRET is not set, uploaded files. */
  dataDir: string;
  /** More environment for the replicas (MQTT_INGEST_CLIENT_ID, SIMULATOR, LOG_LEVEL…). */
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export interface Cluster {
  url: string;
  proxy: Proxy;
  /** One replica at a time: drain, SIGTERM, start, wait until healthy, back in rotation. */
  rollingRestart(): Promise<void>;
  stop(): Promise<void>;
}

interface Member {
  name: string;
  port: number;
  url: string;
  child?: ChildProcess;
  /** Stopped on purpose (a restart, the cluster stopping): its exit is not a crash. */
  stopping: boolean;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((done) => (child.exitCode !== null || child.signalCode !== null ? done() : child.once('exit', () => done())));

async function healthy(url: string, child: ChildProcess, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${url} exited while starting (${child.exitCode ?? child.signalCode})`);
    const ok = await fetch(url + '/healthz').then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer /healthz within ${ms / 1000} s`);
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? ((line: string) => console.log(line));
  // Every replica signs and checks tokens with the same secret, or a login on one is refused by another.
  const tokenSecret = options.env?.TOKEN_SECRET ?? process.env.TOKEN_SECRET ?? new TextDecoder().decode(loadSecret(options.dataDir));
  const members: Member[] = Array.from({ length: options.replicas }, (_, i) => {
    const port = options.replicaPorts?.[i] ?? options.port + 1 + i;
    return { name: `api-${i + 1}`, port, url: `http://127.0.0.1:${port}`, stopping: false };
  });
  let stopped = false;

  const launch = (member: Member) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SIMULATOR: 'off',
      ...options.env,
      PORT: String(member.port),
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      MQTT_URL: options.mqttUrl,
      DATA_DIR: options.dataDir,
      TOKEN_SECRET: tokenSecret,
      // Each replica's own MQTT client id defaults from its port; the ingest session's (MQTT_INGEST_CLIENT_ID)
      // is the installation's, one for all: whichever replica holds the ingest lock opens it.
      // The proxy names the client's address; nobody else can reach the replicas on 127.0.0.1.
      TRUST_PROXY: '127.0.0.1',
      // The proxy drains a replica before stopping it: nothing is left to refuse.
      SHUTDOWN_DRAIN_MS: '0',
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const prefix = (data: Buffer) => {
      for (const line of String(data).split('\n')) if (line.trim()) log(`[${member.name}] ${line}`);
    };
    child.stdout!.on('data', prefix);
    child.stderr!.on('data', prefix);
    member.child = child;
    member.stopping = false;
    child.once('exit', (code, signal) => {
      if (member.stopping || stopped) return;
      // A crash: the proxy stops sending to it at once (refused connections); it comes back by itself.
      log(`[${member.name}] exited (${code ?? signal}); starting it again`);
      setTimeout(() => {
        if (!stopped && member.child === child) void start(member).catch((e: Error) => log(`[${member.name}] ${e.message}`));
      }, 1000);
    });
    return child;
  };
  const start = async (member: Member) => healthy(member.url, launch(member), 120_000);
  const halt = async (member: Member) => {
    const child = member.child;
    if (!child) return;
    member.stopping = true;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited(child);
    clearTimeout(timer);
  };

  // The first replica alone runs the migrations, the demo seed and the console build; then the others.
  await start(members[0]);
  await Promise.all(members.slice(1).map(start));
  const proxy = await startProxy({ port: options.port, host: options.env?.HOST ?? process.env.HOST ?? '127.0.0.1', replicas: members.map((m) => m.url), healthIntervalMs: 1000 });

  let restarting: Promise<void> | undefined;
  return {
    url: proxy.url,
    proxy,
    rollingRestart() {
      restarting ??= (async () => {
        for (const member of members) {
          log(`[cluster] restarting ${member.name}: draining`);
          await proxy.drain(member.url);
          await halt(member);
          await start(member);
          proxy.restore(member.url);
          while (!(await proxy.check(member.url))) await new Promise((r) => setTimeout(r, 250));
          log(`[cluster] ${member.name} is back`);
        }
      })().finally(() => (restarting = undefined));
      return restarting;
    },
    async stop() {
      stopped = true;
      await restarting?.catch(() => undefined);
      await proxy.close();
      await Promise.all(members.map(halt));
    },
  };
}

/** Creates the database DATABASE_URL names when the server has none of that name yet. */
async function ensureDatabase(url: string) {
  const probe = new pg.Client({ connectionString: url });
  try {
    await probe.connect();
    return;
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error;
  } finally {
    await probe.end().catch(() => undefined);
  }
  const name = new URL(url).pathname.slice(1);
  const server = new URL(url);
  server.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: server.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  await admin.end();
  console.log(`created database ${name}`);
}

async function main() {
  const dataDir = resolve(process.env.DATA_DIR ?? './data');
  const pidFile = join(dataDir, 'cluster.pid');
  if (process.argv[2] === 'restart') {
    if (!existsSync(pidFile)) throw new Error(`no cluster is running from ${dataDir} (no ${pidFile})`);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    process.kill(pid, 'SIGHUP');
    console.log(`rolling restart asked of the cluster (pid ${pid}); it logs each replica as it comes back`);
    return;
  }
  const missing = ['DATABASE_URL', 'MQTT_URL'].filter((name) => !process.env[name]);
  if (missing.length) {
    console.error(
      `npm run cluster needs ${missing.join(' and ')}: the replicas share one PostgreSQL and one MQTT 5 broker.\n` +
        `  e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/iot_console MQTT_URL=mqtt://127.0.0.1:1883 npm run cluster`,
    );
    process.exit(1);
  }
  await ensureDatabase(process.env.DATABASE_URL!);
  const cluster = await startCluster({
    replicas: Number(process.env.REPLICAS ?? 2),
    port: Number(process.env.PORT ?? 8080),
    databaseUrl: process.env.DATABASE_URL!,
    mqttUrl: process.env.MQTT_URL!,
    dataDir,
  });
  writeFileSync(pidFile, String(process.pid));
  console.log(`\ncluster: ${cluster.url}  (${cluster.proxy.replicas.map((r) => r.url).join(', ')})`);
  console.log('rolling restart: npm run cluster -- restart (or kill -HUP ' + process.pid + '); stop: Ctrl-C');
  process.on('SIGHUP', () => void cluster.rollingRestart().catch((e: Error) => console.error(`rolling restart failed: ${e.message}`)));
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('stopping the cluster');
    await cluster.stop();
    rmSync(pidFile, { force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

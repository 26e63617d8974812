/**
 * The installation a fault run exercises: replicas of the real server (`server/main.ts`, started as the
 * other multi-process tests start it, tests/api/processes.ts), each in its own network namespace, on one
 * fresh PostgreSQL database (`chaos_<time>`) and a Mosquitto of the run's own configured as production
 * configures it (deploy/mosquitto.conf), both reached only over the replicas' links (./network.ts).
 *
 * Every write of the ingest (the devices' `up` messages) to the message log is recorded by a trigger in
 * the database (`chaos_ingest_write`: when, by which replica — each replica's connections carry its name as their
 * application_name), so which replica ingested when is read from the database, not from a log; so is
 * every command created (`chaos_command_write`), by the database's clock whatever the replica's says.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { startProcess, stopProcess, type ServerProcess } from '../api/processes';
import { startMosquitto, stopMosquitto } from '../mqtt/own-mosquitto';
import { buildNetwork, DB_PORT, type Link, type Network } from './network';
import { startDelayRelay, type DelayRelay } from './delay';

/** The run's ports (8800–8899): the broker on 127.0.0.1, its relay on each link, each replica's API. */
export const PORTS = { broker: 8850, relay: 8851, replica: 8810 };

export interface Replica {
  name: string;
  link: Link;
  relay: DelayRelay;
  server?: ServerProcess;
  /** Extra command before the server (faketime …) for its next start. */
  wrap: string[];
  url: string;
}

export interface Cluster {
  replicas: Replica[];
  network: Network;
  databaseUrl: string;
  brokerUrl: string;
  db: pg.Client;
  start(replica: Replica): Promise<void>;
  stop(replica: Replica, signal?: NodeJS.Signals): Promise<void>;
  /** Stops everything and removes the database, the broker's folder and the network. */
  close(): Promise<void>;
}

/** The PostgreSQL server the links lead to (its port must be 5432 on 127.0.0.1: ./network.ts forwards there). */
const ADMIN_URL = () => process.env.CHAOS_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(statement: string) {
  const c = new pg.Client({ connectionString: ADMIN_URL() });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

/** The trigger that records which replica wrote the message log, and when (the database's clock). */
const INGEST_RECORD = `
  create table chaos_ingest_write (f_id bigserial primary key, f_at timestamptz not null default clock_timestamp(), f_replica text not null, f_rows int not null);
  create function chaos_record_ingest() returns trigger language plpgsql as $$
    begin
      -- The devices' up channel only: every replica logs the statuses and acknowledgements it hears itself.
      insert into chaos_ingest_write (f_replica, f_rows)
        select current_setting('application_name'), count(*) from written where f_topic like '%/up' having count(*) > 0;
      return null;
    end $$;
  create trigger chaos_record_ingest after insert on t_emq_message_publish referencing new table as written for each statement execute function chaos_record_ingest();
  create table chaos_command_write (f_at timestamptz not null default clock_timestamp(), f_replica text not null, f_source text not null, f_device_id int not null);
  create function chaos_record_command() returns trigger language plpgsql as $$
    begin
      insert into chaos_command_write (f_replica, f_source, f_device_id) values (current_setting('application_name'), new.f_source, new.f_device_id);
      return null;
    end $$;
  create trigger chaos_record_command after insert on t_device_command for each row execute function chaos_record_command();
`;

/** `template`: a migrated and seeded database to copy (the test runs' own), so no replica has to migrate. */
/** `wraps[i]`: a command replica i+1 runs through (faketime …). */
export async function startCluster({ replicas: count = 2, env = {}, template, wraps = [], log = () => undefined }: { replicas?: number; env?: NodeJS.ProcessEnv; template?: string; wraps?: string[][]; log?: (line: string) => void } = {}): Promise<Cluster> {
  const name = `chaos_${Date.now()}`;
  const tag = `${process.pid}-${Date.now()}`;
  const dir = mkdtempSync(join(tmpdir(), 'chaos-'));
  const base = new URL(ADMIN_URL());
  const urlOn = (host: string, application: string) => {
    const url = new URL(base.toString());
    url.host = `${host}:${DB_PORT}`;
    url.pathname = `/${name}`;
    url.search = `?application_name=${application}`;
    return url.toString();
  };
  let broker: ChildProcess | undefined;
  let network: Network | undefined;
  const relays: DelayRelay[] = [];
  let db: pg.Client | undefined;
  const replicas: Replica[] = [];
  /** Every server process started, running or starting: a close stops them all. */
  const children = new Set<ChildProcess>();

  const start = async (replica: Replica) => {
    replica.server = await startProcess(
      {
        ...process.env, ...env,
        DATA_DIR: join(dir, replica.name), DATABASE_URL: urlOn(replica.link.hostAddress, replica.name),
        MQTT_URL: `mqtt://${replica.link.hostAddress}:${PORTS.relay}`, PORT: String(PORTS.replica), HOST: '0.0.0.0',
        // One installation: one ingest session and one token secret; each replica its own name and connection.
        MQTT_INGEST_CLIENT_ID: `chaos-ingest-${tag}`, MQTT_CLIENT_ID: `chaos-${replica.name}-${tag}`, REPLICA_ID: replica.name,
        TOKEN_SECRET: `chaos-secret-${tag}-chaos-secret`, SIMULATOR: 'off', SERVE_CONSOLE: '0', SKIP_CONSOLE_BUILD: '1', LOG_LEVEL: 'warn',
      },
      180_000,
      { wrap: [...replica.link.wrap, ...replica.wrap], host: replica.link.replicaAddress, spawned: (child) => children.add(child) },
    );
    replica.server.child.stdout!.on('data', (d) => String(d).split('\n').filter(Boolean).forEach((l) => log(`[${replica.name}] ${l}`)));
    replica.server.child.stderr!.on('data', (d) => String(d).split('\n').filter(Boolean).forEach((l) => log(`[${replica.name}] ${l}`)));
  };
  const stop = async (replica: Replica, signal: NodeJS.Signals = 'SIGKILL') => {
    if (replica.server) await stopProcess(replica.server, signal);
    replica.server = undefined;
  };
  // Interrupted (Ctrl-C, a time-out's SIGTERM) at any point, even while starting: nothing is left behind.
  const interrupted = (signal: NodeJS.Signals) => void close().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  const close = async () => {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await Promise.all(replicas.map((r) => stop(r).catch(() => undefined)));
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(relays.map((r) => r.close()));
    await db?.end().catch(() => undefined);
    if (broker) await stopMosquitto(broker);
    network?.teardown();
    await admin(`drop database if exists ${name} with (force)`).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await admin(`create database ${name}${template ? ` template ${template}` : ''}`);
    broker = await startMosquitto(join(dir), PORTS.broker);
    network = buildNetwork(count, () => PORTS.relay);
    for (const link of network.links) {
      const relay = await startDelayRelay({ host: link.hostAddress, port: PORTS.relay }, { host: '127.0.0.1', port: PORTS.broker });
      relays.push(relay);
      replicas.push({ name: `r${link.index}`, link, relay, wrap: wraps[link.index - 1] ?? [], url: `http://${link.replicaAddress}:${PORTS.replica}` });
    }
    // The first replica alone migrates and seeds (unless the template did); then the recording trigger; then the others.
    if (!template) await start(replicas[0]);
    db = new pg.Client({ connectionString: urlOn('127.0.0.1', 'chaos-harness') });
    await db.connect();
    if (template) await db.query(`select 1 from t_emq_message_publish limit 0`);
    await db.query(INGEST_RECORD);
    await Promise.all(replicas.filter((r) => !r.server).map(start));
  } catch (error) {
    await close();
    throw error;
  }
  return { replicas, network, databaseUrl: urlOn('127.0.0.1', 'chaos-harness'), brokerUrl: `mqtt://127.0.0.1:${PORTS.broker}`, db, start, stop, close };
}

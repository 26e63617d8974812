/**
 * A live server for the API tests: the real application on a free port, with a fresh embedded PGlite in
 * a temporary folder, or a fresh database on the PostgreSQL server that DATABASE_URL names.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { sql } from 'kysely';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';
import { migrate } from '../../server/db/migrate';
import { assertNoDrift } from '../../server/db/snapshot';
import { grant, syncMenus } from '../../server/db/menus';
import { seedDemo } from '../../server/db/seed';
import { createTokens } from '../../server/auth/tokens';
import { buildApp } from '../../server/app';
import { startDevices, type DeviceSide } from '../../server/devices/start';
import { inject } from 'vitest';
import { copyPglite } from './template';
import { freePort } from './processes';
import { startMosquitto, stopMosquitto } from '../mqtt/own-mosquitto';

/** Polls until the check answers something truthy, or fails after `ms`. */
export async function until<T>(check: () => Promise<T | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

export type Backend = 'pglite' | 'postgres';

/** Every backend the run can reach: always PGlite, PostgreSQL too when DATABASE_URL is set. */
export const backends: Backend[] = ['pglite', ...(process.env.DATABASE_URL ? (['postgres'] as const) : [])];

export type Broker = 'embedded' | 'external';

/**
 * The database and broker pairs a test of device calls runs on: the embedded defaults, and the
 * production pair (PostgreSQL with the broker at MQTT_URL) — or, where the run has only one of them, that
 * one beside the other's default. Every backend and every broker is met once; their cross product would
 * repeat what each pair already shows.
 */
export const deployments: { backend: Backend; broker: Broker }[] = [
  { backend: 'pglite', broker: 'embedded' },
  ...(process.env.DATABASE_URL || process.env.MQTT_URL
    ? [{ backend: process.env.DATABASE_URL ? ('postgres' as const) : ('pglite' as const), broker: process.env.MQTT_URL ? ('external' as const) : ('embedded' as const) }]
    : []),
];

export const ADMIN = { phone: '13800000000', password: 'Admin@123' };
export const AGENT = { phone: '13800000001', password: 'Agent@123' };
export const USER = { phone: '13800000002', password: 'User@123' };
export const OFFICER = { phone: '13800000003', password: 'Officer@123' };

export interface Envelope<T = any> {
  code: number;
  success: boolean;
  message: string;
  data: T;
}

export interface TestServer {
  url: string;
  /** POST a call; answers the HTTP status and the envelope. */
  call<T = any>(path: string, body?: unknown, token?: string): Promise<{ status: number; body: Envelope<T>; headers: Headers }>;
  login(account: { phone: string; password: string }): Promise<string>;
  /** A token for the user as login issues it, without the login's rate limit (the fuzz suite renews its own). */
  token(userId: number): Promise<string>;
  /** Runs SQL on the database directly (rows come back with camelCase keys); answers once the server's cached callers have heard of what it changed. */
  sql<T = any>(text: string): Promise<T[]>;
  /** Gives a role the menus of these permission codes; answers once the server's cached callers have heard of it. */
  grant(roleAlias: string, codes: string[]): Promise<void>;
  devices: DeviceSide;
  /** Every statement the server ran, by its text (server/db/queryStats.ts). */
  queries: Awaited<ReturnType<typeof openDatabase>>['queries'];
  /** The server's database, for tests that run start-up steps (the menu sync) again. */
  db: Awaited<ReturnType<typeof openDatabase>>['db'];
  /** The server's Fastify instance (the OpenAPI test walks its routes). */
  app: Awaited<ReturnType<typeof buildApp>>;
  /**
   * A second server on the same database, as another replica: on PostgreSQL with connections (and
   * notice listener) of its own; on PGlite, whose one process holds the database, a second application
   * sharing it. Closed with this server.
   */
  replica(): Promise<Pick<TestServer, 'url' | 'call'>>;
  close(): Promise<void>;
}

export async function freshPostgres(template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL!);
  const name = `iot_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface ServerOptions {
  /** Simulate the demo devices on the embedded broker (telemetry every telemetryMs). */
  simulate?: boolean;
  telemetryMs?: number;
  /**
   * 'external': a Mosquitto as in production (MQTT 5, deploy/mosquitto.conf) instead of the embedded broker;
   * the test's own, on a port of its own, since test files run side by side and every server simulates the
   * same demo devices (on one broker, one server's commands would reach another's simulated devices).
   * Offered when MQTT_URL says the machine has Mosquitto.
   */
  broker?: Broker;
  /** Settings of the server's environment (server/config.ts), as an installation sets them. */
  env?: Record<string, string>;
}

export async function startServer(backend: Backend, options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'iot-api-'));
  // The run's seeded database (tests/api/template.ts); the migrations and seed below then find nothing to do.
  const templates = inject('templates');
  if (backend === 'pglite' && templates) copyPglite(templates, dataDir);
  const pgdb = backend === 'postgres' ? await freshPostgres(templates?.postgres) : undefined;
  const brokerPort = options.broker === 'external' ? await freePort() : undefined;
  const broker = brokerPort ? await startMosquitto(dataDir, brokerPort) : undefined;
  const config = { ...loadConfig({ ...options.env, DATA_DIR: dataDir, DATABASE_URL: pgdb?.url ?? '', LOG_LEVEL: 'warn', SERVE_CONSOLE: '0' }), port: 0, host: '127.0.0.1', mqttPort: 0, mqttUrl: brokerPort ? `mqtt://127.0.0.1:${brokerPort}` : undefined };
  const database = await openDatabase(config);
  await migrate(database);
  // As at start: every test server's database matches the schemas.
  await assertNoDrift(database.db);
  await syncMenus(database.db);
  await seedDemo(database.db);
  const tokens = createTokens(new TextEncoder().encode('test-secret-test-secret-test-secret'), config.tokenTtl);
  // Each test server is its own installation: without MQTT_URL in its environment its client ids are its own.
  const devices = await startDevices(config, database.db, { simulate: options.simulate ? 'demo' : 'off', telemetryMs: options.telemetryMs ?? 1000 });
  const app = await buildApp({ config, database, tokens, live: devices.live });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const caller =
    (base: string): TestServer['call'] =>
    async (path, body = {}, token) => {
      const res = await fetch(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json(), headers: res.headers };
    };
  const call = caller(url);
  const replicas: (() => Promise<void>)[] = [];
  return {
    url,
    call,
    async login({ phone, password }) {
      const { body } = await call('/login', { userName: phone, password });
      if (!body.success) throw new Error(`login ${phone}: ${body.message}`);
      return body.data.token;
    },
    token: (userId) => tokens.issue(userId),
    async sql(text) {
      const rows = (await sql.raw(text).execute(database.db)).rows as never[];
      // As a write through the server does: the cached callers have heard of what it changed.
      await app.sessions.settled();
      return rows;
    },
    async grant(roleAlias, codes) {
      await grant(database.db, roleAlias, codes);
      await app.sessions.settled();
    },
    devices,
    queries: database.queries,
    db: database.db,
    app,
    async replica() {
      const own = backend === 'postgres' ? await openDatabase(config) : database;
      const other = await buildApp({ config, database: own, tokens, live: devices.live });
      await other.listen({ port: 0, host: '127.0.0.1' });
      replicas.push(async () => {
        await other.close();
        if (own !== database) await own.close();
      });
      return { url: `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`, call: caller(`http://127.0.0.1:${(other.server.address() as AddressInfo).port}`) };
    },
    async close() {
      for (const stop of replicas) await stop();
      await app.close();
      await devices.stop();
      if (broker) await stopMosquitto(broker);
      await database.close();
      await pgdb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

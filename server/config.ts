/** Configuration from the environment; every value has a default that runs on a bare machine. */
import { hostname } from 'node:os';
import { resolve } from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; without it the embedded PGlite in dataDir is used. */
  databaseUrl?: string;
  /** External MQTT broker; without it the embedded broker listens on mqttPort. */
  mqttUrl?: string;
  mqttPort: number;
  /**
   * The server's MQTT client id on an external broker. It must stay the same across restarts and differ
   * between replicas: the broker keeps its session, so nothing unacknowledged is lost when it stops.
   */
  mqttClientId?: string;
  /**
   * The client id of the installation's ingest session on an external broker: the same on every replica,
   * since the one replica that ingests at a time takes over the session the others held before it.
   */
  mqttIngestClientId?: string;
  /** Token lifetime in seconds (default one day). */
  tokenTtl: number;
  timeZone: string;
  /** Seed demo data and accounts into an empty database. */
  seed: boolean;
  /** Serve the built console from dist/app. */
  serveConsole: boolean;
  logLevel: string;
  /** Days of device messages the message log keeps (whole days are dropped); 0 keeps them all. */
  messageRetentionDays: number;
  /** Addresses of the reverse proxies whose X-Forwarded-For is believed; none by default. */
  trustProxy: string[] | false;
  /**
   * After SIGTERM, how long the server keeps answering "restarting" (503 envelope, /healthz too) before it
   * stops listening: the time a reverse proxy needs to notice and send calls elsewhere, counted from the
   * last call answered otherwise (a call under way at SIGTERM extends it; 30 s at most). 0 by default.
   */
  shutdownDrainMs: number;
  /**
   * Connections the ingest writes the message log on, side by side (PostgreSQL only; PGlite has one). Its
   * payload's trigram index makes each a busy database process: a database with cores to spare stores
   * more with more of them (docs/performance.md, Ingest).
   */
  ingestLogWriters: number;
  /** No single PostgreSQL statement may hold a connection longer (a runaway search, a huge batch); migrations excepted. */
  statementTimeoutMs: number;
  /**
   * INTAKE_LAG_ALARM_S: administrators are told when the oldest device message not yet stored has waited
   * longer than this (default 30 s) — the intake falling behind what devices send.
   */
  intakeLagAlarmMs: number;
  /**
   * DISK_RESERVE_MB (default 64): with the embedded database, free space on the data folder's disk below
   * which writes are refused ("the server's disk is full") and reads go on (server/db/diskSpace.ts).
   */
  diskReserveBytes: number;
  /** Most rows one device import may hold; a file of more is refused before anything is written. */
  deviceImportMaxRows: number;
  /**
   * Where the console's maps take their tiles (a Leaflet address with {z}/{x}/{y}, optionally {s}),
   * handed to the console at run time: an installation without internet names its own tile server.
   * Empty: the maps draw their grid and markers without tiles.
   */
  mapTileUrl: string;
}

/** The maps' tiles unless MAP_TILE_URL says otherwise. */
export const DEFAULT_MAP_TILE_URL = 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png';

function tileAddress(value: string | undefined): string {
  if (value === undefined) return DEFAULT_MAP_TILE_URL;
  const url = value.trim();
  if (url && !/^(https?:\/\/|\/)/.test(url)) throw new Error(`MAP_TILE_URL "${value}" is not an http(s) address or a path of this server`);
  if (url && !['{z}', '{x}', '{y}'].every((p) => url.includes(p))) throw new Error(`MAP_TILE_URL "${value}" does not name {z}, {x} and {y}`);
  return url;
}

/** A device import's rows unless DEVICE_IMPORT_MAX_ROWS says otherwise: about what the spec's 100M file holds. */
export const DEFAULT_DEVICE_IMPORT_MAX_ROWS = 1_000_000;

function duration(value: string | undefined, fallback: number): number {
  if (!value) return fallback;
  const m = /^(\d+)\s*([smhd]?)$/.exec(value.trim());
  if (!m) throw new Error(`TOKEN_TTL "${value}" is not a duration like 86400, 12h or 1d`);
  return Number(m[1]) * ({ '': 1, s: 1, m: 60, h: 3600, d: 86400 } as Record<string, number>)[m[2]];
}

/** Log writers: 1 to 6, so that the pool's ten connections keep room for the console's calls. */
function writers(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 2;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 1 || n > 6) throw new Error(`INGEST_LOG_WRITERS "${value}" is not a whole number from 1 to 6`);
  return n;
}

function rowCount(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value.trim());
  if (!Number.isInteger(n) || n < 1) throw new Error(`DEVICE_IMPORT_MAX_ROWS "${value}" is not a whole number of rows (1 or more)`);
  return n;
}

function days(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  if (!/^\d+$/.test(value.trim())) throw new Error(`MESSAGE_RETENTION_DAYS "${value}" is not a whole number of days (0 keeps every message)`);
  return Number(value.trim());
}

function megabytes(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  if (!/^\d+$/.test(value.trim())) throw new Error(`DISK_RESERVE_MB "${value}" is not a whole number of megabytes`);
  return Number(value.trim());
}

function seconds(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new Error(`INTAKE_LAG_ALARM_S "${value}" is not a whole number of seconds (1 or more)`);
  return Number(value.trim());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    mqttUrl: env.MQTT_URL || undefined,
    mqttPort: Number(env.MQTT_PORT ?? 1884),
    mqttClientId: env.MQTT_CLIENT_ID || (env.MQTT_URL ? `iot-console-${hostname()}-${env.PORT ?? 8080}` : undefined),
    mqttIngestClientId: env.MQTT_INGEST_CLIENT_ID || (env.MQTT_URL ? 'iot-console-ingest' : undefined),
    tokenTtl: duration(env.TOKEN_TTL, 86400),
    timeZone: env.TZ || 'Asia/Shanghai',
    seed: env.SEED !== '0' && env.SEED !== 'false',
    serveConsole: env.SERVE_CONSOLE !== '0',
    logLevel: env.LOG_LEVEL ?? 'warn',
    messageRetentionDays: days(env.MESSAGE_RETENTION_DAYS, 180),
    trustProxy: env.TRUST_PROXY ? env.TRUST_PROXY.split(',').map((s) => s.trim()).filter(Boolean) : false,
    shutdownDrainMs: Number(env.SHUTDOWN_DRAIN_MS ?? 0),
    ingestLogWriters: writers(env.INGEST_LOG_WRITERS),
    statementTimeoutMs: Number(env.STATEMENT_TIMEOUT_MS ?? 15000),
    intakeLagAlarmMs: seconds(env.INTAKE_LAG_ALARM_S, 30) * 1000,
    diskReserveBytes: megabytes(env.DISK_RESERVE_MB, 64) * 2 ** 20,
    deviceImportMaxRows: rowCount(env.DEVICE_IMPORT_MAX_ROWS, DEFAULT_DEVICE_IMPORT_MAX_ROWS),
    mapTileUrl: tileAddress(env.MAP_TILE_URL),
  };
}

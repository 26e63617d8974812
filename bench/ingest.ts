/**
 * Device telemetry ingest at rising offered rates: in one run, what the broker delivers to a subscriber
 * that only counts, against what the server stores (t_device_telemetry), at each rate. The server part
 * runs in this process exactly as `npm start` runs it (startDevices); the publishers and the counting
 * subscriber run in child processes of their own, so they do not share an event loop with it, and speak
 * MQTT through the lean clients of ./wire.ts, so they leave the machine's cores to the server (each
 * step prints the CPU they took).
 *
 * PGlite and the embedded broker by default; DATABASE_URL / MQTT_URL for PostgreSQL and an external
 * broker; BROKER=deploy starts a Mosquitto of the run's own with the settings of deploy/mosquitto.conf
 * (the production broker's queue limits) on a free port. RATES=2000,5000,10000,20000 SECONDS=10
 * DEVICES=1000 QOS=1.
 */
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import * as wire from './wire';
import { databaseName, recordResults, type Figure } from './results';

const RATES = (process.env.RATES ?? '2000,5000,10000,20000').split(',').map(Number);
const SECONDS = Number(process.env.SECONDS ?? 10);
const DEVICES = Number(process.env.DEVICES ?? 1000);
const QOS = Number(process.env.QOS ?? 1) as 0 | 1;
const PUBLISHERS = 4;
const number = (i: number) => `BI${String(i).padStart(6, '0')}`;

interface StepReport {
  sent: number;
  start: number;
  published: number;
  counted: number;
  lastCounted: number;
  publisherCpu: number;
  counterCpu: number;
}

/** Seconds of CPU this process has used since `from`. */
const cpuSeconds = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1e6;
};

/** A child process: the subscriber that only counts. Asked with the step's end, it answers once quiet. */
async function count(url: string, version: 4 | 5) {
  let counted = 0;
  let lastCounted = 0;
  let cpu = process.cpuUsage();
  await wire.counter(url, `bench-count-${process.pid}`, version, 'dev/+/+/up', QOS, () => {
    counted++;
    lastCounted = Date.now();
  });
  process.on('message', async (msg: { reset?: boolean; total?: number; published?: number }) => {
    if (msg.reset) {
      counted = 0;
      cpu = process.cpuUsage();
      return process.send!('reset');
    }
    while (counted < msg.total! && Date.now() - Math.max(lastCounted, msg.published!) < 1000) await new Promise((r) => setTimeout(r, 50));
    process.send!({ counted, lastCounted, counterCpu: cpuSeconds(cpu) });
  });
  process.send!('ready');
}

/** A child process: publishes the asked rate from a few device connections. */
async function publish(url: string, version: 4 | 5) {
  const publishers = await Promise.all(Array.from({ length: PUBLISHERS }, (_, k) => wire.publisher(url, `bench-pub-${process.pid}-${k}`, version)));
  process.on('message', async (msg: { rate: number; seconds: number; base: number }) => {
    const total = msg.rate * msg.seconds;
    const start = Date.now();
    const cpu = process.cpuUsage();
    let sent = 0;
    // A tick every 10 ms sends what the rate asks by then, each connection's share in one write.
    while (sent < total) {
      const due = Math.min(total, Math.floor(((Date.now() - start) / 1000) * msg.rate) + 1);
      const tick: { topic: string; payload: string }[][] = publishers.map(() => []);
      for (; sent < due; sent++) {
        const d = sent % DEVICES;
        const payload = JSON.stringify({ bid: 'telemetry', ClientID: number(d), ts: msg.base + sent, voltage: 220, current: 1.5, power: 330, energy: sent / 1000, temperature: 30, leakage: 1, switch: 1, lock: 0 });
        tick[sent % PUBLISHERS].push({ topic: `dev/PB/${number(d)}/up`, payload });
      }
      publishers.forEach((p, k) => tick[k].length && p.publish(tick[k], QOS));
      do await new Promise((r) => setTimeout(r, 10));
      while (!publishers.every((p) => p.room));
    }
    await Promise.all(publishers.map((p) => p.settled()));
    process.send!({ sent, start, published: Date.now(), publisherCpu: cpuSeconds(cpu) });
  });
  process.send!('ready');
}

/** Mosquitto with deploy/mosquitto.conf's settings, its listener and persistence moved to this run's own. */
async function deployBroker(dir: string): Promise<{ url: string; stop: () => void }> {
  const port = await new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = srv.address() as { port: number };
      srv.close(() => resolve(p));
    });
  });
  const settings = readFileSync(join(import.meta.dirname, '..', 'deploy', 'mosquitto.conf'), 'utf8')
    .split('\n')
    .filter((l) => !/^(listener|persistence_location)\b/.test(l));
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, [`listener ${port} 127.0.0.1`, `persistence_location ${dir}/`, ...(process.getuid?.() === 0 ? ['user root'] : []), ...settings].join('\n') + '\n');
  const child = spawn('/usr/sbin/mosquitto', ['-c', conf], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500));
  return { url: `mqtt://127.0.0.1:${port}`, stop: () => child.kill() };
}

async function main() {
  const { loadConfig } = await import('../server/config');
  const { openDatabase } = await import('../server/db');
  const { migrate } = await import('../server/db/migrate');
  const { startDevices } = await import('../server/devices/start');

  const dataDir = mkdtempSync(join(tmpdir(), 'iot-bench-ingest-'));
  let dbName: string | undefined;
  let databaseUrl: string | undefined;
  if (process.env.DATABASE_URL) {
    dbName = `iot_bench_ingest_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const broker = process.env.BROKER === 'deploy' ? await deployBroker(dataDir) : undefined;
  const config = { ...loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', MQTT_URL: broker?.url ?? process.env.MQTT_URL ?? '', LOG_LEVEL: 'error' }), mqttPort: 0, mqttClientId: undefined, mqttIngestClientId: undefined };
  const database = await openDatabase(config);
  await migrate(database);
  const { db } = database;
  const product = await db.insertInto('t_product').values({ fNumber: 'PB', fName: '压测产品', fDeviceType: 1 }).returning('fId').executeTakeFirstOrThrow();
  for (let i = 0; i < DEVICES; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, DEVICES - i) }, (_, k) => ({ fNumber: number(i + k), fName: `压测设备${i + k}`, fProductId: product.fId, fTypeId: 1, fStatus: 1, tOnline: 1 }));
    await db.insertInto('t_device').values(rows).execute();
  }
  const side = await startDevices(config, db, { simulate: 'off' });
  const waiting = () => (side.live as unknown as { ingest?: { waiting: number } }).ingest?.waiting ?? 0;

  // Each child answers every request with one message.
  const child = async (role: string) => {
    // An external broker is spoken to in MQTT 5 (as the server does), the embedded one in 3.1.1.
    const c = fork(import.meta.filename, [role, side.url, config.mqttUrl ? '5' : '4'], { execArgv: ['--import', 'tsx'] });
    let answer: ((m: unknown) => void) | undefined;
    const ready = new Promise((r) => (answer = r));
    c.on('message', (m) => answer?.(m));
    await ready;
    return {
      ask: <T>(m: object) => new Promise<T>((r) => { answer = r as (m: unknown) => void; c.send(m); }),
      kill: () => c.kill(),
    };
  };
  const counter = await child('--count');
  const publisher = await child('--publish');

  // Progress is read from the newest row's id (the primary key's last entry) while a step runs, and the
  // step's rows are counted once it is over: counting the growing table four times a second would take
  // a good part of a core from the server being measured.
  const newest = async () => Number((await sql<{ n: string | null }>`select max(f_id) as n from t_device_telemetry`.execute(db)).rows[0].n ?? 0);
  const countSince = async (id: number) => Number((await sql<{ n: number }>`select count(*)::int as n from t_device_telemetry where f_id > ${id}`.execute(db)).rows[0].n);
  const brokerName = broker ? 'Mosquitto (deploy/mosquitto.conf)' : config.mqttUrl ? `broker ${config.mqttUrl}` : 'embedded broker';
  console.log(`ingest: ${databaseName(database.kind)}, ${brokerName}, ${DEVICES} devices, QoS ${QOS}, ${SECONDS} s per rate`);
  const figures: Figure[] = [];
  console.log('offered/s  counter/s  stored/s  ratio  counter lost  stored lost  drain s  peak waiting  peak RSS MB  publishers CPU s  counter CPU s');
  let base = Date.now() - 30 * 86_400_000;
  /** The highest offered rate up to which every step stored ≥ 0.8 of what the counter received, losing nothing. */
  let heldUpTo = 0;
  let holding = true;
  for (const rate of RATES) {
    const before = await newest();
    const total = rate * SECONDS;
    await counter.ask({ reset: true });
    const step = publisher
      .ask<{ sent: number; start: number; published: number; publisherCpu: number }>({ rate, seconds: SECONDS, base })
      .then(async (p) => ({ ...p, ...(await counter.ask<{ counted: number; lastCounted: number; counterCpu: number }>({ total, published: p.published })) }));
    base += total + 1000;
    let last = before;
    let lastAt = Date.now();
    let peakWaiting = 0;
    let peakRss = 0;
    let report: StepReport | undefined;
    void step.then((r) => (report = r));
    // Stored is done when all arrived, or nothing more came for three seconds after publishing ended.
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      peakWaiting = Math.max(peakWaiting, waiting());
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
      const n = await newest();
      if (n !== last) {
        last = n;
        lastAt = Date.now();
      }
      if (report && (n - before >= total || Date.now() - Math.max(lastAt, report.published) > 3000)) break;
    }
    const r = report!;
    const storedCount = await countSince(before);
    const counterRate = r.counted / ((Math.max(r.lastCounted, r.start + 1) - r.start) / 1000);
    const storedRate = storedCount / ((lastAt - r.start) / 1000);
    console.log(
      [
        String(rate).padStart(9),
        counterRate.toFixed(0).padStart(10),
        storedRate.toFixed(0).padStart(9),
        (storedRate / counterRate).toFixed(2).padStart(6),
        String(total - r.counted).padStart(13),
        String(total - storedCount).padStart(12),
        ((lastAt - r.published) / 1000).toFixed(1).padStart(8),
        String(peakWaiting).padStart(13),
        (peakRss / 1e6).toFixed(0).padStart(12),
        r.publisherCpu.toFixed(1).padStart(17),
        r.counterCpu.toFixed(1).padStart(14),
      ].join(' '),
    );
    figures.push({
      target: 'ingest',
      what: `${rate.toLocaleString('en')} msg/s offered, ${brokerName}: stored / delivered to a counter (${storedRate.toFixed(0)} / ${counterRate.toFixed(0)} a second), lost`,
      measured: `${(storedRate / counterRate).toFixed(2)}, ${total - storedCount} lost`,
      aim: '≥ 0.80, 0 lost',
      met: storedRate / counterRate >= 0.8 && storedCount === total,
    });
    holding &&= storedRate / counterRate >= 0.8 && storedCount === total;
    if (holding) heldUpTo = rate;
  }
  recordResults(`ingest, ${brokerName}`, databaseName(database.kind), figures);
  console.log(heldUpTo ? `every step up to ${heldUpTo} offered/s stored ≥ 0.8 of what the broker delivered and lost nothing` : 'the first step already stored < 0.8 of what the broker delivered, or lost messages');
  counter.kill();
  publisher.kill();
  await side.stop();
  broker?.stop();
  await database.close();
  if (dbName) {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}

const version = Number(process.argv[4]) as 4 | 5;
if (process.argv[2] === '--count') await count(process.argv[3], version);
else if (process.argv[2] === '--publish') await publish(process.argv[3], version);
else await main();

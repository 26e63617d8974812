/**
 * Device import and export at the spec's sizes (spec 000 §5: an import file up to 100M). Generates a
 * workbook of ROWS devices (1,000,000: about 38 MB, every number, name and IMEI its own) with the
 * spreadsheet library's streaming writer, starts the server as its own process (as `npm start` starts
 * it), imports the file as the agent through `/biz/t-device/import`, then, on the server started again
 * (so that its memory is the export's own), exports the agent's devices (EXPORT_CAP of them, 100,000)
 * through `/biz/t-device/download-data`. Every SAMPLE_MS (100 ms) during each it reads the server
 * process's resident memory (VmRSS in /proc/<pid>/status) and asks `/healthz`, one at a time: a probe
 * still waiting at the next tick is counted at its full wait when it answers. Prints the idle memory,
 * the peak above it, the longest and the p99 /healthz answer, the durations and the import's phases as
 * the event stream told them.
 *
 * PGlite by default and PostgreSQL too when DATABASE_URL is set (a scratch database of its own, dropped
 * at the end); DATABASES=postgres (or pglite) runs one. ROWS=… and SAMPLE_MS=… change the sizes.
 */
import { mkdtempSync, openAsBlob, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { freePort, startProcess, stopProcess, type ServerProcess } from '../tests/api/processes';
import { streamEvents } from '../tests/api/eventStream';
import { EXPORT_CAP } from '../server/devices/deviceTransfer';
import type { DeviceImportProgress } from '../contract/deviceImport';
import { recordResults, type Figure } from './results';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const SAMPLE_MS = Number(process.env.SAMPLE_MS ?? 100);
const LIST_MS = Number(process.env.LIST_MS ?? 1000);
const AGENT = { userName: '13800000001', password: 'Agent@123' };
const HEADERS = ['产品编号', '设备编号', '设备名称', 'IMEI', 'ICCID', '备注'];
/** The demo seed's products, in turn. */
const PRODUCTS = ['P-SW-485', 'P-GW-WIFI', 'P-4G-SW'];
const databases = (process.env.DATABASES ?? `pglite${process.env.DATABASE_URL ? ',postgres' : ''}`).split(',').map((d) => d.trim());

/** The file every run imports: written once, as a stream, with shared strings as spreadsheet programs write them. */
async function generate(path: string) {
  const started = performance.now();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true });
  const sheet = book.addWorksheet('设备');
  sheet.addRow(HEADERS).commit();
  for (let i = 0; i < ROWS; i++) {
    sheet.addRow([PRODUCTS[i % PRODUCTS.length], `IM${String(i).padStart(8, '0')}`, `导入设备${i}`, `86${String(i).padStart(13, '0')}`, '', i % 10 === 0 ? '批量导入' : '']).commit();
  }
  sheet.commit();
  await book.commit();
  console.log(`file: ${ROWS.toLocaleString('en')} rows, ${(statSync(path).size / 1024 / 1024).toFixed(1)} MB, written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
};

interface Watch {
  peakRss: number;
  /** Every memory sample: when, and the resident size in MB. */
  samples: [number, number][];
  latencies: number[];
  /** Each /healthz probe: when it was sent, and how long it took. */
  probes: [number, number][];
  /** The device list's (page 1, as the importing user) answers, when `listAs` was given. */
  lists: number[];
  /** Each device list: when it was sent, and how long it took. */
  listed: [number, number][];
  /** Stops the device lists alone (the list of a user who has just been given a million devices counts them). */
  stopLists(): void;
  stop(): Promise<void>;
}

/** The highest memory sampled between two moments (NaN when none was). */
const peakBetween = (w: Watch, from: number, to: number) => {
  const within = w.samples.filter(([t]) => t >= from && t < to).map(([, rss]) => rss);
  return within.length ? Math.max(...within) : NaN;
};

/**
 * Samples the server's memory and asks /healthz every SAMPLE_MS until stopped; with a token, asks the
 * device list's first page as that user every LIST_MS too (one at a time, counted like /healthz).
 */
function watch(server: ServerProcess, listAs?: string): Watch {
  const pid = server.child.pid!;
  const w: Watch = { peakRss: 0, samples: [], latencies: [], probes: [], lists: [], listed: [], stopLists: () => undefined, stop: async () => undefined };
  let probe: Promise<void> | null = null;
  let listing: Promise<void> | null = null;
  const lister = listAs
    ? setInterval(() => {
        if (listing) return;
        const start = performance.now();
        listing = fetch(`${server.url}/biz/t-device/devices`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: listAs }, body: '{"current":1,"size":10}' })
          .then(async (res) => {
            const body = await res.json();
            if (!body.success) console.log(`  device list answered ${String(body.message).slice(0, 200)}`);
          })
          .catch((e: Error) => console.log(`  device list failed: ${e.message}`))
          .finally(() => {
            w.lists.push(performance.now() - start);
            w.listed.push([start, performance.now() - start]);
            listing = null;
          });
      }, LIST_MS)
    : undefined;
  const timer = setInterval(() => {
    const rss = rssMb(pid);
    w.samples.push([performance.now(), rss]);
    w.peakRss = Math.max(w.peakRss, rss);
    if (probe) return;
    const start = performance.now();
    probe = fetch(`${server.url}/healthz`)
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 200) console.log(`  /healthz answered ${res.status}`);
      })
      .catch((e: Error) => console.log(`  /healthz failed: ${e.message}`))
      .finally(() => {
        w.latencies.push(performance.now() - start);
        w.probes.push([start, performance.now() - start]);
        probe = null;
      });
  }, SAMPLE_MS);
  w.stopLists = () => clearInterval(lister);
  w.stop = async () => {
    clearInterval(timer);
    clearInterval(lister);
    await Promise.all([probe, listing]);
  };
  return w;
}

/**
 * fetch's own connection pool with no time limit on the answer: fetch gives up on an answer that has not
 * begun within 300 s, as a million-row import on a busy machine may take. (Node bundles the client
 * without exporting it: its class is that of the pool fetch has made by now.)
 */
const patient = () => {
  const pool = (globalThis as Record<symbol, unknown>)[Symbol.for('undici.globalDispatcher.1')] as { constructor: new (options: object) => unknown } | undefined;
  return pool ? new pool.constructor({ headersTimeout: 0, bodyTimeout: 0 }) : undefined;
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function report(label: string, ms: number, idle: number, w: Watch) {
  const line = `  ${label.padEnd(8)} ${seconds(ms).padStart(7)}   peak RSS ${w.peakRss.toFixed(0)} MB (+${(w.peakRss - idle).toFixed(0)} MB over idle)   /healthz max ${Math.max(...w.latencies).toFixed(0)} ms, p99 ${percentile(w.latencies, 99).toFixed(0)} ms, median ${percentile(w.latencies, 50).toFixed(0)} ms (${w.latencies.length} probes)`;
  console.log(line);
  if (w.lists.length) console.log(`           device list max ${Math.max(...w.lists).toFixed(0)} ms, p99 ${percentile(w.lists, 99).toFixed(0)} ms, median ${percentile(w.lists, 50).toFixed(0)} ms (${w.lists.length} lists)`);
}

/** The server on the run's database, as `npm start` starts it; its idle memory once it has answered a first list. */
async function start(dataDir: string, databaseUrl: string) {
  const server = await startProcess({
    ...process.env,
    PORT: String(await freePort()), MQTT_PORT: String(await freePort()), DATA_DIR: dataDir, DATABASE_URL: databaseUrl, MQTT_URL: '',
    SIMULATOR: 'off', SERVE_CONSOLE: '0', LOG_LEVEL: 'error', DEVICE_IMPORT_MAX_ROWS: String(Math.max(ROWS, 1_000_000)),
    // A busy machine takes minutes to migrate and seed a fresh database.
  }, 600_000);
  const login = await (await fetch(`${server.url}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(AGENT) })).json();
  const token = login.data.token as string;
  await fetch(`${server.url}/biz/t-device/devices`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: '{"current":1,"size":10}' });
  // The spreadsheet library is loaded by a process's first spreadsheet call (server/platform/sheetImport.ts),
  // which holds the event loop once for a few hundred milliseconds: taken here, by the template, so that
  // the figures are the import's and the export's own (the first call's pause is printed).
  const before = performance.now();
  await (await fetch(`${server.url}/biz/t-device/download-device`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: '{}' })).arrayBuffer();
  console.log(`  first spreadsheet call (the template, loading the library): ${(performance.now() - before).toFixed(0)} ms`);
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) {
    samples.push(rssMb(server.child.pid!));
    await new Promise((r) => setTimeout(r, 100));
  }
  return { server, token, idle: percentile(samples, 50) };
}

async function run(kind: 'PGlite' | 'PostgreSQL', databaseUrl: string, file: string): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'iot-import-bench-'));
  let current: ServerProcess | undefined;
  try {
    // The import, on a server that has just started.
    let { server, token, idle } = await start(dataDir, databaseUrl);
    current = server;
    console.log(`${kind}: server idle RSS ${idle.toFixed(0)} MB`);
    const live = await streamEvents<DeviceImportProgress>(server.url, token, 'deviceImport');
    const form = new FormData();
    form.append('progress', 'bench-import-1');
    form.append('file', await openAsBlob(file), 'devices.xlsx');
    const imported = watch(server, token);
    let started = performance.now();
    const answer = await (await fetch(`${server.url}/biz/t-device/import`, { method: 'POST', headers: { authorization: token }, body: form, dispatcher: patient() } as RequestInit)).json();
    const answered = performance.now();
    imported.stopLists();
    const importMs = answered - started;
    // A few seconds more: what the server does once it has answered (the statistics it takes afresh).
    await new Promise((r) => setTimeout(r, 3000));
    await imported.stop();
    await new Promise((r) => setTimeout(r, 500));
    await live.stop();
    if (!answer.success) throw new Error(`import refused: ${String(answer.message).slice(0, 500)}`);
    report('import', importMs, idle, imported);
    const first = (phase: string) => live.events.find((e) => e.phase === phase)?.at;
    const [read, write, done] = [first('read'), first('write'), first('done')];
    if (read && write && done) {
      const over = (from: number, to: number) => {
        const peak = peakBetween(imported, from, to);
        return Number.isNaN(peak) ? 'no sample' : `+${(peak - idle).toFixed(0)} MB`;
      };
      console.log(`           upload and wait ${seconds(read - started)} (${over(started, read)}), read and check ${seconds(write - read)} (${over(read, write)}), write and commit ${seconds(done - write)} (${over(write, done)}), answer ${seconds(answered - done)} (${over(done, answered)}), 3 s after it (${over(answered, Infinity)}); ${live.events.length} progress events`);
    }
    if (write && done) {
      // The probes sent while the rows were being written and committed.
      const during = (timed: [number, number][]) => timed.filter(([at]) => at >= write && at < done).map(([, ms]) => ms);
      const [health, lists] = [during(imported.probes), during(imported.listed)];
      const figures = (ms: number[]) => (ms.length ? `max ${Math.max(...ms).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms, median ${percentile(ms, 50).toFixed(0)} ms (${ms.length})` : 'none');
      console.log(`           during write and commit: /healthz ${figures(health)}; device list ${figures(lists)}`);
      if (read) {
        // Where the longest waits fell: the longest /healthz probe sent in each phase.
        const longest = (from: number, to: number) => {
          const ms = imported.probes.filter(([at]) => at >= from && at < to).map(([, wait]) => wait);
          return ms.length ? `${Math.max(...ms).toFixed(0)} ms` : 'none';
        };
        console.log(`           /healthz max by phase: upload and wait ${longest(started, read)}, read and check ${longest(read, write)}, write and commit ${longest(write, done)}, answer ${longest(done, answered)}, after it ${longest(answered, Infinity)}`);
      }
    }
    console.log(`           ${answer.message}`);
    const importIdle = idle;
    await stopProcess(server, 'SIGTERM');

    // The export, on a server started again: its memory is its own, not what the import left.
    ({ server, token, idle } = await start(dataDir, databaseUrl));
    current = server;
    console.log(`${kind}: server idle RSS ${idle.toFixed(0)} MB (started again)`);
    const exported = watch(server);
    started = performance.now();
    const res = await fetch(`${server.url}/biz/t-device/download-data`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: '{}' });
    let bytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    const exportMs = performance.now() - started;
    await exported.stop();
    report('export', exportMs, idle, exported);
    console.log(`           ${Math.min(ROWS, EXPORT_CAP).toLocaleString('en')} devices, ${(bytes / 1024 / 1024).toFixed(1)} MB`);

    const figure = (what: string, measured: string, aim: string, met: boolean): Figure => ({ target: 'device import and export', what, measured, aim, met });
    const rows = ROWS.toLocaleString('en');
    const max = (w: Watch) => Math.max(...w.latencies);
    return [
      figure(`import of ${rows} rows: peak RSS above idle, time`, `${(imported.peakRss - importIdle).toFixed(0)} MB, ${seconds(importMs)}`, '≤ 500 MB', imported.peakRss - importIdle <= 500),
      figure('/healthz during the import: max, p99', `${max(imported).toFixed(0)} / ${percentile(imported.latencies, 99).toFixed(0)} ms`, '≤ 200 ms', max(imported) <= 200),
      figure(`export of ${Math.min(ROWS, EXPORT_CAP).toLocaleString('en')} devices: peak RSS above idle, time`, `${(exported.peakRss - idle).toFixed(0)} MB, ${seconds(exportMs)}`, '≤ 500 MB', exported.peakRss - idle <= 500),
      figure('/healthz during the export: max, p99', `${max(exported).toFixed(0)} / ${percentile(exported.latencies, 99).toFixed(0)} ms`, '≤ 200 ms', max(exported) <= 200),
    ];
  } finally {
    if (current) await stopProcess(current, 'SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`device import and export: ${cpus().length} cores, ${(totalmem() / 1024 ** 3).toFixed(0)} GB, load average at start ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
const scratch = mkdtempSync(join(tmpdir(), 'iot-import-file-'));
const file = join(scratch, 'devices.xlsx');
try {
  await generate(file);
  if (databases.includes('pglite')) recordResults('import', 'PGlite', await run('PGlite', '', file));
  if (databases.includes('postgres')) {
    if (!process.env.DATABASE_URL) throw new Error('DATABASES=postgres needs DATABASE_URL');
    const name = `import_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    try {
      recordResults('import', 'PostgreSQL', await run('PostgreSQL', url.toString(), file));
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`load average at end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
process.exit(0);

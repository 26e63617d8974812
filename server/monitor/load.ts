/**
 * The load of the host and of this process, as the dashboard's gauges and the system monitor show it:
 * CPU in percent over the last sampling window, memory in G.
 */
import os from 'node:os';
import { S, type JsonSchema } from '../http/catalog';

/** The dashboard's memory gauge reads up to 8 G. */
export const MEMORY_GAUGE_MAX = 8;
const GB = 1024 ** 3;
const CPU_SAMPLE_MS = 250;

/** systemLoad's answer. */
export const SYSTEM_LOAD = S.object({
  ...(S.counts(['cpu', 'cpuCount', 'processCpu', 'ram', 'ramTotal', 'ramFree', 'ramMax', 'processRam', 'processHeap', 'uptime']).properties as Record<string, JsonSchema>),
  loadavg: S.array({ type: 'number' }),
});

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

function cpuTimes() {
  let idle = 0;
  let total = 0;
  for (const c of os.cpus()) {
    const t = c.times;
    idle += t.idle;
    total += t.user + t.nice + t.sys + t.idle + t.irq;
  }
  return { idle, total };
}

/** The CPU use of the host and of this process over the sampler's last window, in percent. */
let cpu: { host: number; process: number } | null = null;

/** Busy share of the host between two readings of its CPU times, and of this process over `elapsedUs`. */
function cpuShare(h0: { idle: number; total: number }, h1: { idle: number; total: number }, ownUs: number, elapsedUs: number) {
  const cpuCount = os.cpus().length || 1;
  const busy = h1.total - h0.total;
  const host = busy > 0 ? (1 - (h1.idle - h0.idle) / busy) * 100 : (os.loadavg()[0] / cpuCount) * 100;
  const own = elapsedUs > 0 ? ownUs / (elapsedUs * cpuCount) : 0;
  return { host: Math.min(100, Math.max(0, host)), process: Math.min(100, Math.max(0, own * 100)) };
}

/**
 * CPU use is the difference between two readings. Measured inside each call, every dashboard and
 * monitor call waited out a window. The first call answers the averages since the host booted and this
 * process started, which need no wait, and starts a sampler that takes a reading every CPU_SAMPLE_MS for
 * the calls after it (its timer does not keep the process alive).
 */
function cpuUse() {
  if (cpu) return;
  let h0 = cpuTimes();
  let p0 = process.cpuUsage();
  let t0 = process.hrtime.bigint();
  cpu = cpuShare({ idle: 0, total: 0 }, h0, p0.user + p0.system, process.uptime() * 1e6);
  const timer = setInterval(() => {
    const h1 = cpuTimes();
    const p1 = process.cpuUsage();
    const t1 = process.hrtime.bigint();
    cpu = cpuShare(h0, h1, p1.user - p0.user + p1.system - p0.system, Number(t1 - t0) / 1000);
    [h0, p0, t0] = [h1, p1, t1];
  }, CPU_SAMPLE_MS);
  timer.unref();
}

/**
 * The load of the host and of this process: CPU in percent over the last sampling window, memory in G
 * (the dashboard's gauge reads up to 8 G; `ramMax` grows with a larger host so the needle stays on it).
 */
export async function systemLoad() {
  cpuUse();
  const cpuCount = os.cpus().length || 1;
  const total = os.totalmem();
  const free = os.freemem();
  const mem = process.memoryUsage();
  return {
    cpu: round(cpu!.host, 1),
    cpuCount,
    loadavg: os.loadavg().map((v) => round(v, 2)),
    processCpu: round(cpu!.process, 1),
    ram: round((total - free) / GB, 2),
    ramTotal: round(total / GB, 2),
    ramFree: round(free / GB, 2),
    ramMax: Math.max(MEMORY_GAUGE_MAX, Math.ceil(total / GB)),
    processRam: round(mem.rss / GB, 3),
    processHeap: round(mem.heapUsed / GB, 3),
    uptime: Math.round(process.uptime()),
  };
}

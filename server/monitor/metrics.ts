/**
 * What the system monitor reads about this process: every HTTP answer (time and status) of the last
 * minute, the event-loop delay since the previous reading, and the MQTT messages of the last minute.
 * Kept in memory per server; a replica reports its own figures.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';

/** How far back rates and latencies look. */
export const WINDOW_MS = 60_000;
/** Answers kept for the window; beyond this the oldest go first (a burst still gives a fair sample). */
const MAX_SAMPLES = 50_000;

interface Sample {
  at: number;
  ms: number;
  status: number;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;

/** A time-ordered list of events of the last minute. */
class Window<T extends { at: number }> {
  items: T[] = [];
  push(item: T) {
    this.items.push(item);
    if (this.items.length > MAX_SAMPLES) this.items.splice(0, this.items.length - MAX_SAMPLES);
  }
  recent(now = Date.now()): T[] {
    const from = now - WINDOW_MS;
    let i = 0;
    while (i < this.items.length && this.items[i].at < from) i++;
    if (i) this.items.splice(0, i);
    return this.items;
  }
}

/** Counts of each of the last 60 seconds, oldest first (the monitor's sparklines). */
function perSecond(items: { at: number }[], now: number): number[] {
  const counts = new Array<number>(60).fill(0);
  for (const s of items) {
    const ago = Math.floor((now - s.at) / 1000);
    if (ago >= 0 && ago < 60) counts[59 - ago]++;
  }
  return counts;
}

export class ServerMetrics {
  readonly #http = new Window<Sample>();
  readonly #mqtt = new Window<{ at: number; direction: 'up' | 'down' }>();
  readonly #loop: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  readonly #started = Date.now();
  #requests = 0;

  constructor() {
    this.#loop.enable();
  }

  /** Times every answer of the app (the timing starts when the request arrives). */
  attach(app: FastifyInstance) {
    app.addHook('onResponse', (request, reply, done) => {
      this.#requests++;
      // The event stream stays open for as long as a console is; its "answer time" is not a latency.
      if (!request.url.startsWith('/api/events?')) this.#http.push({ at: Date.now(), ms: reply.elapsedTime, status: reply.statusCode });
      done();
    });
    app.addHook('onClose', async () => this.#loop.disable());
  }

  countMessage(direction: 'up' | 'down') {
    this.#mqtt.push({ at: Date.now(), direction });
  }

  http() {
    const now = Date.now();
    const items = this.#http.recent(now);
    const times = items.map((s) => s.ms).sort((a, b) => a - b);
    const last10 = items.filter((s) => s.at >= now - 10_000).length;
    const errors = items.filter((s) => s.status >= 500).length;
    const refused = items.filter((s) => s.status === 401 || s.status === 700).length;
    return {
      total: this.#requests,
      lastMinute: items.length,
      perSecond: round(last10 / 10, 2),
      errorsLastMinute: errors,
      refusedLastMinute: refused,
      latencyMs: { p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), p99: round(percentile(times, 99)), max: round(times[times.length - 1] ?? 0) },
      series: perSecond(items, now),
    };
  }

  /** The event loop's delay since the previous reading, in milliseconds. */
  eventLoop() {
    const h = this.#loop;
    const ms = (ns: number) => round(ns / 1e6, 2);
    const figures = { meanMs: ms(h.count ? h.mean : 0), p99Ms: ms(h.count ? h.percentile(99) : 0), maxMs: ms(h.count ? h.max : 0) };
    h.reset();
    return figures;
  }

  mqtt() {
    const now = Date.now();
    const items = this.#mqtt.recent(now);
    const up = items.filter((m) => m.direction === 'up');
    return {
      upLastMinute: up.length,
      downLastMinute: items.length - up.length,
      upPerSecond: round(up.filter((m) => m.at >= now - 10_000).length / 10, 2),
      downPerSecond: round(items.filter((m) => m.direction === 'down' && m.at >= now - 10_000).length / 10, 2),
      series: perSecond(up, now),
    };
  }

  get uptimeSeconds() {
    return Math.round((Date.now() - this.#started) / 1000);
  }
}

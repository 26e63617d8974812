/**
 * Lighthouse's performance score of the device list, logged in. The console keeps its token in
 * localStorage, so the run logs in through the real login form in the same Chromium (Playwright over the
 * DevTools protocol) and Lighthouse then audits /device in that profile with storage kept
 * (`disableStorageReset`). Desktop preset (the console is a desktop tool): simulated throttling, 1350×940.
 * Prints the score and the main metrics. `npm run bench`; LIGHTHOUSE_RUNS (default 3) runs, median shown.
 *
 * `tsx bench/lighthouse.ts <checkout>…` compares: each other checkout of the repository (its dist/app
 * built) is served too, and the runs alternate between them, so that a machine whose load changes from
 * minute to minute weighs on each build alike. The load average is printed with every run.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { ADMIN, CHROMIUM_FLAGS, ROOT, startConsole } from './consoleServer';
import { recordResults } from './results';

const PORT = Number(process.env.BENCH_PORT ?? 8235);
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const PAGE = '/device';
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'] as const;

type Console = Awaited<ReturnType<typeof startConsole>>;

/** The page's address as the console serves it (under its base path, where it has one): measured without the redirect. */
async function consoleAddress(url: string, path: string): Promise<string> {
  return (await fetch(url + path, { headers: { accept: 'text/html' } })).url;
}
const others = process.argv.slice(2).map((dir) => resolve(dir));
const consoles: { name: string; server: Console }[] = [{ name: ROOT, server: await startConsole(PORT, { build: true }) }];
for (const [i, dir] of others.entries()) {
  // The other checkout's own server code serves its own build.
  const other = (await import(resolve(dir, 'bench', 'consoleServer.ts'))) as { startConsole: typeof startConsole };
  consoles.push({ name: dir, server: await other.startConsole(PORT + 3 * (i + 1)) });
}
const chrome = await launch({ chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', chromeFlags: CHROMIUM_FLAGS });
try {
  // An honest login: the form, the server's answer, the token the console stores itself.
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  for (const { server } of consoles) {
    const page = await browser.contexts()[0].newPage();
    await page.goto(server.url + '/login');
    await page.fill('[data-testid="login-phone"]', ADMIN.phone);
    await page.fill('[data-testid="login-password"]', ADMIN.password);
    await page.click('[data-testid="login-submit"]');
    await page.waitForURL(/\/home$/, { timeout: 60_000 });
    await page.close();
  }
  await browser.close(); // only the protocol connection: Chromium stays for Lighthouse

  const runs = consoles.map(() => [] as { score: number; metrics: Record<string, string> }[]);
  for (let i = 0; i < RUNS; i++) {
    for (const [c, { name, server }] of consoles.entries()) {
      const result = await lighthouse(await consoleAddress(server.url, PAGE), { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true }, desktopConfig);
      const lhr = result!.lhr;
      const label = consoles.length > 1 ? `${name}, ` : '';
      if (lhr.runtimeError) {
        // Now and then Lighthouse answers with an error and no score: the run is left out, not counted as 0.
        console.log(`${label}run ${i + 1}: failed, ${lhr.runtimeError.code}`);
        continue;
      }
      if (lhr.finalDisplayedUrl && !lhr.finalDisplayedUrl.endsWith(PAGE)) throw new Error(`Lighthouse ended on ${lhr.finalDisplayedUrl}, not the device list: not logged in`);
      const score = Math.round((lhr.categories.performance.score ?? 0) * 100);
      const run = { score, metrics: Object.fromEntries(METRICS.map((m) => [m, lhr.audits[m]?.displayValue ?? '?'])) };
      runs[c].push(run);
      console.log(`${label}run ${i + 1} (load ${loadavg()[0].toFixed(1)}): performance ${score}  ` + METRICS.map((m) => `${m} ${run.metrics[m]}`).join(', '));
    }
  }
  for (const [c, { name }] of consoles.entries()) {
    if (!runs[c].length) throw new Error(`no run of ${name} succeeded`);
    const median = [...runs[c]].sort((a, b) => a.score - b.score)[Math.floor(runs[c].length / 2)];
    const label = consoles.length > 1 ? ` of ${name}` : '';
    console.log(`device list (${PAGE})${label}, logged in, desktop: performance score ${median.score} (median of ${runs[c].length}: ${runs[c].map((r) => r.score).join(', ')}; aim ≥ 90)`);
    if (c === 0) recordResults('lighthouse', 'Chromium', [{ target: 'first screen', what: `Lighthouse performance of the device list, desktop, median of ${runs[c].length}`, measured: String(median.score), aim: '≥ 90', met: median.score >= 90 }]);
    for (const m of METRICS) console.log(`  ${m.padEnd(26)} ${median.metrics[m]}`);
  }
} finally {
  chrome.kill();
  for (const { server } of consoles) await server.stop();
}

/**
 * Lighthouse's performance score of the device list, logged in. The console keeps its token in
 * localStorage, so the run logs in through the real login form in the same Chromium (Playwright over the
 * DevTools protocol) and Lighthouse then audits /device in that profile with storage kept
 * (`disableStorageReset`). Desktop preset (the console is a desktop tool): simulated throttling, 1350×940.
 * Prints the score and the main metrics. `npm run bench`; LIGHTHOUSE_RUNS (default 3) runs, median shown.
 */
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { ADMIN, CHROMIUM_FLAGS, startConsole } from './consoleServer';

const PORT = Number(process.env.BENCH_PORT ?? 8235);
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const PAGE = '/device';
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'] as const;

const server = await startConsole(PORT, { build: true });
const chrome = await launch({ chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', chromeFlags: CHROMIUM_FLAGS });
try {
  // An honest login: the form, the server's answer, the token the console stores itself.
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const page = await browser.contexts()[0].newPage();
  await page.goto(server.url + '/login');
  await page.fill('[data-testid="login-phone"]', ADMIN.phone);
  await page.fill('[data-testid="login-password"]', ADMIN.password);
  await page.click('[data-testid="login-submit"]');
  await page.waitForURL(/\/home$/, { timeout: 60_000 });
  await page.close();
  await browser.close(); // only the protocol connection: Chromium stays for Lighthouse

  const runs: { score: number; metrics: Record<string, string> }[] = [];
  for (let i = 0; i < RUNS; i++) {
    const result = await lighthouse(server.url + PAGE, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true }, desktopConfig);
    const lhr = result!.lhr;
    if (lhr.finalDisplayedUrl && !lhr.finalDisplayedUrl.endsWith(PAGE)) throw new Error(`Lighthouse ended on ${lhr.finalDisplayedUrl}, not the device list: not logged in`);
    const score = Math.round((lhr.categories.performance.score ?? 0) * 100);
    runs.push({ score, metrics: Object.fromEntries(METRICS.map((m) => [m, lhr.audits[m]?.displayValue ?? '?'])) });
    console.log(`run ${i + 1}: performance ${score}  ` + METRICS.map((m) => `${m} ${runs[i].metrics[m]}`).join(', '));
  }
  const median = [...runs].sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)];
  console.log(`device list (${PAGE}), logged in, desktop: performance score ${median.score} (median of ${RUNS}; aim ≥ 90)`);
  for (const m of METRICS) console.log(`  ${m.padEnd(26)} ${median.metrics[m]}`);
} finally {
  chrome.kill();
  await server.stop();
}

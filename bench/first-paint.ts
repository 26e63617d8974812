/**
 * When the first screens show, in Chromium (1440×900) with an empty cache: the login form, then — logged
 * in, the cache emptied again — the home page's welcome, its figures (every call answered, no progress
 * indicator left) and its charts (the history, the cards' and the server's charts drawn), each the
 * animation frame that paints it, in ms from the page's start. Prints each run and the medians.
 *
 * `tsx bench/first-paint.ts [--slow] [<checkout>…]`: each other checkout of the repository (its dist/app
 * built) is served by its own server code too, and the runs alternate between the builds, so that a
 * machine whose load changes from minute to minute weighs on each alike (as bench/lighthouse.ts does).
 * `--slow`: the CPU slowed 4× and the network to 1.6 Mbit/s down, 750 kbit/s up, 150 ms latency.
 * FIRST_PAINT_RUNS runs per build (default 5).
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ADMIN, CHROMIUM_FLAGS, ROOT, startConsole } from './consoleServer';

const PORT = Number(process.env.BENCH_PORT ?? 8245);
const RUNS = Number(process.env.FIRST_PAINT_RUNS ?? 5);
const args = process.argv.slice(2);
const SLOW = args.includes('--slow');
const MOMENTS = ['form', 'welcome', 'figures', 'charts'] as const;
type Moment = (typeof MOMENTS)[number];

/** In the page before its scripts: the time of the frame that first paints each moment, in `window.__shown`. */
const WATCH = `(() => {
  const shown = (window.__shown = {});
  const home = () => !!document.querySelector('[data-testid="home-welcome"]');
  const moments = {
    form: () => !!document.querySelector('[data-testid="login-phone"]'),
    welcome: home,
    figures: () => home() && !!document.querySelector('[data-testid^="dashboard-card-"]') && !document.querySelector('[data-testid="home-page"] [role="progressbar"]'),
    charts: () => ['dashboard-history-chart', 'dashboard-card-device', 'dashboard-card-record', 'dashboard-cpu', 'dashboard-card-user'].every((id) => document.querySelector('[data-testid="' + id + '"] svg')),
  };
  const check = () => {
    let all = true;
    for (const [name, holds] of Object.entries(moments)) {
      if (shown[name] !== undefined) continue;
      if (!holds()) { all = false; continue; }
      shown[name] = -1;
      requestAnimationFrame(() => { shown[name] = performance.now(); });
    }
    return all;
  };
  if (check()) return;
  const observer = new MutationObserver(() => check() && observer.disconnect());
  observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
})();`;

/** A fresh page with the cache emptied, and the network and CPU slowed with --slow. */
async function coldPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  if (SLOW) {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  }
  await page.addInitScript({ content: WATCH });
  return page;
}

async function shownAt(page: Page, moments: Moment[]): Promise<Partial<Record<Moment, number>>> {
  await page.waitForFunction((names) => names.every((n) => ((window as unknown as { __shown: Record<string, number> }).__shown[n] ?? -1) >= 0), moments, { timeout: 180_000, polling: 200 });
  return page.evaluate(() => (window as unknown as { __shown: Record<Moment, number> }).__shown);
}

async function run(browser: Browser, url: string): Promise<Record<Moment, number>> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const login = await coldPage(context);
    await login.goto(url + '/');
    const { form } = await shownAt(login, ['form']);
    await login.close();
    // Logged in through the form (the token kept where the console keeps it), then the home page, cold.
    const signIn = await context.newPage();
    await signIn.goto(url + '/login');
    await signIn.getByTestId('login-phone').fill(ADMIN.phone);
    await signIn.getByTestId('login-password').fill(ADMIN.password);
    await signIn.getByTestId('login-submit').click();
    await signIn.getByTestId('home-welcome').waitFor({ timeout: 60_000 });
    await signIn.close();
    const home = await coldPage(context);
    await home.goto(url + '/');
    const { welcome, figures, charts } = await shownAt(home, ['welcome', 'figures', 'charts']);
    return { form: form!, welcome: welcome!, figures: figures!, charts: charts! };
  } finally {
    await context.close();
  }
}

const others = args.filter((a) => !a.startsWith('--')).map((dir) => resolve(dir));
const builds: { name: string; server: Awaited<ReturnType<typeof startConsole>>; runs: Record<Moment, number>[] }[] = [{ name: ROOT, server: await startConsole(PORT, { build: true }), runs: [] }];
for (const [i, dir] of others.entries()) {
  const other = (await import(resolve(dir, 'bench', 'consoleServer.ts'))) as { startConsole: typeof startConsole };
  builds.push({ name: dir, server: await other.startConsole(PORT + 3 * (i + 1)), runs: [] });
}
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
const ms = (n: number) => `${Math.round(n)}`.padStart(6);
const line = (r: Record<Moment, number>) => MOMENTS.map((m) => `${m} ${ms(r[m])}`).join('  ');
try {
  console.log(`first paint${SLOW ? ', CPU 4× slower, 1.6 Mbit/s, 150 ms' : ''}: ms from the page's start (the login form; the home page's welcome, figures, charts)`);
  for (let i = 0; i < RUNS; i++) {
    // Alternating which build goes first, so neither always runs on the heels of the other.
    for (const build of i % 2 ? [...builds].reverse() : builds) {
      const r = await run(browser, build.server.url);
      build.runs.push(r);
      console.log(`  ${build.name.padEnd(24)} load ${loadavg()[0].toFixed(1).padStart(4)}  ${line(r)}`);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  for (const build of builds) console.log(`median ${build.name.padEnd(24)}  ${line(Object.fromEntries(MOMENTS.map((m) => [m, median(build.runs.map((r) => r[m]))])) as Record<Moment, number>)}`);
} finally {
  await browser.close();
  for (const build of builds) await build.server.stop();
}

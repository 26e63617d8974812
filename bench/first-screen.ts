/**
 * The console's first screen against a bare react-admin app (bench/bare-admin: the same react,
 * react-admin, @mui/material and Vite), both built and served in this run: the gzip size of the
 * JavaScript the login page needs to show itself, and the home page needs when a logged-in user opens
 * it. Prints the sizes and the ratios console / bare (the aim: each ≤ 1.1). `npm run bench`.
 *
 * A page's first screen is the JavaScript requested before the page showed its first screen: the login
 * form; the home page's welcome and figures, every call answered (no progress indicator left on the
 * page). The moment is taken in the page itself: a MutationObserver sees the content, and the animation
 * frame that paints it gives the time; a script counts when the browser requested it (Resource Timing)
 * before that frame. Whatever the page fetches later (the home page's charts, nivo, once its figures are
 * painted) is printed beside it, and every script loaded until none has arrived for 2 s is printed as
 * the total, so nothing the page loads goes unseen. `BENCH_FILES=1` lists each script with its size.
 */
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ADMIN, CHROMIUM_FLAGS, ROOT, startConsole, viteBuild } from './consoleServer';
import { recordResults, type Figure } from './results';

const PORT = Number(process.env.BENCH_PORT ?? 8215);
const BARE_DIR = join(ROOT, 'dist', 'bare-admin');
/** A page is done loading code when no script has arrived for this long after its first screen showed. */
const QUIET_MS = 2000;

console.log('building the console and the bare react-admin app…');
viteBuild();
viteBuild(join(ROOT, 'bench', 'bare-admin', 'vite.config.ts'));

// The bare app needs nothing but its files (every path that is not a file is the app).
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html', '.css': 'text/css' };
const bare = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  const file = path.startsWith('/assets/') ? join(BARE_DIR, path) : join(BARE_DIR, 'index.html');
  try {
    const body = await readFile(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise<void>((resolve) => bare.listen(PORT + 1, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${PORT + 1}`;
const consoleServer = await startConsole(PORT);

/** JavaScript, gzip: bytes and files. */
interface Scripts {
  bytes: number;
  files: number;
  names: string[];
}
const sum = (list: { url: string; bytes: number }[]): Scripts => ({ bytes: list.reduce((a, s) => a + s.bytes, 0), files: list.length, names: list.map((s) => `${new URL(s.url).pathname.split('/').pop()} ${(s.bytes / 1024).toFixed(1)} KB`) });

/**
 * Runs in the page before its own scripts (source: a function of the build would not survive being sent):
 * when the condition `shown` first holds, the time (performance.now()) of the animation frame that
 * paints it is kept in `window.__firstScreen`.
 */
const watchFirstScreen = (shown: string) => `(() => {
  const shown = () => ${shown};
  const check = () => {
    if (window.__firstScreen !== undefined) return true;
    if (!shown()) return false;
    window.__firstScreen = -1;
    requestAnimationFrame(() => { window.__firstScreen = performance.now(); });
    return true;
  };
  if (check()) return;
  const observer = new MutationObserver(() => check() && observer.disconnect());
  observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
})();`;

/**
 * Opens a page, waits for its first screen (`shown`, a condition on the document, as source) and then
 * for scripts to stop arriving: the scripts requested before the first screen was painted, those after.
 */
async function scriptsOf(page: Page, url: string, shown: string): Promise<{ first: Scripts; later: Scripts; all: Scripts }> {
  const sizes = new Map<string, number>();
  let last = Date.now();
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    last = Date.now();
    pending.push(
      response.body().then(
        (body) => void sizes.set(response.url(), gzipSync(body, { level: 9 }).length),
        () => undefined,
      ),
    );
  });
  await page.addInitScript({ content: watchFirstScreen(shown) });
  await page.goto(url);
  await page.waitForFunction(() => ((window as unknown as { __firstScreen?: number }).__firstScreen ?? -1) >= 0, undefined, { timeout: 60_000, polling: 100 });
  // The quiet counts from the first screen on, so what a page fetches after it is in the total.
  last = Math.max(last, Date.now());
  while (Date.now() - last < QUIET_MS) await page.waitForTimeout(250);
  await Promise.all(pending);
  const { at, requested } = await page.evaluate(() => ({
    at: (window as unknown as { __firstScreen: number }).__firstScreen,
    requested: performance.getEntriesByType('resource').map((e) => ({ url: e.name, start: e.startTime })),
  }));
  const start = new Map(requested.map((r) => [r.url, r.start]));
  const scripts = [...sizes].map(([url, bytes]) => ({ url, bytes, start: start.get(url) ?? 0 }));
  return { first: sum(scripts.filter((s) => s.start < at)), later: sum(scripts.filter((s) => s.start >= at)), all: sum(scripts) };
}

async function measure(browser: Browser, app: { url: string; login: string; home: string; signedIn: string; signIn: (page: Page) => Promise<void> }) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const first = await context.newPage();
  const login = await scriptsOf(first, app.url + '/', app.login);
  await app.signIn(first);
  await first.locator(app.signedIn).first().waitFor({ timeout: 60_000 });
  await first.close();
  // A logged-in user opening the console: the home page from a fresh page load.
  const home = await scriptsOf(await context.newPage(), app.url + '/', app.home);
  await context.close();
  return { login, home };
}

/** The first screens, as conditions on the document (source, run in the page). */
const SHOWN = {
  bare: {
    login: `!!document.querySelector('input[name="username"]')`,
    home: `[...document.querySelectorAll('.MuiCardContent-root')].some((e) => e.textContent.includes('欢迎'))`,
  },
  console: {
    login: `!!document.querySelector('[data-testid="login-phone"]')`,
    // The welcome and the figures: the page is there and no part of it is still waiting for an answer.
    home: `!!document.querySelector('[data-testid="home-welcome"]') && !!document.querySelector('[data-testid^="dashboard-card-"]') && !document.querySelector('[data-testid="home-page"] [role="progressbar"]')`,
  },
};

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
try {
  const bareSizes = await measure(browser, {
    url: bareUrl,
    ...SHOWN.bare,
    signedIn: 'text=欢迎',
    signIn: async (page) => {
      await page.fill('input[name="username"]', 'admin');
      await page.fill('input[name="password"]', 'admin');
      await page.click('button[type="submit"]');
    },
  });
  const consoleSizes = await measure(browser, {
    url: consoleServer.url,
    ...SHOWN.console,
    signedIn: '[data-testid="home-welcome"]',
    signIn: async (page) => {
      await page.fill('[data-testid="login-phone"]', ADMIN.phone);
      await page.fill('[data-testid="login-password"]', ADMIN.password);
      await page.click('[data-testid="login-submit"]');
    },
  });
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`.padStart(10);
  const files = (s: Scripts) => `${kb(s.bytes)} (${s.files})`.padEnd(16);
  console.log('JavaScript, gzip                  bare react-admin   console           console / bare');
  const figures: Figure[] = [];
  for (const page of ['login', 'home'] as const) {
    const b = bareSizes[page];
    const c = consoleSizes[page];
    const ratio = c.first.bytes / b.first.bytes;
    console.log(`  ${page.padEnd(6)} page, first screen     ${files(b.first)}   ${files(c.first)}  ${ratio.toFixed(3)}`);
    console.log(`  ${page.padEnd(6)} page, after it         ${files(b.later)}   ${files(c.later)}  ${c.later.names.join(', ')}`);
    console.log(`  ${page.padEnd(6)} page, all loaded       ${files(b.all)}   ${files(c.all)}  ${(c.all.bytes / b.all.bytes).toFixed(3)}`);
    if (process.env.BENCH_FILES) for (const name of c.first.names) console.log(`      ${name}`);
    figures.push({ target: 'first screen', what: `${page} page, first screen's JavaScript, gzip: console / bare react-admin (${kb(c.first.bytes).trim()} / ${kb(b.first.bytes).trim()})`, measured: ratio.toFixed(3), aim: '≤ 1.1', met: ratio <= 1.1 });
    figures.push({ target: 'first screen', what: `${page} page, every script loaded until none arrives for 2 s, with what comes after the first screen: console / bare react-admin (${kb(c.all.bytes).trim()} / ${kb(b.all.bytes).trim()})`, measured: (c.all.bytes / b.all.bytes).toFixed(3), aim: 'for comparison' });
  }
  recordResults('first-screen', 'Chromium', figures);
} finally {
  await browser.close();
  await consoleServer.stop();
  bare.close();
}

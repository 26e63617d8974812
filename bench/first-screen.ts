/**
 * The console's first screen against a bare react-admin app (bench/bare-admin: the same react,
 * react-admin, @mui/material and Vite), both built and served in this run: the gzip size of the
 * JavaScript the login page loads, and the home page loads when a logged-in user opens it. Prints the
 * sizes and the ratios console / bare (the aim: each ≤ 1.1). `npm run bench`.
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
/** A page is done loading code when no script has arrived for this long after its content shows. */
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

/** Opens a page, waits for `ready` and for scripts to stop arriving; the gzip bytes of every script. */
async function scriptsOf(page: Page, url: string, ready: string): Promise<{ bytes: number; files: number }> {
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
  await page.goto(url);
  await page.locator(ready).first().waitFor({ timeout: 60_000 });
  while (Date.now() - last < QUIET_MS) await page.waitForTimeout(250);
  await Promise.all(pending);
  return { bytes: [...sizes.values()].reduce((a, b) => a + b, 0), files: sizes.size };
}

async function measure(browser: Browser, app: { url: string; login: string; home: string; signIn: (page: Page) => Promise<void> }) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const first = await context.newPage();
  const login = await scriptsOf(first, app.url + '/', app.login);
  await app.signIn(first);
  await first.locator(app.home).first().waitFor({ timeout: 60_000 });
  await first.close();
  // A logged-in user opening the console: the home page from a fresh page load.
  const home = await scriptsOf(await context.newPage(), app.url + '/', app.home);
  await context.close();
  return { login, home };
}

const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
try {
  const bareSizes = await measure(browser, {
    url: bareUrl,
    login: 'input[name="username"]',
    home: 'text=欢迎',
    signIn: async (page) => {
      await page.fill('input[name="username"]', 'admin');
      await page.fill('input[name="password"]', 'admin');
      await page.click('button[type="submit"]');
    },
  });
  const consoleSizes = await measure(browser, {
    url: consoleServer.url,
    login: '[data-testid="login-phone"]',
    home: '[data-testid="home-welcome"]',
    signIn: async (page) => {
      await page.fill('[data-testid="login-phone"]', ADMIN.phone);
      await page.fill('[data-testid="login-password"]', ADMIN.password);
      await page.click('[data-testid="login-submit"]');
    },
  });
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`.padStart(10);
  console.log('JavaScript loaded, gzip           bare react-admin       console   console / bare');
  const figures: Figure[] = [];
  for (const page of ['login', 'home'] as const) {
    const b = bareSizes[page];
    const c = consoleSizes[page];
    console.log(`  ${page.padEnd(6)} page ${''.padEnd(14)} ${kb(b.bytes)} (${b.files})  ${kb(c.bytes)} (${c.files})   ${(c.bytes / b.bytes).toFixed(3)}`);
    figures.push({ target: 'first screen', what: `${page} page JavaScript, gzip: console / bare react-admin (${kb(c.bytes).trim()} / ${kb(b.bytes).trim()})`, measured: (c.bytes / b.bytes).toFixed(3), aim: '≤ 1.1', met: c.bytes / b.bytes <= 1.1 });
  }
  recordResults('first-screen', 'Chromium', figures);
} finally {
  await browser.close();
  await consoleServer.stop();
  bare.close();
}

/**
 * How the call-relation graph renders a large graph in the browser: the whole demo population (about
 * 5,000 phone nodes and 20,000 relations once people are merged into their phones) drawn by the real
 * console in Chromium, then panned and zoomed for 5 s. Prints the time from the query to the first
 * drawn frame (server build, JSON, browser) and the frames per second and p95 frame time
 * (requestAnimationFrame timings) while the camera moves — the console as it is (moves shift a bitmap
 * of the last frame) against a baseline in the same run: the same graph drawn live on every move with
 * its edges hidden while moving (the renderer's previous settings), alternated twice so machine load
 * weighs on both alike. `npm run bench:graph`; BENCH_PORT (default 8205), BENCH_GL=swiftshader adds the
 * SwiftShader flags (without them Chromium still falls back to SwiftShader WebGL under --disable-gpu).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db';
import { migrate } from '../server/db/migrate';
import { syncMenus } from '../server/db/menus';
import { seedDemo } from '../server/db/seed';
import { createTokens } from '../server/auth/tokens';
import { buildApp, CONSOLE_DIR } from '../server/app';
import { startDevices } from '../server/devices/start';
import { buildGraph } from '../server/security/intel';

const PORT = Number(process.env.BENCH_PORT ?? 8205);
const MOVE_MS = 5000;
// The flags of tests/e2e/playwright.config.ts.
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SWIFTSHADER = ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

if (!existsSync(join(CONSOLE_DIR, 'index.html'))) {
  console.log('building the console (dist/app)…');
  spawnSync(process.execPath, [join(import.meta.dirname, '..', 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], { cwd: join(import.meta.dirname, '..'), stdio: 'inherit' });
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-graph-'));
const config = { ...loadConfig({ DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' }), port: PORT, host: '127.0.0.1', mqttPort: PORT + 10000, mqttUrl: undefined };
const database = await openDatabase(config);
await migrate(database);
await syncMenus(database.db);
await seedDemo(database.db);
const devices = await startDevices(config, database.db, { simulate: 'off' });
const app = await buildApp({ config, database, tokens: createTokens(new TextEncoder().encode('bench-secret-bench-secret-bench-secret'), config.tokenTtl), live: devices.live });
await app.listen({ port: PORT, host: '127.0.0.1' });
const base = `http://127.0.0.1:${PORT}`;

const { rows } = await database.db
  .selectFrom('t_tenant_house as t')
  .innerJoin('t_sys_user as u', 'u.fId', 't.fUserId')
  .select('u.fPhone')
  .where('t.fStatus', '=', 2)
  .orderBy('t.fId')
  .limit(1)
  .execute()
  .then((r) => ({ rows: r }));
const phone = rows[0].fPhone as string;

// The server's part alone: the breadth-first build and the JSON it sends.
const serverRuns: number[] = [];
let bytes = 0;
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  const g = await buildGraph(database.db, [phone], new Set(['address', 'tother', 'totherHouse'] as const), 100);
  serverRuns.push(performance.now() - t);
  bytes = JSON.stringify(g).length;
}
serverRuns.sort((a, b) => a - b);

const gl = process.env.BENCH_GL === 'swiftshader' ? SWIFTSHADER : [];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: [...FLAGS, ...gl] });
try {
  // The console's CSP forbids eval, which a text predicate of waitForFunction needs.
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', bypassCSP: true });
  await page.goto(`${base}/login`);
  await page.getByTestId('login-phone').fill('13800000000');
  await page.getByTestId('login-password').fill('Admin@123');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/home$/);
  // Scripts run in the page as text: tsx would otherwise wrap functions in a helper the page lacks.
  const renderer = await page.evaluate<string>(`(() => {
    const g = document.createElement('canvas').getContext('webgl2');
    const info = g && g.getExtension('WEBGL_debug_renderer_info');
    return g && info ? String(g.getParameter(info.UNMASKED_RENDERER_WEBGL)) : 'no WebGL';
  })()`);

  // The whole population: depth 100 from a seeded phone, people merged into their phones.
  await page.goto(`${base}/relation?phone=${phone}&depth=100&people=0`);
  await page.waitForFunction(`performance.getEntriesByName('relation:drawn').length > 0`, null, { timeout: 180_000 });
  const first = await page.evaluate<{ query: number; answer: number; drawn: number; nodes: number; edges: number }>(`(() => {
    const at = (n) => (performance.getEntriesByName(n)[0] || { startTime: NaN }).startTime;
    const hook = window.__relationGraph;
    return { query: at('relation:query'), answer: at('relation:answer'), drawn: at('relation:drawn'), nodes: hook.order(), edges: hook.size() };
  })()`);
  // The layout runs in a worker, then its 400 ms animation; measure the camera alone after that.
  await page.waitForFunction(`performance.getEntriesByName('relation:settled').length > 0`, null, { timeout: 300_000 });
  const settled = await page.evaluate<number>(`performance.getEntriesByName('relation:settled')[0].startTime - performance.getEntriesByName('relation:drawn')[0].startTime`);
  await page.waitForTimeout(500);
  const render = await page.evaluate<number[]>(`Array.from({ length: 7 }, () => window.__relationGraph.renderTime()).sort((a, b) => a - b)`);

  // What a frame costs without labels, and without edges (what a large graph draws while it moves).
  const parts = await page.evaluate<{ noLabels: number; noEdges: number }>(`(() => {
    const hook = window.__relationGraph;
    const sigma = hook.sigma;
    const median = () => Array.from({ length: 5 }, () => hook.renderTime()).sort((a, b) => a - b)[2];
    sigma.setSetting('renderLabels', false);
    const noLabels = median();
    sigma.setSetting('renderLabels', true);
    const reducer = sigma.getSetting('edgeReducer');
    sigma.setSetting('edgeReducer', (e, a) => ({ ...a, hidden: true }));
    const noEdges = median();
    sigma.setSetting('edgeReducer', reducer);
    return { noLabels, noEdges };
  })()`);

  // Pan and zoom as a user does: drag the canvas in circles and turn the wheel, for 5 s, while the
  // page records every requestAnimationFrame interval.
  const box = (await page.getByTestId('relation-canvas').boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  type Move = { frames: number; fps: number; p50: number; p95: number; worst: number };
  const panAndZoom = async (): Promise<Move> => {
    await page.evaluate(`(() => {
      window.__frames = [];
      window.__stopFrames = false;
      let last = performance.now();
      const tick = (t) => { window.__frames.push(t - last); last = t; if (!window.__stopFrames) requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    })()`);
    const started = Date.now();
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    for (let i = 0; Date.now() - started < MOVE_MS; i++) {
      const k = (Date.now() - started) / 1000;
      await page.mouse.move(cx + 200 * Math.cos(k * 2), cy + 150 * Math.sin(k * 2), { steps: 2 });
      if (i % 10 === 9) {
        await page.mouse.up();
        await page.mouse.wheel(0, Math.sin(k) > 0 ? -120 : 120);
        await page.mouse.down();
      }
    }
    await page.mouse.up();
    const move = await page.evaluate<Move>(`(() => {
      window.__stopFrames = true;
      const deltas = window.__frames.slice(1);
      const sorted = [...deltas].sort((a, b) => a - b);
      const total = deltas.reduce((s, d) => s + d, 0);
      return { frames: deltas.length, fps: (deltas.length / total) * 1000, p50: sorted[Math.floor(sorted.length * 0.5)], p95: sorted[Math.floor(sorted.length * 0.95)], worst: sorted[sorted.length - 1] };
    })()`);
    // Let the last rest frame draw and the camera return home before the next run.
    await page.waitForTimeout(600);
    await page.evaluate(`window.__relationGraph.camera().setState({ x: 0.5, y: 0.5, ratio: 1, angle: 0 })`);
    await page.waitForTimeout(1500);
    return move;
  };
  // The baseline: every move drawn live, edges hidden while moving (the previous settings).
  const asBefore = async (on: boolean) => {
    await page.evaluate(`(() => { const h = window.__relationGraph; h.bitmapMoves(${on}); h.sigma.setSetting('hideEdgesOnMove', ${on}); })()`);
    await page.waitForTimeout(1500);
  };
  const bitmapUsed = await page.evaluate<boolean>(`window.__relationGraph.bitmapMoves()`);
  const now: Move[] = [];
  const before: Move[] = [];
  for (let round = 0; round < 2; round++) {
    await asBefore(false);
    now.push(await panAndZoom());
    await asBefore(true);
    before.push(await panAndZoom());
  }
  await asBefore(false);
  // The machine's floor: frames of the idle page over 2 s.
  const idle = await page.evaluate<number>(`new Promise((done) => {
    const d = []; let last = performance.now(); const t0 = last;
    const tick = (t) => { d.push(t - last); last = t; if (t - t0 < 2000) requestAnimationFrame(tick); else done(1000 * (d.length - 1) / d.slice(1).reduce((a, b) => a + b, 0)); };
    requestAnimationFrame(tick);
  })`);

  const mean = (list: Move[], k: keyof Move) => list.reduce((s, m) => s + m[k], 0) / list.length;
  const line = (m: Move) => `${m.fps.toFixed(1)} fps (${m.frames} frames; p50 ${m.p50.toFixed(1)} ms, p95 ${m.p95.toFixed(1)} ms, worst ${m.worst.toFixed(1)} ms)`;
  console.log(`call-relation graph in Chromium (${renderer}${gl.length ? ', SwiftShader flags' : ''}), ${new Date().toISOString().slice(0, 10)}`);
  console.log(`  graph drawn: ${first.nodes} nodes, ${first.edges} edges`);
  console.log(`  server build (buildGraph, depth 100): median ${serverRuns[1].toFixed(0)} ms; answer ${(bytes / 1e6).toFixed(2)} MB of JSON`);
  console.log(`  query → answer:            ${(first.answer - first.query).toFixed(0)} ms (server builds the graph, JSON over HTTP)`);
  console.log(`  answer → first frame:      ${(first.drawn - first.answer).toFixed(0)} ms (graph built in the browser, first draw)`);
  console.log(`  query → first drawn frame: ${(first.drawn - first.query).toFixed(0)} ms`);
  console.log(`  first frame → layout settled: ${settled.toFixed(0)} ms (force layout in a worker)`);
  console.log(`  one full render (sigma.refresh): median ${render[3].toFixed(1)} ms; without labels ${parts.noLabels.toFixed(1)} ms; without edges ${parts.noEdges.toFixed(1)} ms (main thread only)`);
  console.log(`  idle page: ${idle.toFixed(1)} fps (the machine's floor under its current load)`);
  console.log(`  mouse pan and wheel zoom, ${MOVE_MS / 1000} s each, alternated:`);
  now.forEach((m, i) => console.log(`    now (moves as bitmap: ${bitmapUsed}) #${i + 1}: ${line(m)}`));
  before.forEach((m, i) => console.log(`    before (live, edges hidden while moving) #${i + 1}: ${line(m)}`));
  console.log(`  ratio now / before: fps × ${(mean(now, 'fps') / mean(before, 'fps')).toFixed(1)}; p95 frame time × ${(mean(now, 'p95') / mean(before, 'p95')).toFixed(2)}`);
} finally {
  await browser.close();
  await app.close();
  await devices.stop();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

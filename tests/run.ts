/**
 * `npm test`: the unit, generator, API and MQTT tests (vitest), the end-to-end tests in Chromium
 * (Playwright) and the type check (tsc, one test) side by side — much of each run waits on timers,
 * restarts and the browser, so together they take little longer than the longest — then one closing
 * line with the real totals read from the runners' reports. Each output line is prefixed with its runner's name.
 * API tests run on PGlite, and on PostgreSQL as well when DATABASE_URL is set; MQTT tests use the
 * embedded broker, and the broker at MQTT_URL as well when it is set.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(import.meta.dirname, '..');
const REPORTS = join(ROOT, 'tests', '.reports');
// `npm test -- vitest`, `npm test -- e2e`, `npm test -- tsc` or `npm test -- deps` runs one part; what follows goes to its
// runner (`npm test -- e2e alarms.spec.ts`).
const [only, ...passOn] = process.argv.slice(2);

rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

/**
 * Runs a runner with its lines prefixed; answers its exit status. `nice` lowers the runner's priority
 * (its workers and the servers they start inherit it) before it starts any of them.
 */
function run(name: string, command: string, args: string[], { env = {}, nice = 0 }: { env?: NodeJS.ProcessEnv; nice?: number } = {}): Promise<number> {
  console.log(`[${name}] $ ${command} ${args.join(' ')}`);
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  if (nice && child.pid) setPriority(child.pid, nice);
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

interface Totals { passed: number; failed: number; names: string[]; flaky?: string[] }

async function vitest(): Promise<Totals> {
  const report = join(REPORTS, 'vitest.json');
  // The browser tests wait on the page far more than they compute, and each wait stretches when the
  // machine is busy; the vitest files mostly compute. Vitest yields the processors to them, and takes
  // what they leave.
  const status = await run('vitest', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...passOn], { nice: 10 });
  if (!existsSync(report)) return { passed: 0, failed: 1, names: ['vitest: no report'] };
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const names: string[] = [];
  for (const file of r.testResults ?? []) {
    const path = String(file.name).replace(`${ROOT}/`, '');
    const failedTests = (file.assertionResults ?? []).filter((t: { status: string }) => t.status === 'failed');
    for (const t of failedTests) names.push(`vitest: ${path} › ${t.fullName}`);
    // A suite that failed to load fails no test of its own.
    if (file.status === 'failed' && !failedTests.length) names.push(`vitest: ${path} (${String(file.message ?? '').split('\n')[0]})`);
  }
  return { passed: r.numPassedTests, failed: r.numFailedTests + (status !== 0 && r.numFailedTests === 0 ? 1 : 0), names };
}

interface PlaywrightSuite {
  title: string;
  file?: string;
  specs?: { title: string; file: string; tests?: { status: string; results?: { error?: { message?: string } }[] }[] }[];
  suites?: PlaywrightSuite[];
}

async function e2e(): Promise<Totals> {
  const report = join(REPORTS, 'playwright.json');
  const status = await run('e2e', bin('playwright'), ['test', '-c', 'tests/e2e/playwright.config.ts', ...passOn], { env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report } });
  if (!existsSync(report)) return { passed: 0, failed: 1, names: ['e2e: no report'] };
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const names: string[] = [];
  const flaky: string[] = [];
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected' && test.status !== 'flaky') continue;
        const failure = test.results?.find((r) => r.error)?.error?.message ?? '';
        const name = `e2e: ${spec.file} › ${[...titles, spec.title].join(' › ')} — ${failure.replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0]}`;
        (test.status === 'flaky' ? flaky : names).push(name);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of r.suites ?? []) walk(suite, []);
  const s = r.stats;
  return { passed: s.expected + s.flaky, failed: s.unexpected + (status !== 0 && s.unexpected === 0 ? 1 : 0), names, flaky };
}

/** The whole project type-checked (tsx, vitest and Vite strip the types without checking them): one test. */
async function typecheck(): Promise<Totals> {
  const status = await run('tsc', bin('tsc'), ['--noEmit', '-p', '.'], { nice: 10 });
  return status === 0 ? { passed: 1, failed: 0, names: [] } : { passed: 0, failed: 1, names: ['tsc: the type check'] };
}

/**
 * Which way imports go (.dependency-cruiser.cjs: no cycles, the console and the server never import
 * each other, no demo seed in production code): one test, failing on any violation not among the known
 * ones still to remove (.dependency-cruiser-known-violations.json).
 */
async function dependencies(): Promise<Totals> {
  const status = await run('deps', bin('depcruise'), ['-c', '.dependency-cruiser.cjs', 'app', 'server', 'adapters', 'contract', 'generator'], { nice: 10 });
  return status === 0 ? { passed: 1, failed: 0, names: [] } : { passed: 0, failed: 1, names: ['deps: imports go one way (.dependency-cruiser.cjs)'] };
}

const parts = await Promise.all([
  !only || only === 'vitest' ? vitest() : null,
  !only || only === 'e2e' ? e2e() : null,
  !only || only === 'tsc' ? typecheck() : null,
  !only || only === 'deps' ? dependencies() : null,
]);
const passed = parts.reduce((n, p) => n + (p?.passed ?? 0), 0);
const failed = parts.reduce((n, p) => n + (p?.failed ?? 0), 0);
// The failures are named just above the closing line, where a log read from its end shows them.
const names = parts.flatMap((p) => p?.names ?? []);
const flaky = parts.flatMap((p) => p?.flaky ?? []);
if (flaky.length) console.log(`\nFailed once, passed when run again (counted as passed):\n${flaky.map((n) => `  ${n}`).join('\n')}`);
if (names.length) console.log(`\nFailed:\n${names.map((n) => `  ${n}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

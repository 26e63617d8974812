/**
 * `npm test`: the unit, generator, API and MQTT tests (vitest), then the end-to-end tests in Chromium
 * (Playwright), and one closing line with the real totals read from both runners' JSON reports.
 * API tests run on PGlite, and on PostgreSQL as well when DATABASE_URL is set; MQTT tests use the
 * embedded broker, and the broker at MQTT_URL as well when it is set.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const REPORTS = join(ROOT, 'tests', '.reports');
const only = process.argv[2]; // `npm test -- vitest` or `npm test -- e2e` runs one part

rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  return spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } }).status;
}

let passed = 0;
let failed = 0;
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

if (!only || only === 'vitest') {
  const report = join(REPORTS, 'vitest.json');
  const status = run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    if (status !== 0 && r.numFailedTests === 0) failed += 1; // a suite that failed to load
  } else failed += 1;
}

if (!only || only === 'e2e') {
  const report = join(REPORTS, 'playwright.json');
  const status = run(bin('playwright'), ['test', '-c', 'tests/e2e/playwright.config.ts'], { PLAYWRIGHT_JSON_OUTPUT_NAME: report });
  if (existsSync(report)) {
    const s = JSON.parse(readFileSync(report, 'utf8')).stats;
    passed += s.expected + s.flaky;
    failed += s.unexpected;
    if (status !== 0 && s.unexpected === 0) failed += 1;
  } else failed += 1;
}

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

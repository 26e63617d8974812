import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

// The end-to-end run starts the product as `npm start` does, on the embedded defaults (PGlite in a
// fresh data folder, the embedded MQTT broker), and clicks through the real console in Chromium. The
// data folder is in the output folder, which Playwright empties before the server starts: every run
// begins on a new database, and leaves only its own behind.
const PORT = Number(process.env.E2E_PORT ?? 8181);
const OUTPUT = join(import.meta.dirname, '..', '..', 'test-results');
process.env.E2E_DATA_DIR ??= join(OUTPUT, 'server-data');
// Chromium's headless shell (Debian's chromium-headless-shell; what Playwright itself runs headless) when
// the machine has it: the same engine without the browser's own interface to drive, a fifth less time a
// test on two cores than the full browser in its headless mode. CHROMIUM_PATH names another.
const SHELL = '/usr/lib/chromium/chromium-headless-shell';
const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(SHELL) ? SHELL : '/usr/bin/chromium');

export default defineConfig({
  testDir: '.',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 1,
  // A browser test that fails runs once more: on a shared two-core machine a click or a wait can miss
  // its moment. A test that passes only on its second run is named in the run's closing lines
  // (tests/run.ts), so it is seen, not hidden.
  retries: 1,
  reporter: [['list'], ['json']],
  outputDir: OUTPUT,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'zh-CN',
    // As a user who asked the system for less motion (app/shell/theme.ts): no transition to wait out
    // before each click; a sixth less time a test on this two-core machine.
    reducedMotion: 'reduce',
    viewport: { width: 1440, height: 900 },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: 'node --import tsx server/main.ts',
    cwd: join(import.meta.dirname, '..', '..'),
    url: `http://127.0.0.1:${PORT}/healthz`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR: process.env.E2E_DATA_DIR,
      DATABASE_URL: '',
      MQTT_URL: '',
      MQTT_PORT: String(PORT + 10000),
      LOG_LEVEL: 'warn',
      // The tests count the administrator's unread messages. On a loaded machine the intake can fall the
      // default 30 s behind while an import holds the embedded database, and the lag alarm's message (its
      // own test: tests/mqtt/intake-watch.test.ts) would change the count under a test. The system
      // monitor's test reads this setting back.
      INTAKE_LAG_ALARM_S: '600',
    },
  },
});

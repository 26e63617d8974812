import { defineConfig } from 'vitest/config';
import SlowestFirst from './tests/sequencer.ts';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/mqtt/**/*.test.ts', 'tests/chaos/**/*.test.ts'],
    // Time-outs catch a test that hangs; they are set for a machine several times slower than usual
    // (a shared CI machine), where a sound test must not fail for taking long.
    testTimeout: 60000,
    hookTimeout: 120000,
    // Each API file starts its own server and database. Three at a time on a two-core machine: much of the
    // slowest files is waiting (servers restarting, a broker away, command windows), not computing.
    maxWorkers: 3,
    // A worker keeps the modules it loaded for its next file: every API file imports the whole server,
    // and loading it again for each file cost minutes of a run. No test replaces a module or the
    // environment of a file, so nothing leaks from one file to the next.
    isolate: false,
    sequence: { sequencer: SlowestFirst },
    // One seeded database per backend, copied for each test server (tests/api/template.ts).
    globalSetup: ['tests/api/template.ts'],
  },
});

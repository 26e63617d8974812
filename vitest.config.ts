import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/mqtt/**/*.test.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
    // Each API file starts its own server and database; two at a time suits a two-core machine.
    maxWorkers: 2,
    // One seeded database per backend, copied for each test server (tests/api/template.ts).
    globalSetup: ['tests/api/template.ts'],
  },
});

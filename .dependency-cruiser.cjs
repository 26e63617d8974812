/**
 * Which way imports may go (docs/architecture.md): no cycles; the console (app/) and the server
 * (server/) never import each other — what both need lives in a neutral module; production code never
 * imports a demo seed. `npm test` runs this check (tests/run.ts, the `deps` part) against the known violations of
 * `.dependency-cruiser-known-violations.json`: a new violation fails the run, and the file only shrinks
 * (regenerate it with `npx depcruise -c .dependency-cruiser.cjs --output-type baseline app server adapters generator
 * > .dependency-cruiser-known-violations.json` after removing some).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes both sides load in an order nobody chose; break it with a neutral module or an event. A lazy import (a page chunk loaded on demand) runs after both sides have loaded, so it closes no cycle.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
    {
      name: 'console-not-to-server',
      severity: 'error',
      comment: 'The console never imports the server: what both need lives in a neutral module.',
      from: { path: '^app/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-not-to-console',
      severity: 'error',
      comment: 'The server never imports the console.',
      from: { path: '^server/' },
      to: { path: '^app/' },
    },
    {
      name: 'domain-through-its-public-module',
      severity: 'error',
      comment: 'A domain (platform, security, devices, housing, administration, dashboard) reaches another only through the other\'s public module, its index.ts: what a domain lets others use is written in one place.',
      from: { path: '^(server|app)/(platform|security|devices|housing|administration|dashboard)/' },
      to: { path: '^(server|app)/(platform|security|devices|housing|administration|dashboard)/', pathNot: ['^$1/$2/', '^(server|app)/[a-z]+/index\\.tsx?$'] },
    },
    {
      name: 'no-demo-in-production',
      severity: 'error',
      comment: 'Demo seeds are for an empty database; production code never depends on them.',
      from: { path: '^server/', pathNot: ['^server/db/(seed|demo/)', 'Seed\\.ts$', '^server/simulator/', '^server/main\\.ts$'] },
      to: { path: ['^server/db/demo/', 'Seed\\.ts$', '^server/db/seed\\.ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};

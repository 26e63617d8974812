import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress.ts';
import { CONSOLE_BASE } from './contract/consoleBase.ts';

// The console is built into dist/app and served by the API server on the same port.
// `npm run dev` proxies API calls to a server started with `npm start` (PORT 8080).
const api = 'http://localhost:' + (process.env.API_PORT ?? '8080');
const proxied = ['/biz', '/system', '/app', '/api', '/message', '/monitor', '/druid', '/excel', '/api-docs', '/login', '/logout', '/get_info', '/check-password', '/register', '/healthz', '/openapi.json'];

export default defineConfig({
  root: 'app',
  // The console's addresses are under its base path; API calls stay at the root and go to the server.
  base: `${CONSOLE_BASE}/`,
  plugins: [react(), precompress()],
  build: {
    outDir: '../dist/app',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      output: {
        // Everything the console's start imports statically is loaded on every page anyway (the login
        // page and the shell): one chunk of it instead of the forty small shared chunks the automatic
        // splitting made of it (each a request, and compressed alone: 21 KB gzip more in all). What is
        // imported lazily (pages, dialogs, charts, map, catalogues) keeps its own chunks.
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
      },
    },
  },
  server: { proxy: Object.fromEntries(proxied.map((p) => [p, api])) },
});

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
  build: { outDir: '../dist/app', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { proxy: Object.fromEntries(proxied.map((p) => [p, api])) },
});

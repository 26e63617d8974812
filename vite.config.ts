import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress.ts';

// The console is built into dist/app and served by the API server on the same port.
// `npm run dev` proxies API calls to a server started with `npm start` (PORT 8080).
const api = 'http://localhost:' + (process.env.API_PORT ?? '8080');
const proxied = ['/biz', '/system', '/app', '/api', '/login', '/logout', '/get_info', '/check-password', '/register', '/healthz', '/openapi.json'];

export default defineConfig({
  root: 'app',
  plugins: [react(), precompress()],
  build: { outDir: '../dist/app', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: {
    proxy: Object.fromEntries(
      proxied.map((p) => [
        p,
        {
          target: api,
          // A page load of /login is the console's own route, and app/system/*.tsx is a console module
          // under an API prefix: only API calls go to the server.
          bypass: (req: { method?: string; url?: string; headers: { accept?: string } }) => {
            if (req.method !== 'GET') return undefined;
            if (req.headers.accept?.includes('text/html')) return '/index.html';
            return /\.(tsx?|jsx?|css)(\?|$)/.test(req.url ?? '') ? req.url : undefined;
          },
        },
      ]),
    ),
  },
});

/**
 * The API documentation viewer at /api-docs/: Swagger UI (swagger-ui-dist, served from the installed
 * package, so it works without the internet) rendering /openapi.json. The console opens it in a page; it
 * shares the console's origin, so it reads the signed-in token and the document it loads lists the calls
 * that token may make.
 */
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { wordsOf } from './envelope';
import { describeRoute, type ApiCatalog } from './catalog';
import { describeCall } from './calls';

const ASSETS = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

// No inline script: the console's content security policy allows scripts from this origin only.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>API</title>
<link rel="stylesheet" href="/api-docs/assets/swagger-ui.css">
<link rel="stylesheet" href="/api-docs/viewer.css">
</head>
<body>
<div id="api-docs"></div>
<script src="/api-docs/assets/swagger-ui-bundle.js"></script>
<script src="/api-docs/viewer.js"></script>
</body>
</html>
`;

const SCRIPT = `// The console keeps its token in localStorage under "token" (adapters/http.ts).
const token = localStorage.getItem('token');
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#api-docs',
  docExpansion: 'none',
  filter: true,
  deepLinking: true,
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  requestInterceptor: (request) => {
    if (token && !request.headers.Authorization) request.headers.Authorization = token;
    return request;
  },
});
`;

// The console page frames the viewer and gives it its own heading.
const STYLE = `body { margin: 0; } .swagger-ui .topbar { display: none; } .swagger-ui .information-container { padding-top: 8px; }`;

export async function registerApiDocs(app: FastifyInstance, catalog: ApiCatalog) {
  await app.register(fastifyStatic, { root: ASSETS, prefix: '/api-docs/assets/', decorateReply: false, index: false, wildcard: true });
  const viewer = describeCall(catalog, 'platform.apiDocs', { tag: 'platform', answer: { description: 'The page', type: 'text/html' } });
  app.get(viewer, async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get('/api-docs/viewer.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(SCRIPT));
  app.get('/api-docs/viewer.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(STYLE));
  const page = { methods: ['GET'], codes: null, public: true, tag: 'platform' };
  describeRoute(catalog, { ...page, path: '/api-docs/viewer.js', summary: wordsOf('docs.viewerScript'), answer: { description: 'The script', type: 'text/javascript' } });
  describeRoute(catalog, { ...page, path: '/api-docs/viewer.css', summary: wordsOf('docs.viewerStyle'), answer: { description: 'The style sheet', type: 'text/css' } });
  describeRoute(catalog, { ...page, path: '/api-docs/assets/*', summary: wordsOf('docs.viewerFiles'), answer: { description: 'The file (script, style sheet, image or map)', type: 'application/octet-stream', schema: { type: 'string', format: 'binary' } } });
}

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
import { describeRoute, type ApiCatalog } from './catalog';

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
  app.get('/api-docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(PAGE));
  app.get('/api-docs/viewer.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(SCRIPT));
  app.get('/api-docs/viewer.css', async (_request, reply) => reply.type('text/css; charset=utf-8').send(STYLE));
  const page = { methods: ['GET'], codes: null, public: true, tag: 'platform' };
  describeRoute(catalog, { ...page, path: '/api-docs', summary: { 'zh-CN': '接口文档查看器', 'zh-TW': '介面文件檢視器', 'en-US': 'The API documentation viewer (Swagger UI)' }, answer: { description: 'The page', type: 'text/html' } });
  describeRoute(catalog, { ...page, path: '/api-docs/viewer.js', summary: { 'zh-CN': '接口文档查看器脚本', 'zh-TW': '介面文件檢視器腳本', 'en-US': "The viewer's start-up script" }, answer: { description: 'The script', type: 'text/javascript' } });
  describeRoute(catalog, { ...page, path: '/api-docs/viewer.css', summary: { 'zh-CN': '接口文档查看器样式', 'zh-TW': '介面文件檢視器樣式', 'en-US': "The viewer's style" }, answer: { description: 'The style sheet', type: 'text/css' } });
  describeRoute(catalog, { ...page, path: '/api-docs/assets/*', summary: { 'zh-CN': '接口文档查看器资源', 'zh-TW': '介面文件檢視器資源', 'en-US': "The viewer's files (Swagger UI)" }, answer: { description: 'The file (script, style sheet, image or map)', type: 'application/octet-stream', schema: { type: 'string', format: 'binary' } } });
}

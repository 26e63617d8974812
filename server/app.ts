/** The HTTP application: the legacy calls, the OpenAPI document, health, and the built console. */
import { maskPersonalText } from './oplog';
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { sql } from 'kysely';
import type { Config } from './config';
import type { Database } from './db';
import type { Tokens } from './auth/tokens';
import type { LiveDevices } from './devices/live';
import { Forbidden, LoginExpired, Refusal, NotFound, fail, failOf, reason, languageOfRequest, wordsOf } from './http/envelope';
import { compressAnswer } from './http/compression';
import { securityHeaders } from './http/securityHeaders';
import { refusalFor } from './db/errors';
import { streamRefusal } from './http/bodyLimit';
import { authenticate } from './http/route';
import type { RouteContext } from './http/context';
import { databaseRateLimitStore } from './http/rateLimit';
import { describeRoute, type ApiCatalog } from './http/catalog';
import { checkEveryCallRegistered } from './http/calls';
import { openApiDocument } from './http/openapi';
import { registerApiDocs } from './http/apiDocs';
import { registerMonitorRoutes, tellAdministrators } from './administration/monitor';
import { watchIntake } from './monitor/intake';
import { registerErrorLogRoutes } from './administration/errorLog';
import { ServerMetrics } from './monitor/metrics';
import { registerSessionRoutes } from './auth/routes';
import { Sessions } from './auth/sessions';
import { registerResourceRoutes } from './crud/routes';
import { registerSystemRoutes } from './platform/system';
import { registerUserFileRoutes } from './administration/users';
import { registerStatisticsRoutes } from './devices/statistics';
import { registerHomeRoutes } from './dashboard/home';
import { registerDeviceCommandRoutes } from './devices/routes';
import { registerProductCommandRoutes } from './devices/productCommands';
import { registerDeviceDataRoutes } from './devices/deviceData';
import { registerUploadRoutes } from './platform/uploads';
import { registerUpgradeRoutes } from './devices/upgrades';
import { registerTransferRoutes } from './devices/deviceTransfer';
import { registerUseRoutes } from './devices/deviceUse';
import { registerLocationRoutes } from './devices/deviceLocation';
import { registerGatewayRoutes } from './devices/gateways';
import { registerOplogRoutes } from './administration/oplog';
import { registerControlPersonRoutes } from './security/controlPerson';
import { registerAppVersionRoutes } from './administration/appVersion';
import { ensureDemoPhotos } from './administration/feedback';
import { registerIntelRoutes } from './security/intel';
import { registerLibraryImportRoutes } from './devices/libraryImport';
import { registerMessageCentreRoutes } from './platform/messageCentre';
import { startRelay, type Relay } from './relay';
import { CONSOLE_BASE, HOME_PATH } from '../contract/consoleBase';

const ROOT = join(import.meta.dirname, '..');
/** pg-pool's words when no connection to the server could be opened in time. */
const UNREACHABLE = /^(timeout exceeded when trying to connect|Connection terminated due to connection timeout)$/;

export const CONSOLE_DIR = join(ROOT, 'dist', 'app');
/** Hashed build files: cached for a year and never revalidated. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** A shutdown's refusals end this long after it began at the latest, however busy its clients keep it. */
const DRAIN_MAX_MS = 30_000;

/** A built file's address (the hashed /assets/, or a name with an extension: /favicon.ico), not a page's. */
function isFileAddress(path: string): boolean {
  return path.startsWith(`${CONSOLE_BASE}/assets/`) || /\.[A-Za-z0-9]{1,10}$/.test(path.slice(path.lastIndexOf('/') + 1));
}
const CONSOLE_ENTRY = CONSOLE_BASE + HOME_PATH;

export interface AppDeps {
  config: Config;
  database: Database;
  tokens: Tokens;
  live: LiveDevices;
}


declare module 'fastify' {
  interface FastifyInstance {
    /** Every route Fastify registered (method and path), as the OpenAPI test walks them. */
    registeredRoutes: { method: string; url: string }[];
    /**
     * The start of a shutdown: from now on every call, /healthz too, is answered 503 "restarting", and the
     * promise settles once no call has been answered for `quietMs` (at most DRAIN_MAX_MS).
     */
    refuseCalls(quietMs: number): Promise<void>;
    /** This replica's ear for every replica's events (server/relay.ts); stopped when the app closes. */
    relay: Relay;
    /** The cached callers (server/auth/sessions.ts); `settled()` waits for notices of writes made so far. */
    sessions: Sessions;
  }
}

export async function buildApp({ config, database, tokens, live }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: 10 * 1024 * 1024,
    // Only a configured proxy may name the client's address; anyone else could dodge the login limits.
    trustProxy: config.trustProxy,
    // A call arriving during shutdown gets the envelope (below), not a bare 503.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
  });
  const catalog: ApiCatalog = [];
  // One listening connection for every replica-wide event, the session cache's notices among them.
  const relay = await startRelay(database);
  const sessions = new Sessions(database.db);
  const stopSessions = sessions.start(relay);
  app.decorate('sessions', sessions);
  app.decorate('relay', relay);
  app.addHook('onClose', async () => {
    stopSessions();
    await relay.stop();
  });
  const ctx: RouteContext = { db: database.db, timeZone: config.timeZone, tokens, sessions, live, relay, catalog };
  const registeredRoutes: { method: string; url: string }[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) registeredRoutes.push({ method, url: route.url });
  });
  const metrics = new ServerMetrics();
  metrics.attach(app);
  live.on('message', (m) => metrics.countMessage(m.direction));

  const security = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // MUI (emotion) writes its styles into <style> tags at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        connectSrc: ["'self'"],
      },
    },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(security);
    done();
  });
  app.addHook('onSend', compressAnswer);
  // Counted in the database, so the limits hold across replicas.
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(database.db) });

  let closing = false;
  /** When the last call under way at the shutdown was answered (refusals do not count). */
  let lastAnswered = 0;
  // The refusals go on until the clients have had quietMs to meet one since their last answer: a call
  // still under way when the shutdown began (a slow one on a busy machine) is followed by its client's
  // next, which must find the refusal, not a connection closed under it as the server stops listening.
  app.decorate('refuseCalls', async (quietMs: number) => {
    closing = true;
    const since = Date.now();
    for (;;) {
      const quiet = Date.now() - Math.max(since, lastAnswered);
      if (quiet >= quietMs || Date.now() - since >= DRAIN_MAX_MS) return;
      await new Promise((r) => setTimeout(r, quietMs - quiet));
    }
  });
  app.addHook('onResponse', (_request, reply, done) => {
    // Only a shutdown reads it: the other calls pay a comparison, not a clock read.
    if (closing && reply.statusCode !== 503) lastAnswered = Date.now();
    done();
  });
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Refused before anything of the call runs: the only 503 this server answers, so a reverse proxy may
  // send it to another replica (deploy/proxy.ts does) without applying a write twice.
  // Hooks that do not wait for anything take the callback form: an async one costs every call a promise.
  // A replica cut off from its database refuses the same way: another replica may answer.
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) return void reply.code(503).header('connection', 'close').header('retry-after', '1').send(fail(reason('server.restarting'), languageOfRequest(request)));
    if (!database.reachable()) return void reply.code(503).header('retry-after', '1').send(fail(reason('server.databaseUnreachable'), languageOfRequest(request)));
    done();
  });

  app.setErrorHandler((error, request, reply) => {
    const language = languageOfRequest(request);
    const refusal = error instanceof Refusal ? error : refusalFor(error) ?? streamRefusal(error, request);
    if (refusal) return reply.code(200).send(failOf(refusal, language, refusal.code, refusal.about ?? null));
    if (error instanceof Forbidden) return reply.code(401).send(failOf(error, language, 401));
    if (error instanceof LoginExpired) {
      // Fastify accepts only 1xx–5xx in code(); the legacy contract's 700 is set on the raw response.
      reply.raw.statusCode = 700;
      return reply.send(failOf(error, language, 700));
    }
    if (error instanceof NotFound) return reply.code(404).send(failOf(error, language, 404));
    // No connection to the database could be had (nothing of the call ran): another replica may answer it.
    if (UNREACHABLE.test(String((error as Error).message))) {
      return reply.code(503).header('retry-after', '1').send(fail(reason('server.databaseUnreachable'), language));
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 429) return reply.code(200).send(fail(reason('request.tooMany'), language));
    if (status && status >= 400 && status < 500) return reply.code(200).send(fail(reason('request.malformed'), language));
    // Database errors may quote the row (a duplicate key's phone): the server's log gets them masked.
    request.log.error({ err: { type: (error as Error).name, message: maskPersonalText(String((error as Error).message ?? error)), stack: maskPersonalText(String((error as Error).stack ?? '')) } });
    return reply.code(500).send(fail(reason('server.error'), language));
  });

  app.get('/healthz', async (_req, reply) => {
    await sql`select 1`.execute(database.db);
    return reply.send({ status: 'ok', database: database.kind });
  });
  describeRoute(catalog, { path: '/healthz', methods: ['GET'], codes: null, public: true, tag: 'platform', summary: wordsOf('docs.healthz'), answer: { description: 'The database answers', type: 'application/json', schema: { type: 'object', properties: { status: { const: 'ok' }, database: { enum: ['pglite', 'postgres'] } }, required: ['status', 'database'] } } });
  const generated = JSON.parse(readFileSync(join(ROOT, 'server', 'generated', 'openapi.json'), 'utf8')) as Record<string, unknown>;
  // The document a caller may see: with a token, the calls its permission codes open; without, the public ones.
  app.get('/openapi.json', async (request, reply) => {
    const user = request.headers.authorization ? await authenticate(ctx, request, reply).catch(() => null) : null;
    return reply.type('application/json').send(openApiDocument(generated, catalog, user));
  });
  describeRoute(catalog, { path: '/openapi.json', methods: ['GET'], codes: null, public: true, tag: 'platform', summary: wordsOf('docs.openapi'), answer: { description: 'An OpenAPI 3.1 document', type: 'application/json', schema: { type: 'object', properties: { openapi: { type: 'string' }, info: { type: 'object' }, components: { type: 'object' }, paths: { type: 'object' } }, required: ['openapi', 'info', 'paths'] } } });
  await registerApiDocs(app, catalog);

  registerSessionRoutes(app, ctx);
  registerSystemRoutes(app, ctx, { mapTileUrl: config.mapTileUrl });
  registerUserFileRoutes(app, ctx);
  registerResourceRoutes(app, ctx);
  registerStatisticsRoutes(app, ctx);
  registerHomeRoutes(app, ctx);
  registerDeviceCommandRoutes(app, ctx);
  registerProductCommandRoutes(app, ctx);
  registerDeviceDataRoutes(app, ctx);
  registerUploadRoutes(app, ctx, config.dataDir);
  registerUpgradeRoutes(app, ctx);
  registerTransferRoutes(app, ctx, { importMaxRows: config.deviceImportMaxRows });
  registerLibraryImportRoutes(app, ctx);
  registerUseRoutes(app, ctx);
  registerLocationRoutes(app, ctx);
  registerGatewayRoutes(app, ctx);
  registerOplogRoutes(app, ctx);
  registerControlPersonRoutes(app, ctx);
  registerAppVersionRoutes(app, ctx, config.dataDir);
  ensureDemoPhotos(config.dataDir);
  registerIntelRoutes(app, ctx);
  // What the broker says of itself and how this replica's intake keeps up; administrators told of drops and lag.
  const intake = watchIntake({
    brokerUrl: live.transport.options.url, clientId: config.mqttClientId, counts: () => live.ingest.counts(),
    lagAlarmMs: config.intakeLagAlarmMs, raise: (alarm) => tellAdministrators(database.db, alarm),
  });
  app.addHook('onClose', () => intake.stop());
  registerMonitorRoutes(app, ctx, database, metrics, intake);
  registerErrorLogRoutes(app, ctx);
  registerMessageCentreRoutes(app, ctx);
  // Every call resources/calls/ declares is served: a declaration no module registers stops the start
  // (the modules inside plugins register theirs when the app gets ready).
  app.addHook('onReady', async () => checkEveryCallRegistered(catalog));

  // The console lives under its base path (spec 002 §9) and its entry is /home (spec 002 §2). Without
  // this route the static plugin's wildcard would answer the bare root as a directory listing it may not
  // give, which the error handler turns into 400.
  app.get('/', async (_req, reply) => reply.redirect(CONSOLE_ENTRY));
  describeRoute(catalog, { path: '/', methods: ['GET'], codes: null, public: true, tag: 'platform', summary: wordsOf('docs.console', { entry: CONSOLE_ENTRY }), answer: { status: 302, description: `To ${CONSOLE_ENTRY} (the \`Location\` header)` } });

  const hasConsole = config.serveConsole && existsSync(join(CONSOLE_DIR, 'index.html'));
  // A wildcard route, so a console rebuilt while the server runs is served without a restart.
  // Built files are sent precompressed (.br/.gz written by the build: build/precompress.ts). Hashed
  // /assets/ never change under their name, so browsers keep them for a year without asking again;
  // index.html, which names the current hashes, is checked on every visit.
  if (hasConsole)
    await app.register(fastifyStatic, {
      root: CONSOLE_DIR,
      prefix: `${CONSOLE_BASE}/`,
      wildcard: true,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, path) => res.setHeader('cache-control', path.includes(`${sep}assets${sep}`) ? ASSET_CACHE : 'no-cache'),
    });
  app.setNotFoundHandler((request, reply) => {
    const reading = request.method === 'GET' || request.method === 'HEAD';
    if (reading && hasConsole) {
      const url = request.url;
      const path = url.split('?')[0];
      // Any console address (/homeschool/device/…) answers the single-page app, whoever asks: a browser,
      // curl, a link preview or an uptime monitor. A file the build does not have stays missing.
      if (path === CONSOLE_BASE || (path.startsWith(`${CONSOLE_BASE}/`) && !isFileAddress(path))) return reply.type('text/html').sendFile('index.html');
      // A browser opening an address from before the base path (/device/…, a bookmark) is sent to it.
      if ((request.headers.accept ?? '').includes('text/html')) return reply.redirect(CONSOLE_BASE + url);
    }
    return reply.code(404).send(fail(reason('server.notFound'), languageOfRequest(request)));
  });
  return app;
}

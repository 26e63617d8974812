/**
 * One way to declare a call of the legacy contract, used by the generated route table and by the
 * hand-written modules alike: it authenticates, checks the permission code, wraps the answer in the
 * envelope and records every write in the operation log.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { User, Services } from '../crud/types';
import { ok, refuse, languageOfRequest, Forbidden, LoginExpired, type Reason } from './envelope';
import type { Tokens, VerifiedToken } from '../auth/tokens';
import type { Sessions } from '../auth/sessions';
import { record, declareLogName, unnamedWrites } from '../oplog';
import { checkIds, checkShape } from './guard';
import { bodyLimitOf, tooLarge } from './bodyLimit';
import { accountOf, count } from './rateLimit';
import { reasonsByCall } from '../generated/reasons';
import { catalogCall, checkBody, type ApiCatalog } from './catalog';
import { resolveCall, type NamedCallDef } from './calls';

/** What registering a call needs of the server (the whole context handlers get is server/http/context.ts). */
export interface CallServices extends Services {
  tokens: Tokens;
  /** Users and revoked tokens kept in process, dropped on the database's notices (server/auth/sessions.ts). */
  sessions: Sessions;
  /** Every call the server answers, as the OpenAPI document describes it (server/http/openapi.ts). */
  catalog: ApiCatalog;
}

/** A handler's answer with a notice other than the default one (a code of the catalogue). */
export class Answer<T = unknown> {
  constructor(readonly data: T, readonly notice: Reason) {}
}

export type { CallDef } from './call';
export type { NamedCallDef } from './calls';

declare module 'fastify' {
  interface FastifyRequest {
    user: User | null;
    /** The caller's verified token, on authenticated calls. */
    token?: VerifiedToken;
  }
}

export async function authenticate(ctx: CallServices, request: FastifyRequest, reply: FastifyReply): Promise<User> {
  const header = request.headers.authorization;
  const verified = header ? await ctx.tokens.verify(header) : null;
  const user = verified ? await ctx.sessions.user(verified.userId) : null;
  if (!verified || !user) throw new LoginExpired();
  // iat has whole seconds: a token of the same second as a password change still counts as after it.
  if (user.tokensValidAfter && verified.issuedAt < Math.floor(user.tokensValidAfter / 1000)) throw new LoginExpired();
  if (await ctx.sessions.revoked(verified.jti, verified.expiresAt)) throw new LoginExpired();
  request.token = verified;
  if (verified.renew) reply.header('authorization', await ctx.tokens.issue(user.fId));
  return user;
}

/**
 * The count per account, whatever the address, in the table of the address's count (which the rate-limit
 * plugin takes in its preHandler, before this). A call without an account is refused by its handler and
 * limited by the address's count alone.
 */
async function limitAccount(ctx: CallServices, path: string, max: number, body: unknown) {
  const account = accountOf(body);
  if (!account) return;
  const { current } = await count(ctx.db, `${path}:account:${account}`, 60_000);
  if (current > max) throw refuse('request.tooMany');
}

/** Registers a call by its declared name (server/http/calls.ts): its path and methods are the declaration's. */
export function registerCall(app: FastifyInstance, ctx: CallServices, named: NamedCallDef) {
  const def = resolveCall(ctx.catalog, named);
  if (def.write && def.logname) declareLogName(def.path, def.logname);
  else if (def.write) unnamedWrites.add(def.path);
  if (typeof def.permission === 'function' && !def.codes?.length) throw new Error(`${def.path}: a permission function must list its codes`);
  catalogCall(ctx.catalog, def, reasonsByCall[named.call]);
  const logname = def.logname?.key ?? def.path;
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    if (def.perAccountPerMinute) await limitAccount(ctx, def.path, def.perAccountPerMinute, request.body);
    checkShape(request.body);
    checkShape(request.query);
    checkIds(request.body);
    checkIds(request.query);
    const body = {
      ...(request.query as Record<string, unknown>),
      ...(request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {}),
      ...(Array.isArray(request.body) ? { items: request.body } : {}),
    };
    request.user = def.public ? null : await authenticate(ctx, request, reply);
    const user = request.user;
    let variant: string | undefined;
    if (user && def.permission) {
      const decided = typeof def.permission === 'function' ? await def.permission(body) : def.permission;
      const codes = typeof decided === 'string' ? [decided] : Array.isArray(decided) ? decided : decided.codes;
      if (!Array.isArray(decided) && typeof decided === 'object') variant = decided.variant;
      if (!codes.some((c) => user.permissions.has(c))) throw new Forbidden();
    }
    try {
      // After the caller is known (a stranger gets 700, not a hint about the body); a write's refusal is logged.
      if (def.body && !def.bodyCheckedByHandler && !def.upload) {
        // No body at all is an empty one (a GET); a JSON null is not an object and is refused.
        checkBody(def, request.body === undefined ? {} : request.body);
        // A call that names every property it takes checks the query too, as it is merged into the body.
        if (def.body.additionalProperties === false && request.query) checkBody(def, request.query);
      }
      const result = await def.handler({ user, body, request, reply, variant });
      if (def.write) {
        // request.user: the caller, or the account a public call signed in.
        await record(ctx.db, { request, user: request.user, logname, body, succeed: true });
        // A write that ended a session or changed a role is seen by the caller's very next call.
        await ctx.sessions.settled();
      }
      // A file answer (produces) has been sent by the handler.
      if (reply.sent || def.produces) return reply;
      return result instanceof Answer ? ok(result.data, result.notice, languageOfRequest(request)) : ok(result ?? null);
    } catch (error) {
      if (def.write) await record(ctx.db, { request, user, logname, body, succeed: false, error }).catch(() => undefined);
      throw error;
    }
  };
  const rateLimit = def.perMinute && {
    max: def.perMinute,
    timeWindow: '1 minute',
    // After the body is read, so the account can be part of the key.
    hook: 'preHandler' as const,
    keyGenerator: (req: FastifyRequest) => `${req.ip}:${accountOf(req.body)}`,
  };

  const bodyLimit = bodyLimitOf(def);
  // Fastify checks the limit while it reads a JSON body; an upload is streamed by its handler, so its
  // declared length is checked here first.
  const onRequest = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    done(Number(request.headers['content-length'] ?? 0) > bodyLimit ? tooLarge(bodyLimit) : undefined);
  };
  app.route({ method: def.methods ?? ['POST'], url: def.path, handler: handle, bodyLimit, onRequest, ...(rateLimit ? { config: { rateLimit } } : {}) });
}

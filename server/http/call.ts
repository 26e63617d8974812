/**
 * The declaration of one call (server/http/route.ts registers it, server/http/catalog.ts documents it):
 * the shapes alone, so the modules that read a declaration need not import the one that registers it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LogName, User } from '../crud/types';

export type JsonSchema = Record<string, unknown>;

export interface CallDef {
  /**
   * Fastify's path, read from the call's declaration: modules register a call by its declared name
   * (`NamedCallDef`, server/http/calls.ts), never by path, and the path and methods follow from it.
   */
  path: string;
  /**
   * Permission code(s), a list meaning any of them; null: any logged-in user. A function decides from the
   * body (and, for a generated call, the stored row: server/crud/access.ts), and may name the variant it
   * picked, which the handler receives so that it acts on what was checked.
   */
  permission: string | string[] | null | ((body: Record<string, unknown>) => string | string[] | Promise<{ codes: string[]; variant?: string }>);
  /** The codes a permission function may pick (the document names them; a viewer holding one sees the call). */
  codes?: string[];
  /** Reachable without a token (login, register). */
  public?: boolean;
  /** Recorded in the operation log (every call that changes something). */
  write?: boolean;
  /** HTTP methods; POST unless the contract says GET (a GET of a console route such as /login is the page). */
  methods?: ('GET' | 'POST')[];
  /** Calls allowed per minute, per address and account (logins, so guessing passwords is slow). */
  perMinute?: number;
  /**
   * Calls allowed per minute per account, whatever the address: guesses spread over many addresses
   * still meet this count. Larger than `perMinute`, so one address alone cannot lock an account's owner out.
   */
  perAccountPerMinute?: number;
  /** The log's name for a write, in the console's three languages; its key is what the log stores. */
  logname?: LogName;
  /**
   * The body's JSON Schema: the OpenAPI document shows it and every request is checked against it before
   * the handler runs (a property's `x-message` is the refusal's words). Multipart calls name their file
   * field instead (`upload`).
   */
  body?: JsonSchema;
  /** The body is documented here but checked by the handler (the CRUD engine's entity rules and messages). */
  bodyCheckedByHandler?: boolean;
  /** A multipart upload: its file field, the types it takes and its size limit, for the document. */
  upload?: { field: string; accept: string; maxBytes: number };
  /** The JSON Schema of the answer's `data`, where it is known. */
  data?: JsonSchema;
  /** A call that answers a file instead of the envelope (refusals still answer the envelope). */
  produces?: string;
  /**
   * Largest body accepted, in bytes; without it, sized from `body` or `upload` (server/http/bodyLimit.ts).
   * A larger body is refused from its Content-Length, before it is read.
   */
  bodyLimit?: number;
  /** Grouping in the document (defaults to the path's family). */
  tag?: string;
  /** What a read call does, in the console's three languages (writes use `logname`). */
  summary?: Omit<LogName, 'key'>;
  handler: (call: { user: User | null; body: Record<string, unknown>; request: FastifyRequest; reply: FastifyReply; variant?: string }) => Promise<unknown>;
}

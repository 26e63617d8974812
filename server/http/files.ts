/** A file in an answer: its name as the browser saves it. */
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/** RFC 5987: a plain ASCII fallback for old clients, the UTF-8 name for everyone else. */
export function attachment(fileName: string, fallback: string): string {
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * Sends `data` as a download named `fileName` (`fallback` for old clients): bytes made whole, or a stream
 * written as it is made (a large export). The console fetches a file and saves it under the answer's
 * name (adapters/transfer.ts), which a console on another origin can read only when content-disposition
 * is exposed.
 */
export function sendFile(reply: FastifyReply, data: Buffer | Readable, type: string, fileName: string, fallback: string) {
  return reply.header('content-disposition', attachment(fileName, fallback)).header('access-control-expose-headers', 'content-disposition').type(type).send(data);
}

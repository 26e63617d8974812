/**
 * JSON answers compressed for the clients that accept it (browsers all do). At a city's scale the
 * pickers, trees and dictionaries answer megabytes — every product for the product selects, the whole
 * area tree — which brotli shrinks ten to a hundred times for a few milliseconds of work; a page of a
 * list is a few kilobytes, compressed in tens of microseconds. Scripts and style sheets read from disk
 * that no build compressed (the API viewer's Swagger UI, 1.7 MB) are compressed as they stream out.
 * Other files (spreadsheets, archives, pictures, the console's own precompressed build) and the live
 * event stream are left as they are.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pipeline, type Readable } from 'node:stream';
import { brotliCompress, brotliCompressSync, constants, createBrotliCompress, createGzip, gzip, gzipSync, type BrotliOptions, type ZlibOptions } from 'node:zlib';

/** Below this an answer fits a packet or two: compressing it would save nothing a user could notice. */
const SMALLEST = 1024;
/** Above this the work goes to zlib's threads, so one big answer does not hold up every other call. */
const LARGEST_INLINE = 64 * 1024;
/**
 * How hard to try. Brotli's quality 2 for a page of a list (a 16 KB alarm page: 2.8 KB in 67 µs, where
 * its default 11 takes milliseconds and 4 twice as long for 0.4 KB less), its fastest level for a big
 * answer (6,000 products, 4.9 MB: 434 KB in 6.5 ms, against 427 KB in 41 ms at quality 4); gzip's
 * fastest level, which comes within a tenth of its best size at a third of its time.
 */
const BROTLI = (size: number): BrotliOptions => ({ params: { [constants.BROTLI_PARAM_QUALITY]: size <= LARGEST_INLINE ? 2 : 1, [constants.BROTLI_PARAM_SIZE_HINT]: size } });
const GZIP: ZlibOptions = { level: 1 };

type Encoding = 'br' | 'gzip';

/** The encoding to answer in from an Accept-Encoding header: brotli before gzip, neither if refused (q=0). */
export function chosenEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}

/** Compresses a body: a small one at once, a big one on zlib's threads; calls back with the result or the error. */
function compress(encoding: Encoding, body: Buffer, done: (error: Error | null, out?: Buffer) => void) {
  if (body.length > LARGEST_INLINE) return encoding === 'br' ? brotliCompress(body, BROTLI(body.length), done) : gzip(body, GZIP, done);
  let out: Buffer;
  try {
    out = encoding === 'br' ? brotliCompressSync(body, BROTLI(body.length)) : gzipSync(body, GZIP);
  } catch (error) {
    return done(error as Error);
  }
  done(null, out);
}

/** A file's types worth compressing on the way out. */
const TEXT_FILE = /^(text\/(css|javascript)|application\/javascript)\b/;

const isStream = (payload: unknown): payload is Readable => typeof (payload as Readable | null)?.pipe === 'function';

/** Whatever it answers this client, a cache between must keep the answers apart by what they accept. */
function varyByEncoding(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/** A whole file (not a range, not a 304) of a text type, as it streams out of the static files. */
function compressFile(request: FastifyRequest, reply: FastifyReply, file: Readable, done: (error: Error | null, payload?: unknown) => void) {
  // A file sent precompressed (the console's build) came in the encoding this client accepts.
  if (reply.hasHeader('content-encoding')) {
    varyByEncoding(reply);
    return done(null, file);
  }
  const length = Number(reply.getHeader('content-length') ?? NaN);
  const type = String(reply.getHeader('content-type') ?? '');
  if (request.method !== 'GET' || reply.statusCode !== 200 || !TEXT_FILE.test(type) || length < SMALLEST) return done(null, file);
  varyByEncoding(reply);
  const encoding = chosenEncoding(request.headers['accept-encoding']);
  if (!encoding) return done(null, file);
  // A file is sent seldom and kept by the browser: worth brotli's quality 5 (Swagger UI's 1.5 MB script:
  // 375 KB in 36 ms, against 474 KB at quality 1), on zlib's threads.
  const packer = encoding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5, ...(Number.isFinite(length) ? { [constants.BROTLI_PARAM_SIZE_HINT]: length } : {}) } }) : createGzip({ level: 6 });
  reply.header('content-encoding', encoding).removeHeader('content-length');
  // A read error ends the compressed stream too, and with it the answer.
  done(null, pipeline(file, packer, () => undefined));
}

/** The onSend hook: answers the payload compressed when it is JSON or a text file, big enough, and the client accepts it. */
export function compressAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) {
  if (isStream(payload)) return compressFile(request, reply, payload, done);
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
  // The cheap checks first: every answer passes here, and most are not JSON of a kilobyte.
  if (reply.hasHeader('content-encoding') || !String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return done(null, payload);
  if ((typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length) < SMALLEST) return done(null, payload);
  varyByEncoding(reply);
  const encoding = chosenEncoding(request.headers['accept-encoding']);
  if (!encoding) return done(null, payload);
  compress(encoding, typeof payload === 'string' ? Buffer.from(payload) : payload, (error, body) => {
    // An answer that cannot be compressed still goes out, as it was.
    if (error || !body) return done(null, payload);
    reply.header('content-encoding', encoding).removeHeader('content-length');
    done(null, body);
  });
}

/**
 * Uploads (spec 000 §5, §9): product pictures (jpg/jpeg/png, at most 2048 KB) and firmware files (at
 * most 2048 KB), stored under DATA_DIR/uploads with a generated name; the answer's data is that name.
 * The stored name is what rows keep (fImageName, fFileName), so it is the only name ever served.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Answer } from '../http/route';
import { registerUpload } from '../http/upload';
import type { RouteContext } from '../http/context';
import { describeCall } from '../http/calls';
import { Forbidden, NotFound, reason, refuse } from '../http/envelope';
import type { User } from '../crud/types';
import { UPLOADED_PICTURE } from '../../contract/picture';

export const UPLOAD_LIMIT_BYTES = 2048 * 1024;


const IMAGE_TYPES: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png' };
/** Firmware images come as raw binaries or packed; anything else is most likely the wrong file. */
const FIRMWARE_EXTENSIONS = new Set(['bin', 'hex', 'img', 'fw', 'zip', 'gz', 'tar']);

/** The names this server gives uploaded pictures (and the demo's): what a picture field may name. */
const SAFE_IMAGE = UPLOADED_PICTURE;
const SAFE_FIRMWARE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,80}\.(bin|hex|img|fw|zip|gz|tar)$/;

/** The real type from the first bytes: a renamed file is refused whatever its extension says. */
export function imageKind(head: Buffer): 'jpg' | 'png' | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (head.length >= 8 && png.every((b, i) => head[i] === b)) return 'png';
  return null;
}

const extensionOf = (filename: string) => extname(filename).slice(1).toLowerCase();

/** The uploaded file's bytes; a file over the limit or a request without a file is refused. */
async function readUpload(request: FastifyRequest): Promise<{ filename: string; data: Buffer }> {
  if (!request.isMultipart()) throw refuse('upload.noFile');
  let file;
  try {
    file = await request.file({ limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1 } });
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw refuse('upload.tooLarge');
    throw refuse('upload.noFile');
  }
  if (!file) throw refuse('upload.noFile');
  let data: Buffer;
  try {
    data = await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw refuse('upload.tooLarge');
    throw error;
  }
  if (file.file.truncated || data.length > UPLOAD_LIMIT_BYTES) throw refuse('upload.tooLarge');
  if (!data.length) throw refuse('upload.noFile');
  return { filename: file.filename ?? '', data };
}

const holdsAny = (user: User | null, codes: string[]) => Boolean(user && codes.some((c) => user.permissions.has(c)));

export function registerUploadRoutes(app: FastifyInstance, ctx: RouteContext, dataDir: string) {
  const imageDir = join(dataDir, 'uploads');
  const firmwareDir = join(dataDir, 'uploads', 'firmware');

  registerUpload(app, ctx, {
    call: 'upload.picture',
    upload: { field: 'file', accept: 'jpg, jpeg, png', maxBytes: UPLOAD_LIMIT_BYTES },
    // Pictures belong to products, groups and users alike: any signed-in user may upload one.
    write: true,
    handler: async ({ request }) => {
      const { filename, data } = await readUpload(request);
      const declared = extensionOf(filename);
      const kind = imageKind(data);
      if (!IMAGE_TYPES[declared] || !kind) throw refuse('upload.badFormat');
      mkdirSync(imageDir, { recursive: true });
      const name = `${randomUUID().replace(/-/g, '')}.${kind}`;
      await writeFile(join(imageDir, name), data, { flag: 'wx' });
      return new Answer(name, reason('upload.pictureDone'));
    },
  });

  registerUpload(app, ctx, {
    call: 'upload.firmware',
    upload: { field: 'file', accept: 'bin, hex, img, fw, zip, gz, tar', maxBytes: UPLOAD_LIMIT_BYTES },
    write: true,
    handler: async ({ request, user }) => {
      if (!holdsAny(user, ['firmware:add', 'firmware:edit'])) throw new Forbidden();
      const { filename, data } = await readUpload(request);
      const ext = extensionOf(filename);
      if (!FIRMWARE_EXTENSIONS.has(ext)) throw refuse('upload.badFormat');
      mkdirSync(firmwareDir, { recursive: true });
      const name = `${randomUUID().replace(/-/g, '')}.${ext}`;
      await writeFile(join(firmwareDir, name), data, { flag: 'wx' });
      const md5 = createHash('md5').update(data).digest('hex');
      return new Answer({ fFileName: name, fMd5Sign: md5, size: data.length, originalName: filename }, reason('upload.firmwareDone'));
    },
  });

  // Served without a token: an <img> cannot send one, and a device fetches its firmware by address.
  // Names are generated and unguessable, and only names of the stored form are looked up.
  const picture = describeCall(ctx.catalog, 'upload.pictureFile', { tag: 'upload', produces: 'image/*' });
  const firmware = describeCall(ctx.catalog, 'upload.firmwareFile', { tag: 'upload', produces: 'application/octet-stream' });
  app.get<{ Params: { name: string } }>(picture, async (request, reply) => {
    const { name } = request.params;
    const path = join(imageDir, name);
    if (!SAFE_IMAGE.test(name) || !existsSync(path)) throw new NotFound(reason('upload.fileMissing'));
    const ext = extensionOf(name);
    return reply
      .type(IMAGE_TYPES[ext])
      .header('content-length', statSync(path).size)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(createReadStream(path));
  });
  app.get<{ Params: { name: string } }>(firmware, async (request, reply) => {
    const { name } = request.params;
    const path = join(firmwareDir, name);
    if (!SAFE_FIRMWARE.test(name) || !existsSync(path)) throw new NotFound(reason('upload.fileMissing'));
    return reply
      .type('application/octet-stream')
      .header('content-length', statSync(path).size)
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(createReadStream(path));
  });
}

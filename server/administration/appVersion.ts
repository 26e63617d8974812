/**
 * App versions (spec 001 §2.9, §5, §9): packages (apk, ipa, png) up to 200 MB are streamed to disk under
 * DATA_DIR/uploads/app and streamed back with Content-Disposition, never held in memory whole. Rows name
 * their app type and update mode from the dictionaries app_type and update_status.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance } from 'fastify';
import { Answer } from '../http/route';
import { registerUpload } from '../http/upload';
import type { RouteContext } from '../http/context';
import { describeCall } from '../http/calls';
import { Forbidden, NotFound, Refusal, reason, refuse } from '../http/envelope';
import { fieldReason } from '../crud/validate';
import type { CallContext, Services } from '../crud/types';
import { attachment } from '../http/files';

type Row = Record<string, unknown>;

/** Spec 001 §9: 200 MB (204800 KB). */
export const APP_LIMIT_BYTES = 200 * 1024 * 1024;
const EXTENSIONS = new Set(['apk', 'ipa', 'png']);
const STORED = /^[a-f0-9]{32}\.(apk|ipa|png)$/;
const CONTENT_TYPES: Record<string, string> = { apk: 'application/vnd.android.package-archive', ipa: 'application/octet-stream', png: 'image/png' };

let appDir = join(process.env.DATA_DIR ?? './data', 'uploads', 'app');

/** Names of the dictionaries and the area, for the list (appTypeName, updateStatusName, areaName). */
export async function afterRead(rows: Row[], ctx: Services) {
  if (!rows.length) return;
  const areaIds = [...new Set(rows.map((r) => r.fAreaId).filter((v) => v !== null && v !== undefined))] as number[];
  const [dic, areas] = await Promise.all([
    ctx.db.selectFrom('t_sys_dic').select(['fId', 'fKey', 'fContent']).where('fKey', 'in', ['app_type', 'update_status']).execute(),
    areaIds.length ? ctx.db.selectFrom('t_area_info').select(['fAreaId', 'fAreaName']).where('fAreaId', 'in', areaIds).execute() : [],
  ]);
  const name = (key: string, id: unknown) => dic.find((d) => d.fKey === key && Number(d.fId) === Number(id))?.fContent ?? null;
  for (const r of rows) {
    r.appTypeName = name('app_type', r.fAppType);
    r.updateStatusName = name('update_status', r.fUpdateStatus);
    r.areaName = areas.find((a) => Number(a.fAreaId) === Number(r.fAreaId))?.fAreaName ?? null;
  }
}

/** Only a name this server stored can be kept, so a row never points outside the package folder. */
export async function beforeSave(values: Row, ctx: CallContext) {
  if (typeof values.fAppFile === 'string' && values.fAppFile && !STORED.test(values.fAppFile)) throw refuse('appVersion.fileMissing');
  for (const [field, key] of [['fAppType', 'app_type'], ['fUpdateStatus', 'update_status']] as const) {
    if (values[field] === null || values[field] === undefined) continue;
    const found = await ctx.db.selectFrom('t_sys_dic').select('fId').where('fKey', '=', key).where('fId', '=', Number(values[field])).executeTakeFirst();
    // The field's own words for a wrong value where it has them, else "<label> does not exist".
    if (!found) throw new Refusal(fieldReason(ctx.entity, field, ctx.entity.fields[field].messages.type ? 'type' : 'ref'));
  }
}

/** The package goes with its row. */
export async function beforeDelete(row: Row) {
  const file = String(row.fAppFile ?? '');
  if (STORED.test(file)) await rm(join(appDir, file), { force: true });
}

export function registerAppVersionRoutes(app: FastifyInstance, ctx: RouteContext, dataDir: string) {
  appDir = join(dataDir, 'uploads', 'app');

  registerUpload(app, ctx, {
    call: 'upload.appPackage',
    upload: { field: 'file', accept: 'apk, ipa, wgt, zip', maxBytes: APP_LIMIT_BYTES },
    write: true,
    handler: async ({ request, user }) => {
      if (!user || !['updatePlatform:add', 'updatePlatform:edit'].some((c) => user.permissions.has(c))) throw new Forbidden();
      // A declared length over the limit is refused before a byte is read.
      if (Number(request.headers['content-length'] ?? 0) > APP_LIMIT_BYTES + 1024 * 1024) throw refuse('appVersion.tooLarge');
      if (!request.isMultipart()) throw refuse('upload.noFile');
      const part = await request.file();
      if (!part) throw refuse('upload.noFile');
      const ext = extname(part.filename ?? '').slice(1).toLowerCase();
      if (!EXTENSIONS.has(ext)) {
        part.file.resume();
        // The spec's wording names only apk and ipa, although png is accepted too.
        throw refuse('appVersion.badFormat');
      }
      mkdirSync(appDir, { recursive: true });
      const name = `${randomUUID().replace(/-/g, '')}.${ext}`;
      const path = join(appDir, name);
      try {
        await pipeline(part.file, createWriteStream(path, { flags: 'wx' }));
      } catch (error) {
        await rm(path, { force: true });
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw refuse('appVersion.tooLarge');
        throw error;
      }
      if (part.file.truncated) {
        await rm(path, { force: true });
        throw refuse('appVersion.tooLarge');
      }
      const size = statSync(path).size;
      if (!size) {
        await rm(path, { force: true });
        throw refuse('upload.noFile');
      }
      return new Answer({ fAppFile: name, originalName: part.filename, size }, reason('appVersion.uploaded'));
    },
  });

  // Served without a token: the apps fetch their update by this address, and a console link has no header.
  const download = describeCall(ctx.catalog, 'upload.appPackageFile', { tag: 't-app-version', produces: 'application/octet-stream' });
  app.get<{ Params: { id: string } }>(download, async (request, reply) => {
    const id = Number(request.params.id);
    if (!Number.isInteger(id) || id <= 0) throw new NotFound(reason('appVersion.fileMissing'));
    const row = await ctx.db.selectFrom('t_app_version').select(['fAppFile', 'fAppVersion']).where('fId', '=', id).executeTakeFirst();
    const file = String(row?.fAppFile ?? '');
    const path = join(appDir, file);
    if (!row || !STORED.test(file) || !existsSync(path)) throw new NotFound(reason('appVersion.fileMissing'));
    const ext = extname(file).slice(1);
    const friendly = `app-${String(row.fAppVersion ?? id).replace(/[^\w.-]/g, '_')}.${ext}`;
    return reply
      .type(CONTENT_TYPES[ext] ?? 'application/octet-stream')
      .header('content-length', statSync(path).size)
      .header('content-disposition', attachment(friendly, friendly))
      .header('x-content-type-options', 'nosniff')
      .send(createReadStream(path));
  });
}

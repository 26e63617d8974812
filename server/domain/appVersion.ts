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
import multipart from '@fastify/multipart';
import { Answer, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { describeRoute, S } from '../http/catalog';
import { Forbidden, NotFound, Refusal } from '../http/envelope';
import type { CallContext, Services } from '../crud/types';
import { attachment } from './deviceTransfer';

type Row = Record<string, unknown>;

export const APP_PATHS = { upload: '/biz/t-app-version/upload', download: '/biz/t-app-version/download/:id' };
/** Spec 001 §9: 200 MB (204800 KB). */
export const APP_LIMIT_BYTES = 200 * 1024 * 1024;
/** The spec's wording: the format message names only apk and ipa, although png is accepted too. */
export const APP_MESSAGES = {
  format: '文件格式不正确，请上传apk或ipa格式的文件',
  size: '超出大小限制，不能超过200M',
  missing: '请选择上传文件',
  uploaded: '上传成功',
  noFile: '安装文件不存在',
};
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
  if (typeof values.fAppFile === 'string' && values.fAppFile && !STORED.test(values.fAppFile)) throw new Refusal(APP_MESSAGES.noFile);
  for (const [field, key] of [['fAppType', 'app_type'], ['fUpdateStatus', 'update_status']] as const) {
    if (values[field] === null || values[field] === undefined) continue;
    const found = await ctx.db.selectFrom('t_sys_dic').select('fId').where('fKey', '=', key).where('fId', '=', Number(values[field])).executeTakeFirst();
    if (!found) throw new Refusal(ctx.entity.fields[field].messages.type ?? `${ctx.entity.fields[field].label}不存在`);
  }
}

/** The package goes with its row. */
export async function beforeDelete(row: Row) {
  const file = String(row.fAppFile ?? '');
  if (STORED.test(file)) await rm(join(appDir, file), { force: true });
}

export async function seedAppVersions(db: Services['db']) {
  const dic = await db.selectFrom('t_sys_dic').select(['fId', 'fKey', 'fValue']).where('fKey', 'in', ['app_type', 'update_status']).execute();
  const id = (key: string, value: string) => dic.find((d) => d.fKey === key && d.fValue === value)?.fId ?? null;
  await db
    .insertInto('t_app_version')
    .values([
      { fAppType: id('app_type', '1'), fAppVersion: '2.3.0', fVersionDescribe: '租户端安卓版', fUpdateStatus: id('update_status', '0'), fUpdateDescribe: '优化开锁速度，修复已知问题', fAreaId: 440106 },
      { fAppType: id('app_type', '2'), fAppVersion: '2.3.0', fVersionDescribe: '租户端iOS版', fUpdateStatus: id('update_status', '0'), fUpdateDescribe: '优化开锁速度', fAreaId: 440106 },
      { fAppType: id('app_type', '3'), fAppVersion: '1.8.2', fVersionDescribe: '民警端安卓版', fUpdateStatus: id('update_status', '1'), fUpdateDescribe: '新增布控人员提醒，必须更新', fAreaId: 440104 },
    ] as never)
    .execute();
}

export function registerAppVersionRoutes(app: FastifyInstance, ctx: RouteContext, dataDir: string) {
  appDir = join(dataDir, 'uploads', 'app');

  void app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: APP_LIMIT_BYTES, files: 1, fields: 10 } });
    registerCall(scope, ctx, {
      path: APP_PATHS.upload,
      data: S.object({ fAppFile: { type: 'string' }, originalName: S.string(), size: { type: 'integer' } }),
      upload: { field: 'file', accept: 'apk, ipa, wgt, zip', maxBytes: APP_LIMIT_BYTES },
      permission: null,
      write: true,
      logname: { key: 'appVersion.upload', 'zh-CN': '上传应用安装包', 'zh-TW': '上傳應用安裝包', 'en-US': 'Upload app package' },
      handler: async ({ request, user }) => {
        if (!user || !['updatePlatform:add', 'updatePlatform:edit'].some((c) => user.permissions.has(c))) throw new Forbidden();
        // A declared length over the limit is refused before a byte is read.
        if (Number(request.headers['content-length'] ?? 0) > APP_LIMIT_BYTES + 1024 * 1024) throw new Refusal(APP_MESSAGES.size);
        if (!request.isMultipart()) throw new Refusal(APP_MESSAGES.missing);
        const part = await request.file();
        if (!part) throw new Refusal(APP_MESSAGES.missing);
        const ext = extname(part.filename ?? '').slice(1).toLowerCase();
        if (!EXTENSIONS.has(ext)) {
          part.file.resume();
          throw new Refusal(APP_MESSAGES.format);
        }
        mkdirSync(appDir, { recursive: true });
        const name = `${randomUUID().replace(/-/g, '')}.${ext}`;
        const path = join(appDir, name);
        try {
          await pipeline(part.file, createWriteStream(path, { flags: 'wx' }));
        } catch (error) {
          await rm(path, { force: true });
          if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new Refusal(APP_MESSAGES.size);
          throw error;
        }
        if (part.file.truncated) {
          await rm(path, { force: true });
          throw new Refusal(APP_MESSAGES.size);
        }
        const size = statSync(path).size;
        if (!size) {
          await rm(path, { force: true });
          throw new Refusal(APP_MESSAGES.missing);
        }
        return new Answer({ fAppFile: name, originalName: part.filename, size }, APP_MESSAGES.uploaded);
      },
    });
  });

  // Served without a token: the apps fetch their update by this address, and a console link has no header.
  describeRoute(ctx.catalog, { path: '/biz/t-app-version/download/{id}', methods: ['GET'], codes: null, public: true, tag: 't-app-version', produces: 'application/octet-stream', summary: { 'zh-CN': '下载应用安装包', 'zh-TW': '下載應用安裝包', 'en-US': 'An app package' } });
  app.get<{ Params: { id: string } }>(APP_PATHS.download, async (request, reply) => {
    const id = Number(request.params.id);
    if (!Number.isInteger(id) || id <= 0) throw new NotFound(APP_MESSAGES.noFile);
    const row = await ctx.db.selectFrom('t_app_version').select(['fAppFile', 'fAppVersion']).where('fId', '=', id).executeTakeFirst();
    const file = String(row?.fAppFile ?? '');
    const path = join(appDir, file);
    if (!row || !STORED.test(file) || !existsSync(path)) throw new NotFound(APP_MESSAGES.noFile);
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

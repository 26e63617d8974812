/**
 * The error logger (spec 002 §2.17, §8): the console's global handler sends each script error,
 * unhandled rejection and failed call here; the list is the declared errorLog resource, and its CSV
 * export answers the same filters. Any console may report, the login page's before anyone signs in, so
 * a report is small and an address may send only so many a minute.
 */
import type { FastifyInstance } from 'fastify';
import { authenticate, registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { entity, list } from '../crud/engine';
import { validateBody } from '../crud/validate';
import { routes } from '../generated/routes';

/** A report is a few fields; the largest (stack 4000, message 2000) fit well under this. */
export const ERROR_REPORT_MAX_BYTES = 16 * 1024;
/** Reports a minute per address: a console stuck in an error loop must not fill the table. */
export const ERROR_REPORTS_PER_MINUTE = Number(process.env.ERROR_LOG_RATE_LIMIT ?? 30);
/** Rows in one CSV export, newest first (the engine's largest page). */
export const EXPORT_MAX_ROWS = 10000;

/** The export's columns, headed by their fields' labels (zh-CN, schemas/errorLog.schema.json). */
const CSV_COLUMNS = ['fIntime', 'fType', 'fCode', 'fMessage', 'fUrl', 'fUserName', 'fUserAgent'];

/** A CSV field: quoted, inner quotes doubled; a leading = + - @ is defused so a spreadsheet does not run it. */
function csvField(value: unknown): string {
  let text = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function toCsv(rows: Record<string, unknown>[]): string {
  const { fields } = entity('errorLog');
  const lines = [CSV_COLUMNS.map((key) => csvField(fields[key].label)).join(',')];
  for (const row of rows) lines.push(CSV_COLUMNS.map((key) => csvField(row[key])).join(','));
  // The byte-order mark makes spreadsheet programs read the Chinese text as UTF-8.
  return '\uFEFF' + lines.join('\r\n') + '\r\n';
}

export function registerErrorLogRoutes(app: FastifyInstance, ctx: RouteContext) {
  const model = entity('errorLog');
  const listRoute = routes.find((r) => r.entity === 'errorLog' && r.action === 'list')!;

  registerCall(app, ctx, {
    call: 'errorLog.add',
    tag: 'errorLog',
    bodyCheckedByHandler: true,
    bodyLimit: ERROR_REPORT_MAX_BYTES,
    perMinute: ERROR_REPORTS_PER_MINUTE,
    handler: async ({ body, request, reply }) => {
      // The login page reports too, before anyone is signed in: a report is the signed-in user's when its
      // token is good, and nobody's otherwise (an expired token does not lose the report).
      const user = request.headers.authorization ? await authenticate(ctx, request, reply).catch(() => null) : null;
      const values = validateBody(model, body, 'create', user);
      const row = await ctx.db
        .insertInto('t_sys_error_log')
        .values({ ...values, fUserId: user?.fId ?? null, fUserName: user?.fChineseName?.slice(0, 50) ?? null, fUserAgent: String(request.headers['user-agent'] ?? '').slice(0, 300) || null })
        .returning('fId')
        .executeTakeFirstOrThrow();
      return { fId: row.fId };
    },
  });

  registerCall(app, ctx, {
    call: 'errorLog.export',
    tag: 'errorLog',
    produces: 'text/csv',
    handler: async ({ user, body, reply }) => {
      const page = (await list({ db: ctx.db, timeZone: ctx.timeZone, user: user!, body: { condition: body.condition, current: 1, size: EXPORT_MAX_ROWS }, entity: model, route: listRoute })) as { records: Record<string, unknown>[] };
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-disposition', `attachment; filename="error-log-${stamp}.csv"`)
        .header('access-control-expose-headers', 'content-disposition')
        .type('text/csv; charset=utf-8')
        .send(toCsv(page.records));
    },
  });
}

/**
 * The message log (/biz/t-emq-message-publish/records): every command out and device message in, as
 * live.ts records it, filtered as the log screens ask and limited to the devices the user sees.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../db';
import { registerCall } from '../http/route';
import type { RouteContext } from '../http/context';
import { refuse } from '../http/envelope';
import { entity, pageStanding, scoped } from '../crud/engine';
import { formatRow, formatTime } from '../crud/format';
import { isAdmin } from '../crud/types';
import { checkReachable, containing, countUpTo, pageAt } from '../crud/query';


const text = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());

/**
 * A time bound as the log's pickers send it. Minutes only get ':00' (begin) or ':59' (end), so the end
 * minute is included whole; a date alone spans the day; a time alone means today. Read in the server's
 * time zone, like every time the API answers.
 */
export function timeBound(value: unknown, edge: 'begin' | 'end', timeZone: string, now = new Date()): string | undefined {
  let t = text(value).replace('T', ' ');
  if (!t) return undefined;
  if (/^\d{1,2}:\d{2}(:\d{2})?$/.test(t)) t = `${formatTime(now, timeZone).slice(0, 10)} ${t}`;
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) t += edge === 'begin' ? ' 00:00:00' : ' 23:59:59';
  else if (/^\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}$/.test(t)) t += edge === 'begin' ? ':00' : ':59';
  if (!/^\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}:\d{2}$/.test(t) || Number.isNaN(Date.parse(t.replace(' ', 'T')))) throw refuse('message.timeInvalid');
  return t;
}

/** type 0 (or none) is every message; 1 / 'up' what devices sent, 2 / 'down' what the server sent; other values name a bid. */
function typeFilter(type: unknown): { direction?: 'up' | 'down'; bid?: string } {
  const t = text(type);
  if (!t || t === '0') return {};
  if (t === '1' || t === 'up') return { direction: 'up' };
  if (t === '2' || t === 'down') return { direction: 'down' };
  return { bid: t };
}

/**
 * The content filter. The payload's trigram index answers a text by reading the list of rows of each of
 * its trigrams, in every day of the log; what nearly every payload repeats — the keys ("bid", "mid",
 * "ClientID"), a fleet's common serial prefix ("BENCH00…") — has lists as long as the day, and reading
 * them cost 0.1–0.3 s at 10,000,000 rows, against 15–40 ms for the rest of the text. So the index is asked
 * for the part of the text with the most trigrams that are rare in recent payloads and none that are
 * common (every row holding the whole text holds that part), and the whole text is checked on the rows it
 * finds (strpos, which no index answers, so the planner keeps it a check).
 */
function payloadContaining(search: string, shares: Map<string, number>) {
  const part = indexedPart(search, shares);
  return (eb: ExpressionBuilder<any, 'm'>) =>
    part === search
      ? eb('m.fPayload', 'ilike', containing(search))
      : eb.and([eb('m.fPayload', 'ilike', containing(part)), sql<boolean>`strpos(lower(m.f_payload), lower(${search})) > 0`]);
}

/**
 * What counts as common, tried in turn: a trigram in a tenth of the sampled payloads or more; where every
 * part of the text has such a trigram (`"bid":"alarm"`, whose value a tenth of the payloads hold), a
 * trigram in half of them or more — the keys every payload repeats — so that the index is still asked for
 * the value rather than the whole text, which, keys and all, it cannot narrow (a scan of every row
 * instead: 140 ms against 46 ms for the embedded database at 200,000 messages).
 */
const COMMON_SHARES = [0.1, 0.5];
const SAMPLE = 1000;
const SAMPLE_FOR_MS = 10 * 60_000;
const sampled = new WeakMap<DB, { at: number; shares: Promise<Map<string, number>> }>();

/**
 * The share of the newest SAMPLE payloads each trigram is in, as pg_trgm writes them, for those in a tenth
 * of them or more (the rest are rare); sampled again every ten minutes.
 */
function trigramShares(db: DB): Promise<Map<string, number>> {
  const kept = sampled.get(db);
  if (kept && Date.now() - kept.at < SAMPLE_FOR_MS) return kept.shares;
  const shares = sql<{ t: string; share: number }>`
    with s as (select f_payload from t_emq_message_publish order by f_intime desc limit ${SAMPLE})
    select t, count(*)::float8 / (select count(*) from s) as share from s cross join lateral unnest(show_trgm(s.f_payload)) t
    group by t having count(*)::float8 / (select count(*) from s) >= ${sql.lit(COMMON_SHARES[0])}`
    .execute(db)
    .then(
      (r) => new Map(r.rows.map((x) => [x.t, Number(x.share)])),
      () => {
        // Without a sample the whole text is asked for, as it always may be; the next search samples again.
        sampled.delete(db);
        return new Map<string, number>();
      },
    );
  sampled.set(db, { at: Date.now(), shares });
  return shares;
}

const WORD = /[\p{L}\p{N}]/u;

/**
 * The trigrams pg_trgm looks up for `%text%`: each run of letters and digits, lower-cased, padded with two
 * spaces before and one after where a non-word character (not the pattern's edge) bounds it.
 */
export function likeTrigrams(text: string): Set<string> {
  const chars = [...text.toLowerCase()];
  const out = new Set<string>();
  for (let i = 0; i < chars.length; ) {
    if (!WORD.test(chars[i])) {
      i++;
      continue;
    }
    let j = i;
    while (j < chars.length && WORD.test(chars[j])) j++;
    const word = [...(i > 0 ? '  ' : ''), ...chars.slice(i, j), ...(j < chars.length ? ' ' : '')];
    for (let k = 0; k + 3 <= word.length; k++) out.add(word.slice(k, k + 3).join(''));
    i = j;
  }
  return out;
}

/**
 * The part of `search` to ask the index for: the one with most trigrams and none common, by the first
 * measure of common (COMMON_SHARES) that leaves such a part; the whole text when none does.
 */
export function indexedPart(search: string, shares: Map<string, number>): string {
  const chars = [...search];
  // Longer texts are rare and selective enough; trying every part of them is not worth it.
  if (!shares.size || chars.length > 64) return search;
  for (const common of COMMON_SHARES) {
    let best: string | undefined;
    let most = 0;
    for (let i = 0; i < chars.length; i++) {
      for (let j = chars.length; j >= i + 1; j--) {
        const part = chars.slice(i, j).join('');
        const trigrams = [...likeTrigrams(part)];
        if (trigrams.some((t) => (shares.get(t) ?? 0) >= common)) continue;
        if (trigrams.length > most) {
          best = part;
          most = trigrams.length;
        }
        // Shorter parts from this start have fewer trigrams.
        break;
      }
    }
    if (best !== undefined) return best;
  }
  return search;
}

export function registerMessageRecordRoutes(app: FastifyInstance, ctx: RouteContext) {
  registerCall(app, ctx, {
    call: 'device.messages',
    handler: async ({ user, body }) => {
      const c = (body.condition ?? {}) as Record<string, unknown>;
      const { current, size } = pageAt(body, 10, 500);
      const begin = timeBound(c.beginTime, 'begin', ctx.timeZone);
      const end = timeBound(c.endTime, 'end', ctx.timeZone);

      let q = ctx.db.selectFrom('t_emq_message_publish as m');
      if (!isAdmin(user!)) {
        const mine = scoped(ctx, entity('device'), user!).clearSelect().select('t_device.fId');
        q = q.where('m.fDeviceId', 'in', mine);
      }
      const deviceId = Number(c.deviceId);
      if (text(c.deviceId) && Number.isInteger(deviceId)) q = q.where('m.fDeviceId', '=', deviceId);
      if (text(c.deviceNumber)) q = q.where('m.fDeviceNumber', '=', text(c.deviceNumber));
      const productId = Number(c.productId);
      if (text(c.productId) && Number.isInteger(productId)) {
        q = q.where('m.fDeviceId', 'in', ctx.db.selectFrom('t_device').select('t_device.fId').where('t_device.fProductId', '=', productId));
      }
      if (text(c.number)) {
        const like = containing(text(c.number));
        q = q.where((eb) => eb.or([eb('m.fDeviceNumber', 'ilike', like), eb('m.fProductNumber', 'ilike', like)]));
      }
      if (text(c.content)) q = q.where(payloadContaining(text(c.content), await trigramShares(ctx.db)));
      if (begin) q = q.where('m.fIntime', '>=', sql<Date>`${begin}::timestamp`);
      // The end second is included whole.
      if (end) q = q.where('m.fIntime', '<', sql<Date>`${end}::timestamp + interval '1 second'`);
      const { direction, bid } = typeFilter(c.type);
      if (direction) q = q.where('m.fDirection', '=', direction);
      if (bid) q = q.where('m.fBid', '=', bid);

      checkReachable({ current, size });
      const counted = await countUpTo(ctx.db, q);
      const columns = ['m.fId', 'm.fDeviceId', 'm.fDeviceNumber', 'm.fProductNumber', 'm.fDirection', 'm.fTopic', 'm.fBid', 'm.fPayload', 'm.fIntime'] as const;
      // When at most HUGE_LIST rows match, they are read whole and sorted. Asked for the newest ten
      // directly, the planner, misjudging how many rows a text filter matches, may walk every day's time
      // index backwards until each day yields a match (0.6–0.8 s for a device number at 10,000,000
      // rows, against 20 ms for the matches' own indexes). `offset 0` keeps the matches a query of
      // their own, which the planner does not merge into the sorted one.
      const source = (counted.estimated ? q.select([...columns]) : ctx.db.selectFrom(q.select([...columns]).offset(0).as('m')).selectAll('m')) as SelectQueryBuilder<any, 'm', Record<string, unknown>>;
      const rows = await source
        .orderBy('m.fIntime', 'desc')
        .orderBy('m.fId', 'desc')
        .limit(size)
        .offset((current - 1) * size)
        .execute();
      return { records: rows.map((r) => formatRow(r, ctx.timeZone)), ...pageStanding({ current, size }, counted) };
    },
  });
}

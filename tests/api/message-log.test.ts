/**
 * The message log at scale (migration 021, server/devices/messageLogUpkeep.ts): a table partitioned by
 * day that keeps the rows of the table it replaced, days created ahead and dropped whole past the
 * retention, dashboard roll-ups that equal counts of the log after the ingest wrote it and that keep
 * their history when a day is dropped, and a records total that turns into an estimate past 10,000 rows.
 */
import { mkdtempSync, readdirSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ADMIN, AGENT, backends, freshPostgres, startServer, type TestServer } from './harness';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';
import { migrate, MIGRATIONS } from '../../server/db/migrate';
import { Ingest } from '../../server/devices/ingest';
import { keepMessageLog, messageLogDays, partitionName } from '../../server/devices/messageLogUpkeep';
import { HUGE_LIST } from '../../server/crud/query';

const PARTITIONED = '021_message_log_partitions.sql';

describe.each(backends)('the message log on %s', (backend) => {
  it('keeps the rows written before it was partitioned, with their ids, and moves them into their days', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'iot-msglog-'));
    const before = mkdtempSync(join(tmpdir(), 'iot-migrations-'));
    for (const f of readdirSync(MIGRATIONS).filter((f) => f < PARTITIONED)) symlinkSync(join(MIGRATIONS, f), join(before, f));
    const pgdb = backend === 'postgres' ? await freshPostgres() : undefined;
    const database = await openDatabase(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: pgdb?.url ?? '' }));
    try {
      await migrate(database, before);
      await sql`insert into t_emq_message_publish (f_device_id, f_device_number, f_product_number, f_direction, f_topic, f_payload, f_intime)
        values (7, 'OLD1', 'P', 'up', 'dev/P/OLD1/up', '{"bid":"old"}', now() - interval '2 days'),
               (7, 'OLD1', 'P', 'down', 'dev/P/OLD1/down', '{"bid":"old"}', now())`.execute(database.db);
      const old = (await sql<{ fId: number }>`select f_id from t_emq_message_publish order by f_id`.execute(database.db)).rows.map((r) => Number(r.fId));
      expect(await migrate(database)).toContain(PARTITIONED);

      const after = await sql<{ fId: number; p: string }>`select f_id, tableoid::regclass::text as p from t_emq_message_publish order by f_id`.execute(database.db);
      expect(after.rows.map((r) => Number(r.fId))).toEqual(old);
      const [{ type }] = (await sql<{ type: string }>`select data_type as type from information_schema.columns where table_name = 't_emq_message_publish' and column_name = 'f_id'`.execute(database.db)).rows;
      expect(type).toBe('bigint');
      // New rows continue the ids; the migration counted the former rows for the dashboard.
      await sql`insert into t_emq_message_publish (f_device_id, f_device_number, f_product_number, f_direction, f_topic, f_payload) values (7, 'OLD1', 'P', 'up', 't', '{}')`.execute(database.db);
      const [{ id }] = (await sql<{ id: number }>`select max(f_id) as id from t_emq_message_publish`.execute(database.db)).rows;
      expect(Number(id)).toBe(Math.max(...old) + 1);
      const [{ up, down }] = (await sql<{ up: number; down: number }>`select sum(f_up) as up, sum(f_down) as down from t_message_count_device_hour where f_device_id = 7`.execute(database.db)).rows;
      expect([Number(up), Number(down)]).toEqual([2, 1]);

      const kept = await keepMessageLog(database.db, { retentionDays: 30 });
      expect(kept.moved).toBe(3);
      const moved = await sql<{ p: string }>`select tableoid::regclass::text as p from t_emq_message_publish`.execute(database.db);
      expect(moved.rows.every((r) => r.p.startsWith('t_emq_message_publish_p'))).toBe(true);
      // A second replica running the upkeep at the same time finds nothing left to do.
      const again = await Promise.all([keepMessageLog(database.db, { retentionDays: 30 }), keepMessageLog(database.db, { retentionDays: 30 })]);
      expect(again.map((r) => r.created.length + r.moved)).toEqual([0, 0]);
    } finally {
      await database.close();
      await pgdb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(before, { recursive: true, force: true });
    }
    // Every migration from an empty database, twice over on a busy machine.
  }, 240_000);

  describe('on a running server', () => {
    let s: TestServer;
    let admin: string;
    let devices: { fId: number; fNumber: string; product: string }[];

    beforeAll(async () => {
      s = await startServer(backend);
      admin = await s.login(ADMIN);
      devices = await s.sql(`select d.f_id, d.f_number, p.f_number as product from t_device d join t_product p on p.f_id = d.f_product_id where d.f_number like 'DEV0%' order by d.f_id limit 3`);
      await keepMessageLog(s.db, { retentionDays: 0 });
    });
    afterAll(() => s?.close());

    /** The roll-ups against counts of the log, hour by hour and device by device. */
    const differences = async () =>
      s.sql(`
        with log as (select f_device_id, date_trunc('hour', f_intime) as h, count(*) filter (where f_direction = 'up') as up, count(*) filter (where f_direction = 'down') as down
                     from t_emq_message_publish where f_device_id is not null group by 1, 2)
        select coalesce(l.f_device_id, c.f_device_id) as device, coalesce(l.h, c.f_hour) as hour
        from log l full join t_message_count_device_hour c on c.f_device_id = l.f_device_id and c.f_hour = l.h
        where coalesce(l.up, 0) <> coalesce(c.f_up, 0) or coalesce(l.down, 0) <> coalesce(c.f_down, 0)
        union all
        select null, coalesce(l.h, c.f_hour) from
          (select date_trunc('hour', f_intime) as h, count(*) filter (where f_direction = 'up') as up, count(*) filter (where f_direction = 'down') as down from t_emq_message_publish group by 1) l
          full join t_message_count_hour c on c.f_hour = l.h
        where coalesce(l.up, 0) <> coalesce(c.f_up, 0) or coalesce(l.down, 0) <> coalesce(c.f_down, 0)
        union all
        select null, coalesce(l.m, c.f_minute) from
          (select date_trunc('minute', f_intime) as m, count(*) filter (where f_direction = 'up') as up, count(*) filter (where f_direction = 'down') as down from t_emq_message_publish group by 1) l
          full join t_message_count_minute c on c.f_minute = l.m
        where coalesce(l.up, 0) <> coalesce(c.f_up, 0) or coalesce(l.down, 0) <> coalesce(c.f_down, 0)`);

    it('counts for the dashboard exactly what the ingest wrote, in the same transactions', async () => {
      const ingest = new Ingest(s.db, { security: async () => undefined, warn: (e) => { throw e; } });
      for (let i = 0; i < 300; i++) {
        const d = devices[i % devices.length];
        ingest.push({ kind: 'log', deviceNumber: d.fNumber, productNumber: d.product, direction: i % 4 ? 'up' : 'down', topic: `dev/${d.product}/${d.fNumber}/up`, payload: `{"bid":"count","n":${i}}` });
        if (i % 50 === 49) await ingest.committed();
      }
      ingest.push({ kind: 'log', deviceNumber: 'NOT-A-DEVICE', productNumber: 'P', direction: 'up', topic: 't', payload: '{}' });
      await ingest.committed();
      await ingest.close();
      expect(await differences()).toEqual([]);
      const [{ n }] = await s.sql(`select count(*) as n from t_emq_message_publish where f_intime >= date_trunc('day', now())`);
      const record = await s.call('/api/home/total-record', {}, admin);
      expect(record.body.data.data.dayCount).toBe(Number(n));
      // An agent's figures are its devices' roll-ups.
      const agent = await s.login(AGENT);
      const [{ mine }] = await s.sql(`select count(*) as mine from t_emq_message_publish m join t_device d on d.f_id = m.f_device_id where d.f_user_id = (select f_id from t_sys_user where f_phone = '${AGENT.phone}') and m.f_intime >= date_trunc('month', now())`);
      expect((await s.call('/api/home/total-record', {}, agent)).body.data.data.monthCount).toBe(Number(mine));
    });

    it('drops whole days past the retention and keeps the dashboard history of them', async () => {
      const old = `now() - interval '3 days'`;
      await s.sql(`insert into t_emq_message_publish (f_device_id, f_device_number, f_product_number, f_direction, f_topic, f_payload, f_intime)
        select ${devices[0].fId}, '${devices[0].fNumber}', 'P', 'up', 't', '{"bid":"expiring"}', ${old} from generate_series(1, 5)`);
      const [{ day }] = await s.sql(`select to_char(${old}, 'YYYY-MM-DD') as day`);
      await keepMessageLog(s.db, { retentionDays: 0 });
      expect(await messageLogDays(s.db)).toContain(day);
      const [{ counted }] = await s.sql(`select sum(f_up) as counted from t_message_count_hour where f_hour = date_trunc('hour', ${old})`);
      expect(Number(counted)).toBeGreaterThanOrEqual(5);
      expect(await differences()).toEqual([]);

      const result = await keepMessageLog(s.db, { retentionDays: 2 });
      expect(result.dropped).toContain(partitionName(day));
      expect(await messageLogDays(s.db)).not.toContain(day);
      expect(await s.sql(`select 1 from t_emq_message_publish where f_payload = '{"bid":"expiring"}'`)).toEqual([]);
      // The days still in the log and their roll-ups agree; the dropped day's counts stay as history.
      const left = await differences();
      expect(left.every((r: { hour: Date }) => new Date(r.hour) < new Date(Date.now() - 2 * 86_400_000))).toBe(true);
      const [{ kept }] = await s.sql(`select sum(f_up) as kept from t_message_count_hour where f_hour = date_trunc('hour', ${old})`);
      expect(Number(kept)).toBe(Number(counted));
      expect(await messageLogDays(s.db)).toContain(await s.sql(`select to_char(now() + interval '7 days', 'YYYY-MM-DD') as d`).then((r) => r[0].d));
    });

    it('answers an estimated total past 10,000 rows, pages the newest 10,000 and refuses deeper pages', async () => {
      const d = devices[1];
      await s.sql(`insert into t_emq_message_publish (f_device_id, f_device_number, f_product_number, f_direction, f_topic, f_payload, f_intime)
        select ${d.fId}, '${d.fNumber}', 'P', 'up', 't', '{"bid":"bulk","n":' || g || '}', now() - g * interval '1 second' from generate_series(1, ${HUGE_LIST + 500}) g`);
      await s.sql('analyze t_emq_message_publish');
      const page = (current: number, condition: Record<string, unknown> = { deviceId: d.fId }) => s.call('/biz/t-emq-message-publish/records', { current, size: 10, condition }, admin);
      const first = await page(1);
      expect(first.body.data).toMatchObject({ estimated: true, reachable: HUGE_LIST, pages: HUGE_LIST / 10 });
      expect(first.body.data.total).toBeGreaterThan(HUGE_LIST);
      expect(first.body.data.records).toHaveLength(10);
      const last = await page(HUGE_LIST / 10);
      expect(last.body.data.records).toHaveLength(10);
      const deeper = await page(HUGE_LIST / 10 + 1);
      expect(deeper.body).toMatchObject({ success: false, message: `只能翻阅前${HUGE_LIST}条记录，请缩小时间范围或增加查询条件` });
      // A narrower search is counted exactly again, content search included.
      const narrow = await page(1, { deviceId: d.fId, content: '"n":1234}' });
      expect(narrow.body.data).toMatchObject({ total: 1 });
      expect(narrow.body.data.estimated).toBeUndefined();
      // A key in the text narrows by the key too, in any letter case: "n":12 only where n is 12, not
      // where 12 is another key's value or part of a longer number.
      await s.sql(`insert into t_emq_message_publish (f_device_id, f_device_number, f_product_number, f_direction, f_topic, f_payload)
        values (${d.fId}, '${d.fNumber}', 'P', 'up', 't', '{"bid":"other","m":12,"x":12}')`);
      const keyed = await page(1, { deviceId: d.fId, content: '"N":12,' });
      expect(keyed.body.data.records.map((r: { fPayload: string }) => r.fPayload)).toEqual([]);
      const valued = await page(1, { deviceId: d.fId, content: '"m":12,' });
      expect(valued.body.data.records.map((r: { fPayload: string }) => r.fPayload)).toEqual(['{"bid":"other","m":12,"x":12}']);
      const bid = await page(1, { deviceId: d.fId, content: '"BID":"bulk","n":777}' });
      expect(bid.body.data.records.map((r: { fPayload: string }) => r.fPayload)).toEqual(['{"bid":"bulk","n":777}']);
    });
  });
});

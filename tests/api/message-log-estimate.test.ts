/**
 * The message log's upkeep moves rows out of the default partition into their days; afterwards the
 * records page's estimated total ("about N") stays within 20 % of the rows there are, because the
 * upkeep vacuums and analyzes what it touched (dead rows counted twice otherwise: 19.7 million "about"
 * for 10 million).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, backends, startServer, type TestServer } from './harness';
import { keepMessageLog, messageLogDays, partitionName } from '../../server/devices/messageLogUpkeep';
import { HUGE_LIST } from '../../server/crud/query';

// Five times the rows a list counts exactly (HUGE_LIST): the estimate, not the count, answers.
const ROWS = 50_000;

describe.each(backends)('the message log estimate after upkeep on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login(ADMIN);
  });
  afterAll(() => s?.close());

  it(`says "about" a total within 20 % of ${ROWS.toLocaleString('en')} rows moved out of the default partition`, { timeout: 600_000 }, async () => {
    // Days 20 to 29 ago have no partition: the rows land in the default one, as a bulk load of old
    // messages or rows from before the table was partitioned do (in parts, each a statement of a call's length).
    const [{ first }] = await s.sql(`select to_char(now() - interval '25 days', 'YYYY-MM-DD') as first`);
    expect(await messageLogDays(s.db)).not.toContain(first);
    const PART = 20_000;
    for (let from = 1; from <= ROWS; from += PART) {
      await s.sql(`insert into t_emq_message_publish (f_device_id, f_device_number, f_product_number, f_direction, f_topic, f_payload, f_intime)
        select 1, 'DEV000001', 'P', 'up', 't', '{"bid":"load","n":' || g || '}', now() - interval '20 days' - (g % 10) * interval '1 day' - (g % 3600) * interval '1 second'
        from generate_series(${from}, ${Math.min(from + PART - 1, ROWS)}) g`);
    }
    const [{ waiting }] = await s.sql(`select count(*)::int as waiting from t_emq_message_publish_default`);
    expect(waiting).toBe(ROWS);
    // The planner knew the default partition full, as autovacuum would have measured it after the load.
    await s.sql('analyze t_emq_message_publish_default');

    const result = await keepMessageLog(s.db, { retentionDays: 180 });
    expect(result.moved).toBe(ROWS);
    expect(result.created).toContain(partitionName(first));
    expect(result.created.length).toBeGreaterThanOrEqual(10);
    const [{ left }] = await s.sql(`select count(*)::int as left from t_emq_message_publish_default`);
    expect(left).toBe(0);

    const [{ exact }] = await s.sql(`select count(*)::int as exact from t_emq_message_publish`);
    expect(exact).toBeGreaterThanOrEqual(ROWS);
    const page = await s.call('/biz/t-emq-message-publish/records', { current: 1, size: 10, condition: {} }, admin);
    expect(page.body.data).toMatchObject({ estimated: true, reachable: HUGE_LIST });
    expect(page.body.data.records).toHaveLength(10);
    const total = page.body.data.total;
    console.info(`message log on ${backend}: ${exact} rows, "about ${total}" after upkeep (${(((total - exact) / exact) * 100).toFixed(1)} %)`);
    expect(Math.abs(total - exact) / exact).toBeLessThanOrEqual(0.2);
  });
});

/**
 * Whose device events a live event stream carries (server/devices/routes.ts): a user who is not an
 * administrator hears the devices his device list shows and no others — also when he has more of them
 * than one read of the visible set takes, so that the set is read in pages.
 */
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT, backends, startServer, until, type TestServer } from './harness';
import { streamEvents } from './eventStream';

/** More than one page of the visible set (VISIBLE_PAGE in server/devices/routes.ts). */
const OWN = 12_000;

describe.each(backends)("an agent's event stream on %s", (backend) => {
  let s: TestServer;
  let agent: string;

  beforeAll(async () => {
    s = await startServer(backend);
    agent = await s.login(AGENT);
  }, 120_000);
  afterAll(() => s?.close());

  it('carries his own devices, the last page of them included, and not a device of another', async () => {
    const [{ agentId }] = await s.sql(`select f_id as agent_id from t_sys_user where f_phone = '${AGENT.phone}'`);
    const [{ productId, product }] = await s.sql(`select f_id as product_id, f_number as product from t_product where f_number = 'P-GW-WIFI'`);
    await s.sql(`insert into t_device (f_number, f_product_id, f_user_id) select 'VIS-' || g, ${productId}, ${agentId} from generate_series(1, ${OWN}) g`);
    await s.sql(`insert into t_device (f_number, f_product_id, f_user_id) values ('VIS-OTHER', ${productId}, null)`);
    const [own] = await s.sql(`select f_id, f_number from t_device where f_number = 'VIS-${OWN}'`);
    const [other] = await s.sql(`select f_id, f_number from t_device where f_number = 'VIS-OTHER'`);
    expect(own.fId).toBeLessThan(other.fId);

    const live = await streamEvents<{ fId: number }>(s.url, agent, 'device');
    const client = await mqtt.connectAsync(s.devices.url, { protocolVersion: 4, clientId: `visibility-test-${Date.now()}` });
    const report = (fNumber: string) => client.publishAsync(`dev/${product}/${fNumber}/up`, JSON.stringify({ bid: 'telemetry', ClientID: fNumber, ts: Date.now(), voltage: 220, current: 1, power: 220, energy: 1, temperature: 30, leakage: 1, switch: 1, lock: 0 }), { qos: 1 });
    try {
      // The other device's message is stored first; then the agent's own, on the last page of his set.
      await report(other.fNumber);
      await until(async () => (await s.sql(`select 1 from t_emq_message_publish where f_device_id = ${other.fId}`)).length > 0, 20_000);
      await report(own.fNumber);
      await until(async () => live.events.some((e) => e.fId === own.fId), 20_000);
      expect(live.events.some((e) => e.fId === other.fId)).toBe(false);
    } finally {
      await client.endAsync();
      await live.stop();
    }
  }, 120_000);
});

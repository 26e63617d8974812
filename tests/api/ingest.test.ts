/**
 * Storing device messages in batches (server/devices/ingest.ts): a device's messages keep their order,
 * its state is written once per batch as if each message had been applied in turn (the newest reading
 * wins, never one older than the state stored), and the console hears of each device once per batch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { ADMIN, backends, startServer, until, type TestServer } from './harness';
import { Ingest, LAST_SEEN_STEP_S, type DeviceChange, type IngestItem } from '../../server/devices/ingest';
import type { Readings } from '../../server/mqtt/protocol';

const reading = (over: Partial<Readings> = {}): Readings => ({ voltage: 220, current: 1, power: 220, energy: 1, temperature: 30, leakage: 1, switch: 1, lock: 0, ...over });

describe.each(backends)('device messages stored in batches on %s', (backend) => {
  let s: TestServer;
  let devices: { fId: number; fNumber: string; product: string }[];

  beforeAll(async () => {
    s = await startServer(backend, { broker: backend === 'postgres' && process.env.MQTT_URL ? 'external' : 'embedded' });
    devices = await s.sql(`select d.f_id, d.f_number, p.f_number as product from t_device d join t_product p on p.f_id = d.f_product_id where d.f_number like 'DEV0%' order by d.f_id limit 4`);
  });
  afterAll(() => s?.close());

  it('keeps a stream of one device in order, in far fewer transactions than messages, and keeps the newest state', async () => {
    const [a] = devices;
    const N = 400;
    await s.sql(`update t_device set t_online = 0 where f_id = ${a.fId}`);
    // The console's event stream hears that the device came online.
    const token = await s.login(ADMIN);
    const { ticket } = (await s.call('/api/events/ticket', {}, token)).body.data;
    const controller = new AbortController();
    const stream = await fetch(`${s.url}/api/events?ticket=${ticket}`, { signal: controller.signal });
    let heard = '';
    const listening = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of stream.body!) {
        heard += decoder.decode(chunk as Uint8Array);
        if (heard.includes(`"fId":${a.fId},`)) break;
      }
    })().catch(() => undefined);
    const base = Date.now() - 3_600_000;
    const client = await mqtt.connectAsync(s.devices.url, { protocolVersion: 4, clientId: `ingest-test-${Date.now()}` });
    const topic = `dev/${a.product}/${a.fNumber}/up`;
    const message = (i: number, ts: number, sw: 0 | 1) => JSON.stringify({ bid: 'telemetry', ClientID: a.fNumber, ts, ...reading({ voltage: i, switch: sw }) });
    // A stream whose last message is a late reading, older than all before it: stored, but it must not set the switch.
    const sends = Array.from({ length: N }, (_, i) => client.publishAsync(topic, message(i, base + i * 1000, (i % 2) as 0 | 1), { qos: 1 }));
    sends.push(client.publishAsync(topic, message(N, base - 5000, 0), { qos: 1 }));
    await Promise.all(sends);
    await client.endAsync();

    const rows = await until(async () => {
      const r = await s.sql<{ voltage: number }>(`select voltage from t_device_telemetry where f_device_id = ${a.fId} and f_time >= '${new Date(base - 5000).toISOString()}' order by f_id`);
      return r.length === N + 1 && r;
    }, 20_000);
    expect(rows.map((r) => r.voltage)).toEqual(Array.from({ length: N + 1 }, (_, i) => i));

    // The message log is a lane of its own, written beside the readings: a batch's log rows may commit
    // just after its readings.
    const marks = await until(async () => {
      const logged = await s.sql<{ payload: string }>(`select f_payload as payload from t_emq_message_publish where f_device_id = ${a.fId} and f_bid = 'telemetry' order by f_id`);
      const m = logged.map((l) => JSON.parse(l.payload)).filter((p) => p.ts >= base - 5000 && p.ts < base + N * 1000).map((p) => p.voltage as number);
      return m.length >= N + 1 && m;
    }, 20_000);
    expect(marks).toEqual(Array.from({ length: N + 1 }, (_, i) => i));
    // One transaction stamps its rows with one time: far fewer times than messages means batches.
    const [{ batches }] = await s.sql<{ batches: number }>(`select count(distinct f_intime)::int as batches from t_emq_message_publish where f_device_id = ${a.fId} and f_bid = 'telemetry'`);
    expect(batches).toBeLessThan(N / 4);

    const [device] = await s.sql(`select switch_status, t_online, f_state_time from t_device where f_id = ${a.fId}`);
    expect(device).toMatchObject({ switchStatus: 1, tOnline: 1 });
    expect(new Date(device.fStateTime).getTime()).toBe(base + (N - 1) * 1000);
    await until(async () => heard.includes(`"fId":${a.fId},`), 5000);
    controller.abort();
    await listening;
    const event = heard.split('\n\n').find((e) => e.startsWith('event: device') && e.includes(`"fId":${a.fId},`))!;
    expect(JSON.parse(event.split('data: ')[1])).toMatchObject({ fId: a.fId, fNumber: a.fNumber, tOnline: 1 });
  });

  it('folds a batch into one state per device and tells the console once', async () => {
    const [, b, c] = devices;
    const t0 = Date.now() - 60_000;
    // c's switch was set by an acknowledged command after every reading below.
    await s.sql(`update t_device set switch_status = 0, f_lock = 0, t_online = 0, f_state_time = '${new Date(t0).toISOString()}' where f_id = ${b.fId}`);
    await s.sql(`update t_device set switch_status = 0, f_lock = 0, t_online = 1, f_state_time = '${new Date(t0 + 3_600_000).toISOString()}' where f_id = ${c.fId}`);
    const changes: DeviceChange[] = [];
    const warnings: Error[] = [];
    // What the consoles hear travels through the relay, as on a replica.
    const stop = s.app.relay.on('device', (e) => changes.push(e));
    const ingest = new Ingest(s.db, { security: async () => undefined, warn: (e) => warnings.push(e) });
    const items: IngestItem[] = [
      { kind: 'telemetry', deviceNumber: b.fNumber, time: new Date(t0 + 1000), readings: reading({ switch: 1, lock: 1 }) },
      { kind: 'telemetry', deviceNumber: b.fNumber, time: new Date(t0 + 3000), readings: reading({ switch: 1, lock: 0 }) },
      { kind: 'telemetry', deviceNumber: c.fNumber, time: new Date(t0 + 2000), readings: reading({ switch: 1, lock: 1 }) },
      // Arrives last but was read earlier: stored, state untouched.
      { kind: 'telemetry', deviceNumber: b.fNumber, time: new Date(t0 + 2000), readings: reading({ switch: 0, lock: 1 }) },
      { kind: 'status', deviceNumber: b.fNumber, online: false, at: new Date() },
      { kind: 'telemetry', deviceNumber: 'NO-SUCH-DEVICE', time: new Date(t0), readings: reading() },
    ];
    for (const item of items) ingest.push(item);
    await ingest.committed();
    await ingest.close();

    expect(warnings).toEqual([]);
    const [bRow] = await s.sql(`select switch_status, f_lock, t_online, f_state_time from t_device where f_id = ${b.fId}`);
    expect(bRow).toMatchObject({ switchStatus: 1, fLock: 0, tOnline: 0 });
    expect(new Date(bRow.fStateTime).getTime()).toBe(t0 + 3000);
    const [cRow] = await s.sql(`select switch_status, f_lock, t_online from t_device where f_id = ${c.fId}`);
    expect(cRow).toMatchObject({ switchStatus: 0, fLock: 0, tOnline: 1 });
    const [{ n }] = await s.sql(`select count(*)::int as n from t_device_telemetry where f_device_id in (${b.fId}, ${c.fId}) and f_time between '${new Date(t0).toISOString()}' and '${new Date(t0 + 3000).toISOString()}'`);
    expect(n).toBe(4);

    // b: the status came last, so offline; its state from the newest reading. c: no state change, online already: nothing to say.
    // The batch's events travel in one notification, so when b's has arrived every one has.
    await until(async () => changes.length > 0);
    stop();
    expect(changes).toEqual([{ fId: b.fId, fNumber: b.fNumber, tOnline: 0, switchStatus: 1, fLock: 0 }]);
  });

  it('stores a redelivered reading once', async () => {
    const [, , , d] = devices;
    const time = new Date(Date.now() - 120_000);
    const ingest = new Ingest(s.db, { security: async () => undefined, warn: (e) => { throw e; } });
    ingest.push({ kind: 'telemetry', deviceNumber: d.fNumber, time, readings: reading() });
    await ingest.committed();
    ingest.push({ kind: 'telemetry', deviceNumber: d.fNumber, time, readings: reading(), redelivered: true });
    await ingest.committed();
    await ingest.close();
    const [{ n }] = await s.sql(`select count(*)::int as n from t_device_telemetry where f_device_id = ${d.fId} and f_time = '${time.toISOString()}'`);
    expect(n).toBe(1);
  });

  it('drops what an abandoned connection delivered and has not stored, and stores the rest', async () => {
    const [a, b] = devices;
    const time = new Date(Date.now() - 180_000);
    const ingest = new Ingest(s.db, { security: async () => undefined, warn: (e) => { throw e; } });
    // The ingest connection of a replica that lost its lock, and the replica's own connection.
    const lost = { abandoned: false };
    const own = { abandoned: false };
    ingest.push({ kind: 'telemetry', deviceNumber: a.fNumber, time, readings: reading(), source: lost });
    ingest.push({ kind: 'log', deviceNumber: a.fNumber, productNumber: 'P', direction: 'up', topic: 'dev/P/x/up', payload: '{"abandoned":1}', source: lost });
    ingest.push({ kind: 'telemetry', deviceNumber: b.fNumber, time, readings: reading(), source: own });
    lost.abandoned = true;
    await ingest.committed();
    await ingest.close();
    const stored = await s.sql(`select f_device_id from t_device_telemetry where f_time = '${time.toISOString()}' and f_device_id in (${a.fId}, ${b.fId})`);
    expect(stored.map((r) => r.fDeviceId)).toEqual([b.fId]);
    expect(await s.sql(`select 1 from t_emq_message_publish where f_payload = '{"abandoned":1}'`)).toEqual([]);
  });

  it('splits the log over writers by device, keeps each device in order, and writes a failing lane again alone', async () => {
    const warnings: Error[] = [];
    const ingest = new Ingest(s.db, { security: async () => undefined, warn: (e) => warnings.push(e) }, { logWriters: 2 });
    const time = Date.now() - 240_000;
    const tag = `writers-${Date.now()}`;
    for (let i = 0; i < 60; i++) {
      const d = devices[i % devices.length];
      ingest.push({ kind: 'log', deviceNumber: d.fNumber, productNumber: d.product, direction: 'up', topic: `dev/${d.product}/${d.fNumber}/up`, payload: JSON.stringify({ tag, i }) });
      ingest.push({ kind: 'telemetry', deviceNumber: d.fNumber, time: new Date(time + i), readings: reading({ voltage: i }) });
    }
    // A payload the database cannot store as text: only its own message is lost.
    ingest.push({ kind: 'log', deviceNumber: devices[0].fNumber, productNumber: devices[0].product, direction: 'up', topic: 'dev/x/y/up', payload: `{"tag":"${tag}","nul":"\u0000"}` });
    await ingest.committed();
    await ingest.close();

    expect(warnings).toHaveLength(1);
    const logged = await s.sql<{ n: string; p: string }>(`select f_device_number as n, f_payload as p from t_emq_message_publish where f_payload like '%${tag}%' order by f_id`);
    expect(logged).toHaveLength(60);
    for (const d of devices) {
      const mine = logged.filter((r) => r.n === d.fNumber).map((r) => JSON.parse(r.p).i as number);
      expect(mine).toEqual([...mine].sort((x, y) => x - y));
      expect(mine).toHaveLength(15);
    }
    // The devices' lane committed once, and was not written again for the log's failure.
    const [{ n }] = await s.sql(`select count(*)::int as n from t_device_telemetry where f_time >= '${new Date(time).toISOString()}' and f_time < '${new Date(time + 60).toISOString()}'`);
    expect(n).toBe(60);
  });

  it('writes a lane again when another writer held its rows (a deadlock), losing nothing', async () => {
    // The database refuses the log's first two writes the way it refuses the loser of a deadlock.
    await s.sql(`create sequence t_test_deadlocks`);
    await s.sql(`create function t_test_deadlock() returns trigger language plpgsql as $$
      begin if nextval('t_test_deadlocks') <= 2 then raise exception 'deadlock detected (test)' using errcode = '40P01'; end if; return null; end $$`);
    await s.sql(`create trigger t_test_deadlock after insert on t_emq_message_publish for each statement execute function t_test_deadlock()`);
    try {
      const warnings: Error[] = [];
      const ingest = new Ingest(s.db, { security: async () => undefined, warn: (e) => warnings.push(e) });
      const [d] = devices;
      const tag = `deadlock-${Date.now()}`;
      ingest.push({ kind: 'log', deviceNumber: d.fNumber, productNumber: d.product, direction: 'up', topic: `dev/${d.product}/${d.fNumber}/up`, payload: JSON.stringify({ tag }) });
      await ingest.committed();
      await ingest.close();
      expect(warnings).toEqual([]);
      expect(await s.sql(`select count(*)::int as n from t_emq_message_publish where f_payload like '%${tag}%'`)).toEqual([{ n: 1 }]);
      expect(await s.sql(`select last_value::int as tries from t_test_deadlocks`)).toEqual([{ tries: 3 }]);
    } finally {
      await s.sql(`drop trigger t_test_deadlock on t_emq_message_publish`);
      await s.sql(`drop function t_test_deadlock()`);
      await s.sql(`drop sequence t_test_deadlocks`);
    }
  });

  it("moves a reporting device's last online time on once it is a minute behind, and with every status", async () => {
    const [, , c] = devices;
    const t0 = Date.now() - 600_000;
    await s.sql(`update t_device set t_online = 1, f_last_online_time = '${new Date(t0).toISOString()}' where f_id = ${c.fId}`);
    const lastOnline = async () => new Date((await s.sql(`select f_last_online_time as t from t_device where f_id = ${c.fId}`))[0].t).getTime();
    const ingest = new Ingest(s.db, { security: async () => undefined, warn: (e) => { throw e; } });
    const report = async (at: number) => {
      ingest.push({ kind: 'telemetry', deviceNumber: c.fNumber, time: new Date(at), readings: reading() });
      await ingest.committed();
    };
    await report(t0 + 30_000);
    expect(await lastOnline()).toBe(t0);
    await report(t0 + (LAST_SEEN_STEP_S + 1) * 1000);
    expect(await lastOnline()).toBe(t0 + (LAST_SEEN_STEP_S + 1) * 1000);
    const gone = Date.now() - 1000;
    ingest.push({ kind: 'status', deviceNumber: c.fNumber, online: false, at: new Date(gone) });
    await ingest.committed();
    expect(await lastOnline()).toBe(gone);
    // A device whose clock runs a day ahead was last online now, not tomorrow.
    const before = Date.now();
    await report(before + 86_400_000);
    const seen = await lastOnline();
    expect(seen).toBeGreaterThanOrEqual(before);
    expect(seen).toBeLessThanOrEqual(Date.now());
    await ingest.close();
  });

  it('holds the transport back when too much waits, and lets it go once the batch is taken', async () => {
    const [a] = devices;
    const ingest = new Ingest(s.db, { security: async () => undefined, warn: (e) => { throw e; } }, { highWater: 5 });
    for (let i = 0; i < 4; i++) ingest.push({ kind: 'telemetry', deviceNumber: a.fNumber, time: new Date(Date.now() - 7_200_000 + i), readings: reading() });
    expect(ingest.room()).toBeUndefined();
    ingest.push({ kind: 'telemetry', deviceNumber: a.fNumber, time: new Date(Date.now() - 7_200_000 + 5), readings: reading() });
    const wait = ingest.room();
    expect(wait).toBeInstanceOf(Promise);
    let released = false;
    void wait!.then(() => (released = true));
    const committed = ingest.committed();
    await until(async () => released, 5000);
    await committed;
    expect(ingest.waiting).toBe(0);
    await ingest.close();
  });
});

/**
 * Several replicas of the server on one PostgreSQL and one MQTT broker (the machine's Mosquitto), as
 * real processes: each device message is stored once (by the replica that ingests), what one replica learns reaches the event streams
 * of the other, the login limits count on both together, a command left in flight by a replica killed
 * with SIGKILL ends timed out, and a timer's reverse action runs once even when the replica that fired
 * the timer is killed before it is due.
 *
 * Needs DATABASE_URL and MQTT_URL: PGlite is one process, and an embedded broker dies with its replica.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import mqtt from 'mqtt';
import { sql } from 'kysely';
import { ADMIN, freshPostgres, until } from './harness';
import { freePort, startProcess, stopProcess, type ServerProcess } from './processes';
import { loadConfig } from '../../server/config';
import { openDatabase, type Database } from '../../server/db';
import { startSimulator, type SimulatorHandle } from '../../server/simulator/simulator';
import { deviceTopic } from '../../server/mqtt/topics';
import { COMMAND_DEADLINE_MS, THROTTLE_MS } from '../../server/devices/commands';

const ready = Boolean(process.env.DATABASE_URL && process.env.MQTT_URL);
const tag = `${process.pid}-${Date.now()}`;
/** A device of this run only, so what the broker retains of it concerns nobody else. */
const DEVICE = `RPL${Date.now().toString(36).toUpperCase()}`;
/** Short, so a command left in flight reaches its deadline in seconds. */
const COMMAND_TIMEOUT_MS = 3000;

interface Replica {
  name: string;
  server: ServerProcess;
  token?: string;
}

describe.skipIf(!ready)('two replicas on one PostgreSQL and MQTT broker (needs DATABASE_URL and MQTT_URL)', () => {
  let pgdb: Awaited<ReturnType<typeof freshPostgres>>;
  let database: Database;
  let simulator: SimulatorHandle | undefined;
  let productNumber = '';
  let deviceId = 0;
  const dirs: string[] = [];
  const replicas: Replica[] = [];

  async function start(name: string): Promise<Replica> {
    const dataDir = mkdtempSync(join(tmpdir(), 'iot-replica-'));
    dirs.push(dataDir);
    const server = await startProcess({
      ...process.env, DATA_DIR: dataDir, DATABASE_URL: pgdb.url, MQTT_URL: process.env.MQTT_URL, PORT: String(await freePort()), HOST: '127.0.0.1',
      // One installation: one ingest session and one token secret; each replica its own name.
      MQTT_INGEST_CLIENT_ID: `replicas-ingest-${tag}`, TOKEN_SECRET: `replicas-secret-${tag}-replicas-secret`, REPLICA_ID: name, MQTT_CLIENT_ID: `replicas-${name}-${tag}`,
      COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS), SIMULATOR: 'off', SERVE_CONSOLE: '0', SKIP_CONSOLE_BUILD: '1', LOG_LEVEL: 'warn',
    });
    const replica = { name, server };
    replicas.push(replica);
    return replica;
  }

  const named = (name: string) => replicas.find((r) => r.name === name)!;

  async function call(r: Replica, path: string, body: unknown = {}) {
    const res = await fetch(r.server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(r.token ? { authorization: r.token } : {}) }, body: JSON.stringify(body) });
    return (await res.json()) as { code: number; success: boolean; message: string; data: any };
  }

  async function login(r: Replica) {
    r.token = (await call(r, '/login', { userName: ADMIN.phone, password: ADMIN.password })).data.token;
  }

  const rows = async <T = any>(text: string) => (await sql.raw(text).execute(database.db)).rows as T[];
  const commands = () => rows<{ fName: string; fState: string; fReplica: string; fMessage: string; fSource: string }>(`select f_name, f_state, f_replica, f_message, f_source from t_device_command where f_device_id = ${deviceId} order by f_id`);

  /** The replica's event stream, as the console opens it; `text()` is everything heard so far. */
  async function listen(r: Replica) {
    const { ticket } = (await call(r, '/api/events/ticket')).data;
    const controller = new AbortController();
    const res = await fetch(`${r.server.url}/api/events?ticket=${ticket}`, { signal: controller.signal });
    let heard = '';
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of res.body!) heard += decoder.decode(chunk as Uint8Array);
    })().catch(() => undefined);
    return { text: () => heard, close: () => controller.abort() };
  }

  beforeAll(async () => {
    pgdb = await freshPostgres(inject('templates').postgres);
    database = await openDatabase(loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'iot-replica-test-')), DATABASE_URL: pgdb.url }));
    const [template] = await rows<{ fProductId: number; fTypeId: number; fUserId: number; productNumber: string }>(
      `select d.f_product_id, d.f_type_id, d.f_user_id, p.f_number as product_number from t_device d join t_product p on p.f_id = d.f_product_id where d.f_number = 'DEV000001'`,
    );
    productNumber = template.productNumber;
    [{ fId: deviceId }] = await rows<{ fId: number }>(`insert into t_device (f_number, f_name, f_product_id, f_type_id, f_user_id, t_online) values ('${DEVICE}', '${DEVICE}', ${template.fProductId}, ${template.fTypeId}, ${template.fUserId}, 0) returning f_id`);
    await Promise.all([start('replica-a'), start('replica-b')]);
    await Promise.all(replicas.map(login));
    simulator = await startSimulator({ url: process.env.MQTT_URL, devices: [{ productNumber, deviceNumber: DEVICE, type: template.fTypeId as 1 }], telemetryMs: 3_600_000 });
    // The device's retained status says it is online; one of the replicas writes it.
    await until(async () => (await rows(`select 1 from t_device where f_id = ${deviceId} and t_online = 1`)).length > 0, 20_000);
  }, 240_000);

  afterAll(async () => {
    await simulator?.stop();
    // What the broker retains of the device (its status) would outlive the run.
    const cleaner = await mqtt.connectAsync(process.env.MQTT_URL!, { protocolVersion: 5, clientId: `replicas-clean-${tag}` });
    await cleaner.publishAsync(deviceTopic(productNumber, DEVICE, 'status'), '', { qos: 1, retain: true });
    await cleaner.endAsync();
    await Promise.all(replicas.map((r) => stopProcess(r.server)));
    // The broker's sessions of the replicas are no longer needed.
    for (const clientId of ['replica-a', 'replica-b', 'replica-c', 'ingest'].map((name) => `replicas-${name}-${tag}`)) {
      const ending = await mqtt.connectAsync(process.env.MQTT_URL!, { protocolVersion: 5, clientId, clean: true, properties: { sessionExpiryInterval: 0 } });
      await ending.endAsync();
    }
    await database?.close();
    await pgdb?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('stores each device message once, in order, on whichever replica ingests', async () => {
    const N = 60;
    const base = Date.now() - 86_400_000;
    const publisher = await mqtt.connectAsync(process.env.MQTT_URL!, { protocolVersion: 5, clientId: `replicas-pub-${tag}` });
    const topic = deviceTopic(productNumber, DEVICE, 'up');
    await Promise.all(
      Array.from({ length: N }, (_, i) =>
        publisher.publishAsync(topic, JSON.stringify({ bid: 'telemetry', ClientID: DEVICE, ts: base + i * 1000, voltage: i, current: 1, power: 220, energy: 1, temperature: 30, leakage: 1, switch: 1, lock: 0 }), { qos: 1 }),
      ),
    );
    await publisher.endAsync();
    const window = `f_device_id = ${deviceId} and f_time >= '${new Date(base).toISOString()}' and f_time < '${new Date(base + N * 1000).toISOString()}'`;
    await until(async () => (await rows(`select 1 from t_device_telemetry where ${window}`)).length >= N, 20_000);
    // A late duplicate would show up after the count was reached.
    await new Promise((r) => setTimeout(r, 1000));
    const stored = await rows<{ voltage: number }>(`select voltage from t_device_telemetry where ${window} order by f_id`);
    expect(stored.map((r) => r.voltage)).toEqual(Array.from({ length: N }, (_, i) => i));
    // The message log too (the device's own telemetry, sent when it connected, is outside the window).
    const [{ n }] = await rows<{ n: number }>(
      `select count(*)::int as n from t_emq_message_publish where f_device_id = ${deviceId} and f_bid = 'telemetry' and (f_payload::json->>'ts')::bigint between ${base} and ${base + N * 1000}`,
    );
    expect(n).toBe(N);
  });

  it("tells the other replica's event stream of a device change one replica made", async () => {
    const [a, b] = replicas;
    const stream = await listen(b);
    try {
      const sent = await call(a, '/app/device/send-switch', { deviceId, onOff: 0 });
      expect(sent).toMatchObject({ success: true });
      const event = await until(async () => stream.text().split('\n\n').find((e) => e.startsWith('event: device') && e.includes(`"fId":${deviceId},`)), 10_000);
      expect(JSON.parse(event.split('data: ')[1])).toMatchObject({ fId: deviceId, fNumber: DEVICE, switchStatus: 0 });
    } finally {
      stream.close();
    }
  });

  it('counts login attempts on both replicas together', async () => {
    const [a, b] = replicas;
    const guess = (r: Replica) => call(r, '/login', { userName: '13999999999', password: 'wrong-guess' });
    // 20 a minute per address and account: ten on each replica use them up.
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await guess(i % 2 ? b : a));
    expect(answers.map((x) => x.message)).toEqual(Array(20).fill('账号或密码错误'));
    for (const r of [a, b]) expect(await guess(r)).toMatchObject({ success: false, code: 429, message: '操作过于频繁，请稍后再试' });
    // Another account from the same address is counted apart.
    expect(await call(b, '/login', { userName: ADMIN.phone, password: ADMIN.password })).toMatchObject({ success: true });
  });

  it('ends a command left in flight by a replica killed with SIGKILL, and the device takes the next one', { timeout: 90_000 }, async () => {
    const [a, b] = [named('replica-a'), named('replica-b')];
    const device = simulator!.device(DEVICE)!;
    // The last command was the same user's: the console's commands to a device are spaced.
    await new Promise((r) => setTimeout(r, THROTTLE_MS));
    // The device is slow to answer, so the command is still in flight when its replica dies.
    device.ackDelayMs = 60_000;
    const before = (await commands()).length;
    void call(a, '/app/device/send-switch', { deviceId, onOff: 1 }).catch(() => undefined);
    await until(async () => (await commands()).slice(before).find((c) => c.fState === 'sent'), 10_000);
    await stopProcess(a.server);
    replicas.splice(replicas.indexOf(a), 1);

    const ended = await until(async () => (await commands()).slice(before).find((c) => c.fState !== 'sent'), COMMAND_DEADLINE_MS + 20_000).finally(() => (device.ackDelayMs = 0));
    expect(ended).toMatchObject({ fState: 'timed_out', fReplica: 'replica-a', fMessage: '设备响应超时（发送命令的服务已停止）' });
    // The running-status tab lists it so.
    const listed = await call(b, '/app/device/commands', { deviceId, size: 1 });
    expect(listed.data.records[0]).toMatchObject({ fState: 'timed_out' });

    expect(await call(b, '/app/device/send-switch', { deviceId, onOff: 1 })).toMatchObject({ success: true });
    expect((await commands()).at(-1)).toMatchObject({ fState: 'acknowledged', fReplica: 'replica-b' });
  });

  it('runs a timer once and its reverse once, though the replica that fired the timer is killed before the reverse is due', { timeout: 180_000 }, async () => {
    await start('replica-c');
    // On the next minute with at least a few seconds to spare, as a once-only timer whose reverse follows 12 s later.
    const due = new Date(Math.ceil((Date.now() + 5000) / 60_000) * 60_000);
    await rows(`insert into t_device_timing (f_device_id, f_time, f_valid_type, f_state, f_opt, f_reverse, f_reverse_second, f_run_next_time) values (${deviceId}, '00:00', 8, 1, 2, 1, 12, '${due.toISOString()}')`);
    const before = (await commands()).length;
    const fired = await until(async () => (await commands()).slice(before).find((c) => c.fSource === 'timer' && c.fState !== 'pending' && c.fState !== 'sent'), due.getTime() - Date.now() + 30_000);
    expect(fired).toMatchObject({ fName: '定时', fState: 'acknowledged' });
    const firer = replicas.find((r) => r.name === fired.fReplica)!;
    await stopProcess(firer.server);
    replicas.splice(replicas.indexOf(firer), 1);

    const reversed = await until(async () => (await commands()).slice(before).find((c) => c.fName === '定时反转' && c.fState !== 'pending' && c.fState !== 'sent'), 40_000);
    expect(reversed).toMatchObject({ fState: 'acknowledged', fReplica: replicas[0].name });
    // Nothing more follows: once each.
    await new Promise((r) => setTimeout(r, 3000));
    expect((await commands()).slice(before).map((c) => c.fName)).toEqual(['定时', '定时反转']);
    const [timer] = await rows(`select f_state, f_reverse_time from t_device_timing where f_device_id = ${deviceId}`);
    expect(timer).toMatchObject({ fState: 0, fReverseTime: null });
  });
});

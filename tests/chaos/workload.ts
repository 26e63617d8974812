/**
 * What the installation is doing while a fault is on, and the clients' own record of it:
 * - devices publishing numbered QoS 1 readings (tests/api/readings.ts) on sessions the broker keeps; the
 *   device counts a reading as sent once the broker acknowledged it;
 * - a console user saving a group on every replica twice a second, noting each answer (acknowledged,
 *   refused with its status, no answer within 5 s) and how long it took;
 * - a health probe of every replica;
 * - switch commands to a simulated device through the replicas in turn, and a once-only timer.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { reading } from '../api/readings';
import { ADMIN } from '../api/harness';
import { deviceTopic } from '../../server/mqtt/topics';
import { startSimulator, type SimulatorHandle } from '../../server/simulator/simulator';
import type { Cluster, Replica } from './cluster';

export type Outcome = 'acknowledged' | 'refused' | 'unavailable' | 'no answer';

export interface Answer {
  replica: string;
  /** Milliseconds since the epoch when asked, and how long the answer took. */
  at: number;
  ms: number;
  outcome: Outcome;
  status: number;
  /** The group saved (writes only). */
  name?: string;
}

export interface DeviceRecord {
  number: string;
  id: number;
  /** Readings 0…sent-1 were acknowledged by the broker; `base` + i is reading i's time. */
  sent: number;
  base: number;
}

export interface WorkloadRecord {
  devices: DeviceRecord[];
  writes: Answer[];
  probes: Answer[];
  commands: Answer[];
  commandDevice: { number: string; id: number };
  timer?: { id: number; due: Date };
}

export interface Workload {
  record: WorkloadRecord;
  /** Stops asking; what was asked is answered or abandoned first. */
  stop(): Promise<void>;
}

const TIMEOUT_MS = 5000;

async function ask(replica: Replica, path: string, init: RequestInit, what: Partial<Answer> = {}): Promise<Answer> {
  const at = Date.now();
  const answer = (outcome: Outcome, status: number): Answer => ({ replica: replica.name, at, ms: Date.now() - at, outcome, status, ...what });
  try {
    const res = await fetch(replica.url + path, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const body = await res.json().catch(() => ({}));
    if (res.status === 503) return answer('unavailable', 503);
    const ok = res.ok && (body.success === true || body.status === 'ok');
    return answer(ok ? 'acknowledged' : 'refused', res.status);
  } catch {
    return answer('no answer', 0);
  }
}

const post = (token: string, body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body: JSON.stringify(body) });

/** A device row of the run's own, of the demo's first device's product. */
async function addDevice(cluster: Cluster, number: string) {
  const { rows } = await cluster.db.query(
    `insert into t_device (f_number, f_name, f_product_id, f_type_id, f_user_id, t_online)
     select $1, $1, d.f_product_id, d.f_type_id, d.f_user_id, 0 from t_device d where d.f_number = 'DEV000001'
     returning f_id, f_type_id, (select f_number from t_product p where p.f_id = f_product_id) as product`,
    [number],
  );
  return rows[0] as { f_id: number; f_type_id: number; product: string };
}

export interface WorkloadOptions {
  devices?: number;
  /** Each device publishes a reading this often. */
  everyMs?: number;
  /** A once-only timer due on the first whole minute at least this far ahead (none when unset). */
  timerAfterMs?: number;
}

export async function startWorkload(cluster: Cluster, { devices: count = 3, everyMs = 50, timerAfterMs }: WorkloadOptions = {}): Promise<Workload> {
  const tag = Date.now().toString(36).toUpperCase();
  const record: WorkloadRecord = { devices: [], writes: [], probes: [], commands: [], commandDevice: { number: `CHC${tag}`, id: 0 } };
  const pending = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
    return p;
  };
  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, work: () => void) => timers.push(setInterval(work, ms));

  // A token from whichever replica answers: the replicas share the secret.
  let token = '';
  for (const r of cluster.replicas) {
    const res = await fetch(r.url + '/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName: ADMIN.phone, password: ADMIN.password }), signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(() => null);
    token = (await res?.json().catch(() => null))?.data?.token ?? '';
    if (token) break;
  }
  if (!token) throw new Error('no replica let the administrator sign in');

  const clients: MqttClient[] = [];
  for (let d = 0; d < count; d++) {
    const number = `CHD${tag}${d}`;
    const row = await addDevice(cluster, number);
    const device: DeviceRecord = { number, id: row.f_id, sent: 0, base: Date.now() - 86_400_000 };
    record.devices.push(device);
    // A device with a session the broker keeps and an offline queue of its own.
    const client = await mqtt.connectAsync(cluster.brokerUrl, { protocolVersion: 5, clientId: `chaos-${number}`, clean: false, properties: { sessionExpiryInterval: 3600 }, reconnectPeriod: 500 });
    clients.push(client);
    const topic = deviceTopic(row.product, number, 'up');
    let next = 0;
    // Readings go out one after another: the next only once the broker has the one before, so "sent" is a count.
    let busy = false;
    every(everyMs, () => {
      if (busy) return;
      busy = true;
      const i = next++;
      void track(client.publishAsync(topic, reading(number, device.base, i), { qos: 1 })).then(
        () => ((device.sent = i + 1), (busy = false)),
        () => ((next = i), (busy = false)),
      );
    });
  }

  const commandRow = await addDevice(cluster, record.commandDevice.number);
  record.commandDevice.id = commandRow.f_id;
  const simulator: SimulatorHandle = await startSimulator({ url: cluster.brokerUrl, devices: [{ productNumber: commandRow.product, deviceNumber: record.commandDevice.number, type: commandRow.f_type_id as 1 }], telemetryMs: 3_600_000 });

  if (timerAfterMs !== undefined) {
    const due = new Date(Math.ceil((Date.now() + timerAfterMs) / 60_000) * 60_000);
    const { rows } = await cluster.db.query(
      `insert into t_device_timing (f_device_id, f_time, f_valid_type, f_state, f_opt, f_reverse, f_reverse_second, f_run_next_time) values ($1, '00:00', 8, 1, 2, 0, 60, $2) returning f_id`,
      [commandRow.f_id, due],
    );
    record.timer = { id: rows[0].f_id, due };
  }

  let n = 0;
  every(500, () => {
    for (const r of cluster.replicas) {
      const name = `chaos-${r.name}-${tag}-${n++}`;
      void track(ask(r, '/biz/t-group/addorupdate', post(token, { fName: name }), { name })).then((a) => record.writes.push(a));
    }
  });
  every(500, () => {
    for (const r of cluster.replicas) void track(ask(r, '/healthz', {})).then((a) => record.probes.push(a));
  });
  let turn = 0;
  every(4000, () => {
    const r = cluster.replicas[turn++ % cluster.replicas.length];
    void track(ask(r, '/app/device/send-switch', post(token, { deviceId: commandRow.f_id, onOff: turn % 2 }))).then((a) => record.commands.push(a));
  });

  return {
    record,
    async stop() {
      for (const t of timers) clearInterval(t);
      await Promise.allSettled([...pending]);
      await simulator.stop();
      await Promise.all(clients.map((c) => c.endAsync()));
    },
  };
}

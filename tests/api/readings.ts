/**
 * Device readings as the fault tests count them: each test reading carries its sequence number as its
 * voltage and base + that number as its time, so the stored rows tell which are missing or doubled.
 */
import { sql } from 'kysely';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db';

/** The telemetry message of reading i (the time is base + i milliseconds). */
export function reading(device: string, base: number, i: number): string {
  return JSON.stringify({ bid: 'telemetry', ClientID: device, ts: base + i, voltage: i, current: 1, power: 220, energy: 1, temperature: 30, leakage: 1, switch: 1, lock: 0 });
}

/** Readings 0…count-1 of the device that the database lacks, and those it holds more than once (its server stopped). */
export async function storedReadings(where: { dataDir: string; databaseUrl?: string }, device: string, base: number, count: number) {
  const database = await openDatabase(loadConfig({ DATA_DIR: where.dataDir, DATABASE_URL: where.databaseUrl ?? '' }));
  try {
    const rows = (await sql<{ voltage: number }>`select t.voltage from t_device_telemetry t join t_device d on d.f_id = t.f_device_id where d.f_number = ${device} and t.f_time >= ${new Date(base).toISOString()}::timestamptz and t.f_time < ${new Date(base + count).toISOString()}::timestamptz`.execute(database.db)).rows;
    const seen = new Map<number, number>();
    for (const r of rows) seen.set(r.voltage, (seen.get(r.voltage) ?? 0) + 1);
    const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !seen.has(i));
    const twice = [...seen].filter(([, n]) => n > 1).map(([v]) => v);
    return { missing, twice, rows: rows.length };
  } finally {
    await database.close();
  }
}

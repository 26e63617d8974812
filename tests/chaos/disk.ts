/**
 * A full disk under the embedded database: a server on PGlite whose DATA_DIR is a small tmpfs, filled up
 * while a console user keeps saving groups. What must hold: writes refused with a clear message (not
 * hanging, not a bare server error), every write acknowledged before is still there after a restart
 * (nothing damaged), and writes succeed again once space returns.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN } from '../api/harness';
import { startProcess, stopProcess, type ServerProcess } from '../api/processes';

const MOUNT = '/tmp/chaos-disk';
/** The seeded embedded database takes about 65 MB; this leaves room to start and then fill. */
const SIZE = '96m';
const PORT = 8861;
const BROKER_PORT = 8862;

export interface DiskResult {
  size: string;
  acknowledgedBeforeFull: number;
  /** How writes were answered once the disk was full: message → count. */
  refusals: Record<string, number>;
  noAnswer: number;
  /** The server process ended by itself while the disk was full. */
  serverDied: boolean;
  /** After space came back and the server was restarted: acknowledged writes missing, and whether a write succeeds. */
  lostAfterRestart: number;
  writesAgain: boolean;
  violations: string[];
}

const start = (dataDir: string) =>
  startProcess({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', MQTT_URL: '', MQTT_PORT: String(BROKER_PORT), PORT: String(PORT), HOST: '127.0.0.1', SIMULATOR: 'off', SERVE_CONSOLE: '0', SKIP_CONSOLE_BUILD: '1', LOG_LEVEL: 'warn' }, 240_000);

async function call(server: ServerProcess, path: string, body: unknown, token = '') {
  try {
    const res = await fetch(server.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}) }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as { success?: boolean; message?: string; data?: any } };
  } catch {
    return null;
  }
}

export async function runDiskFull(log: (line: string) => void = console.log): Promise<DiskResult> {
  mkdirSync(MOUNT, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE}`, 'tmpfs', MOUNT]);
  const dataDir = join(MOUNT, 'data');
  const filler = join(MOUNT, 'filler');
  let server: ServerProcess | undefined;
  const result: DiskResult = { size: SIZE, acknowledgedBeforeFull: 0, refusals: {}, noAnswer: 0, serverDied: false, lostAfterRestart: 0, writesAgain: false, violations: [] };
  try {
    server = await start(dataDir);
    const login = await call(server, '/login', { userName: ADMIN.phone, password: ADMIN.password });
    const token = login?.body.data?.token as string;
    const acknowledged: string[] = [];
    const save = async (name: string) => {
      const answer = await call(server!, '/biz/t-group/addorupdate', { fName: name, fRemork: 'x'.repeat(200) }, token);
      if (answer?.body.success) acknowledged.push(name);
      return answer;
    };
    for (let i = 0; i < 20; i++) await save(`disk-before-${i}`);
    // Everything but 1 MB taken by a file beside the database.
    const { bavail, bsize } = statfsSync(MOUNT);
    writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 1024 * 1024)));
    log(`disk-full: ${MOUNT} filled to 1 MB free`);
    const before = acknowledged.length;
    for (let i = 0; i < 400 && !result.serverDied; i++) {
      const answer = await save(`disk-full-${i}`);
      if (!answer) result.noAnswer++;
      else if (!answer.body.success) result.refusals[`${answer.status} ${answer.body.message}`] = (result.refusals[`${answer.status} ${answer.body.message}`] ?? 0) + 1;
      result.serverDied = server.child.exitCode !== null || server.child.signalCode !== null;
    }
    result.acknowledgedBeforeFull = before;
    log(`disk-full: ${acknowledged.length - before} more writes acknowledged while full; refusals ${JSON.stringify(result.refusals)}; ${result.noAnswer} unanswered; server ${result.serverDied ? 'died' : 'kept running'}`);
    // Space returns; the server is restarted (as an operator would after freeing space) and checked.
    rmSync(filler);
    await stopProcess(server, 'SIGTERM');
    server = await start(dataDir);
    const again = await call(server, '/login', { userName: ADMIN.phone, password: ADMIN.password });
    const token2 = again?.body.data?.token as string;
    const listed = await call(server, '/biz/t-group/groups', { current: 1, size: 1000 }, token2);
    const names = new Set(((listed?.body.data?.records ?? listed?.body.data ?? []) as { fName: string }[]).map((g) => g.fName));
    result.lostAfterRestart = acknowledged.filter((n) => !names.has(n)).length;
    result.writesAgain = Boolean((await call(server, '/biz/t-group/addorupdate', { fName: 'disk-after' }, token2))?.body.success);
    if (result.noAnswer) result.violations.push(`${result.noAnswer} writes got no answer while the disk was full`);
    if (Object.keys(result.refusals).some((m) => !/disk|space|磁盘|空间/i.test(m))) result.violations.push(`writes were refused without saying the disk is full: ${Object.keys(result.refusals).join('; ')}`);
    if (result.serverDied) result.violations.push('the server died when the disk filled up');
    if (result.lostAfterRestart) result.violations.push(`${result.lostAfterRestart} acknowledged writes missing after the restart`);
    if (!result.writesAgain) result.violations.push('writes still fail once space is back');
    return result;
  } finally {
    if (server) await stopProcess(server).catch(() => undefined);
    execFileSync('umount', [MOUNT], { stdio: 'ignore' });
    rmSync(MOUNT, { recursive: true, force: true });
  }
}

/**
 * A full disk under the embedded database: a server on PGlite whose DATA_DIR is a small tmpfs, filled up
 * (by a file beside the database, as another program or the logs would) while a console user keeps saving
 * groups. What must hold: writes refused with a clear message once the free space falls below the reserve
 * (DISK_RESERVE_MB, server/db/diskSpace.ts), never hanging and never a bare server error; reads and the
 * health check answering meanwhile; writes going through again once space is freed, without a restart;
 * and every write acknowledged before is still there after a restart (nothing damaged).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN } from '../api/harness';
import { startProcess, stopProcess, type ServerProcess } from '../api/processes';

const MOUNT = '/tmp/chaos-disk';
/** The seeded embedded database takes about 100 MB; this leaves room to start, and then to fill. */
const SIZE = '256m';
/** The reserve the server keeps (DISK_RESERVE_MB); the filler leaves a little more than this free. */
const RESERVE_MB = 32;
const FILL_TO_MB = RESERVE_MB + 2;
const PORT = 8861;
const BROKER_PORT = 8862;

export interface DiskResult {
  size: string;
  acknowledgedBeforeFull: number;
  /** How writes were answered once the disk was full: message → count. */
  refusals: Record<string, number>;
  noAnswer: number;
  /** Writes acknowledged after the filler came and before the first refusal (the room left above the reserve). */
  acknowledgedWhileFilling: number;
  /** While the disk was full: the list and /healthz answered. */
  readsAnswered: boolean;
  /** Once the filler was removed, before any restart: a write succeeded. */
  writesAgainWithoutRestart: boolean;
  /** The server process ended by itself while the disk was full. */
  serverDied: boolean;
  /** After space came back and the server was restarted: acknowledged writes missing, and whether a write succeeds. */
  lostAfterRestart: number;
  writesAgain: boolean;
  violations: string[];
}

const start = (dataDir: string) =>
  startProcess({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', MQTT_URL: '', MQTT_PORT: String(BROKER_PORT), PORT: String(PORT), HOST: '127.0.0.1', SIMULATOR: 'off', SERVE_CONSOLE: '0', SKIP_CONSOLE_BUILD: '1', LOG_LEVEL: 'warn', DISK_RESERVE_MB: String(RESERVE_MB) }, 240_000);

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
  const result: DiskResult = { size: SIZE, acknowledgedBeforeFull: 0, refusals: {}, noAnswer: 0, acknowledgedWhileFilling: 0, readsAnswered: false, writesAgainWithoutRestart: false, serverDied: false, lostAfterRestart: 0, writesAgain: false, violations: [] };
  try {
    server = await start(dataDir);
    const login = await call(server, '/login', { userName: ADMIN.phone, password: ADMIN.password });
    const token = login?.body.data?.token as string;
    const acknowledged: string[] = [];
    const save = async (name: string) => {
      const answer = await call(server!, '/biz/t-group/addorupdate', { fName: name, fRemork: 'x'.repeat(480) }, token);
      if (answer?.body.success) acknowledged.push(name);
      return answer;
    };
    for (let i = 0; i < 20; i++) await save(`disk-before-${i}`);
    // The disk filled to a little above the reserve by a file beside the database.
    const { bavail, bsize } = statfsSync(MOUNT);
    writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - FILL_TO_MB * 2 ** 20)));
    log(`disk-full: ${MOUNT} filled to ${FILL_TO_MB} MB free (reserve ${RESERVE_MB} MB)`);
    const before = acknowledged.length;
    let refused = 0;
    for (let i = 0; i < 3000 && refused < 50 && !result.serverDied; i++) {
      const answer = await save(`disk-full-${i}`);
      if (!answer) result.noAnswer++;
      else if (!answer.body.success) {
        refused++;
        result.refusals[`${answer.status} ${answer.body.message}`] = (result.refusals[`${answer.status} ${answer.body.message}`] ?? 0) + 1;
      } else if (!refused) result.acknowledgedWhileFilling++;
      result.serverDied = server.child.exitCode !== null || server.child.signalCode !== null;
    }
    result.acknowledgedBeforeFull = before;
    const listed = await call(server, '/biz/t-group/groups', { current: 1, size: 10 }, token);
    const health = await fetch(server.url + '/healthz', { signal: AbortSignal.timeout(10_000) }).then((r) => r.ok, () => false);
    result.readsAnswered = Boolean(listed?.body.success) && health;
    log(`disk-full: ${result.acknowledgedWhileFilling} writes acknowledged before the first refusal; refusals ${JSON.stringify(result.refusals)}; ${result.noAnswer} unanswered; reads ${result.readsAnswered ? 'answered' : 'NOT answered'}; server ${result.serverDied ? 'died' : 'kept running'}`);
    // Space returns: writes go through again without a restart.
    rmSync(filler);
    await new Promise((r) => setTimeout(r, 500));
    result.writesAgainWithoutRestart = Boolean((await save('disk-freed'))?.body.success);
    // Restarted (as after any stop), everything acknowledged is there and writes go on.
    await stopProcess(server, 'SIGTERM');
    server = await start(dataDir);
    const again = await call(server, '/login', { userName: ADMIN.phone, password: ADMIN.password });
    const token2 = again?.body.data?.token as string;
    const all = await call(server, '/biz/t-group/groups', { current: 1, size: 5000 }, token2);
    const names = new Set(((all?.body.data?.records ?? all?.body.data ?? []) as { fName: string }[]).map((g) => g.fName));
    result.lostAfterRestart = acknowledged.filter((n) => !names.has(n)).length;
    result.writesAgain = Boolean((await call(server, '/biz/t-group/addorupdate', { fName: 'disk-after' }, token2))?.body.success);
    if (!token) result.violations.push('the server gave no sign-in before the disk filled: nothing was checked');
    if (!refused) result.violations.push('no write was refused: the disk never filled');
    if (!result.readsAnswered) result.violations.push('reads or the health check went unanswered while the disk was full');
    if (!result.writesAgainWithoutRestart) result.violations.push('writes still failed once space was freed, before a restart');
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

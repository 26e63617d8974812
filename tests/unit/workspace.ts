/** Temporary copies of the generator's inputs, history and generated folders, to change and regenerate freely. */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENERATED_DIRS } from '../../generator/generate';
import { MIGRATIONS_DIR } from '../../generator/history';

export const ROOT = join(import.meta.dirname, '..', '..');
const temps: string[] = [];

export function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'iot-gen-'));
  temps.push(dir);
  for (const d of ['schemas', 'resources', MIGRATIONS_DIR, ...GENERATED_DIRS]) cpSync(join(ROOT, d), join(dir, d), { recursive: true });
  // The code is an input too: the console's texts of the catalogues, and the codes of the reasons each
  // call answers (generator/reasons.ts reads them from the server's modules).
  for (const d of ['app', 'adapters', 'contract', 'server']) cpSync(join(ROOT, d), join(dir, d), { recursive: true });
  return dir;
}

/** Removes the workspaces made so far (afterEach). */
export function removeWorkspaces() {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Changes one JSON file of a workspace in place. */
export function edit(dir: string, file: string, change: (json: any) => void) {
  const path = join(dir, file);
  const json = JSON.parse(readFileSync(path, 'utf8'));
  change(json);
  writeFileSync(path, JSON.stringify(json, null, 2));
}

/** Temporary copies of the generator's inputs, history and generated folders, to change and regenerate freely. */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GENERATED_DIRS } from '../../generator/generate';
import { MIGRATIONS_DIR } from '../../generator/history';
import { FIRST_SCREEN_FILE, handWrittenMessageFiles } from '../../generator/emit/catalogues';

export const ROOT = join(import.meta.dirname, '..', '..');
const temps: string[] = [];

export function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'iot-gen-'));
  temps.push(dir);
  for (const d of ['schemas', 'resources', MIGRATIONS_DIR, ...GENERATED_DIRS]) cpSync(join(ROOT, d), join(dir, d), { recursive: true });
  // The console's hand-written texts are inputs of the generated catalogues.
  for (const f of [...handWrittenMessageFiles(ROOT), FIRST_SCREEN_FILE]) if (existsSync(join(ROOT, f))) cpSync(join(ROOT, f), join(dir, f));
  // Some of those texts are the server's own words, read from the neutral modules beside the adapters.
  for (const f of readdirSync(join(ROOT, 'adapters')).filter((name) => name.endsWith('.ts'))) cpSync(join(ROOT, 'adapters', f), join(dir, 'adapters', f));
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

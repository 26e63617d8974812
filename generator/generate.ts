/** Runs every emitter and writes, or compares, the generated folders. */
import { readFileSync, writeFileSync, mkdirSync, readdirSync, rmSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { loadModel, type Model } from './model';
import { nextMigration, readCommittedSnapshot } from './history';
import { replayHistory } from './replay';
import { emitTypes } from './emit/types';
import { emitEndpoints } from './emit/endpoints';
import { emitConsole, declaredMessages } from './emit/console';
import { emitCatalogues } from './emit/catalogues';
import { emitServer } from './emit/server';
import { checkedReasons, emitReasons, emitReasonsByCall, reasonMessages } from './reasons';
import { emitCalls, loadCalls } from './calls';
import { LANGS } from './model';

/** The folders that hold nothing but generated files; anything else found in them is stale. */
export const GENERATED_DIRS = ['adapters/generated', 'app/generated', 'server/generated', 'contract/generated'];

export async function render(root: string, model: Model = loadModel(root)): Promise<Record<string, string>> {
  const reasons = checkedReasons(root, model);
  const declared = declaredMessages(model);
  for (const lang of LANGS) declared[lang].reasons = reasonMessages(reasons, lang);
  return {
    ...(await emitTypes(model)),
    ...emitEndpoints(model),
    ...emitConsole(model),
    ...(await emitCatalogues(root, declared)),
    ...emitServer(model),
    ...emitReasons(reasons),
    ...emitReasonsByCall(root, model, reasons, loadCalls(root, model)),
    ...emitCalls(root, model),
  };
}

function listFiles(root: string, dir: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? listFiles(root, path) : [path];
  });
}

/**
 * Files that differ from what the inputs produce: changed, missing, or no longer produced; and, when all
 * are current, every way the migrations, run on an empty database, disagree with the snapshot.
 */
export async function stale(root: string, { replay = true }: { replay?: boolean } = {}): Promise<string[]> {
  const model = loadModel(root);
  const files = await render(root, model);
  const out: string[] = [];
  const pending = nextMigration(root, readCommittedSnapshot(root), model);
  if (pending) out.push(`${pending.path} (a migration for the schema changes is missing)`);
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    if (!existsSync(abs) || readFileSync(abs, 'utf8') !== content) out.push(path);
  }
  for (const dir of GENERATED_DIRS) for (const path of listFiles(root, dir)) if (!(path in files)) out.push(path);
  // Replayed only when everything else is current: until then the answer is `npm run gen` anyway.
  if (!out.length && replay) out.push(...(await replayHistory(root, model)).map((d) => `migrations disagree with the snapshot: ${d}`));
  return out.sort();
}

export async function write(root: string): Promise<string[]> {
  const model = loadModel(root);
  // Planned before anything is written: a refused change (data loss without a decision) leaves every file as it was.
  const migration = nextMigration(root, readCommittedSnapshot(root), model);
  const files = { ...(await render(root, model)), ...(migration ? { [migration.path]: migration.content } : {}) };
  const changed: string[] = [];
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    if (existsSync(abs) && readFileSync(abs, 'utf8') === content) continue;
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
    changed.push(path);
  }
  for (const dir of GENERATED_DIRS) {
    for (const path of listFiles(root, dir)) {
      if (!(path in files)) {
        rmSync(join(root, path));
        changed.push(`${relative(root, join(root, path))} (removed)`);
      }
    }
  }
  return changed;
}

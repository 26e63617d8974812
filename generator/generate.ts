/** Runs every emitter and writes, or compares, the generated folders. */
import { readFileSync, writeFileSync, mkdirSync, readdirSync, rmSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { loadModel } from './model';
import { emitTypes } from './emit/types';
import { emitEndpoints } from './emit/endpoints';
import { emitConsole } from './emit/console';
import { emitServer } from './emit/server';

/** The folders that hold nothing but generated files; anything else found in them is stale. */
export const GENERATED_DIRS = ['adapters/generated', 'app/generated', 'server/generated'];

export async function render(root: string): Promise<Record<string, string>> {
  const model = loadModel(root);
  return {
    ...(await emitTypes(model)),
    ...emitEndpoints(model),
    ...emitConsole(model),
    ...emitServer(model),
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

/** Files that differ from what the inputs produce: changed, missing, or no longer produced. */
export async function stale(root: string): Promise<string[]> {
  const files = await render(root);
  const out: string[] = [];
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    if (!existsSync(abs) || readFileSync(abs, 'utf8') !== content) out.push(path);
  }
  for (const dir of GENERATED_DIRS) for (const path of listFiles(root, dir)) if (!(path in files)) out.push(path);
  return out.sort();
}

export async function write(root: string): Promise<string[]> {
  const files = await render(root);
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

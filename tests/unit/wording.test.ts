/**
 * Every text the server answers is declared once, in the catalogue (schemas/reasons/) or the schemas:
 * no Chinese string literal is left in server/ outside the seeds and the generated files, and the
 * console no longer reads the server's words back to its own keys.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const HAN = /[\u4e00-\u9fff]/;

function files(dir: string, keep: (path: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' || name === 'node_modules' ? [] : files(path, keep);
    return /\.tsx?$/.test(name) && keep(relative(ROOT, path)) ? [path] : [];
  });
}

/** The seeds fill a demo installation with Chinese names and texts; they are data, not answers. */
const isSeed = (path: string) => path.startsWith('server/db/demo/') || /Seed\.ts$/.test(path) || path === 'server/db/seed.ts';

/** The string literals of a source file (comments left out), with their lines. */
function literals(path: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { line: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node) || ts.isJsxText(node)) {
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the server’s words', () => {
  it('come from the catalogue and the schemas: no Chinese string literal in server/ outside seeds and generated files', () => {
    const offenders = files(join(ROOT, 'server'), (p) => !isSeed(p)).flatMap((path) =>
      literals(path)
        .filter((l) => HAN.test(l.text))
        .map((l) => `${relative(ROOT, path)}:${l.line} ${l.text.slice(0, 40)}`),
    );
    expect(offenders).toEqual([]);
  });

  it('are not read back by the console: it translates a refusal by its code, in one place', () => {
    for (const gone of ['app/components/serverText.ts', 'app/components/signOffText.ts', 'app/components/importText.ts', 'app/devices/commandText.ts', 'app/devices/shareText.ts', 'adapters/systemRefusals.ts']) {
      expect(existsSync(join(ROOT, gone)), gone).toBe(false);
    }
    const console = files(join(ROOT, 'app'), () => true).concat(files(join(ROOT, 'adapters'), () => true));
    const readers = console.filter((path) => /readBack|ROW_LINE|KEY_OF|第\(\\d\+\)行/.test(readFileSync(path, 'utf8'))).map((p) => relative(ROOT, p));
    expect(readers).toEqual([]);
  });
});

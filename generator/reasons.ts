/**
 * The catalogue of what the server can answer besides data: every refusal and every notice, declared once
 * in `schemas/reasons/<area>.json` as a stable code with its text in each language. Parameters are the
 * `{name}` placeholders of the texts, the same in every language. From it the generator emits the typed
 * codes both sides import (contract/generated/reasons.ts) and the console's translations (the `reasons`
 * branch of its catalogues), and it checks that every declared code is used somewhere in the code and the
 * other way round (a use of an undeclared code is a type error).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LANGS, InvalidInputs, type Lang, type Model, type Problem } from './model';
import { tsHeader, literal } from './emit/common';
import { CALLS_DIR, type NamedCall } from './calls';

export interface ReasonDecl {
  /** The file that declares it (schemas/reasons/<area>.json). */
  file: string;
  /** The envelope's `code` when it refuses: 400 by default, 409 for a duplicate, 429 for too many. */
  status: number;
  params: string[];
  text: Record<Lang, string>;
}

export type Reasons = Record<string, ReasonDecl>;

export const REASONS_DIR = join('schemas', 'reasons');
const CODE = /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/;
const PLACEHOLDER = /\{(\w+)\}/g;

const placeholders = (text: string) => [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))].sort();

export function loadReasons(root: string, problems: Problem[]): Reasons {
  const dir = join(root, REASONS_DIR);
  const reasons: Reasons = {};
  if (!existsSync(dir)) return reasons;
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const file = `schemas/reasons/${name}`;
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
    } catch (e) {
      problems.push({ file, pointer: '/', message: `not JSON: ${(e as Error).message}`, hint: 'fix the syntax' });
      continue;
    }
    for (const [code, entry] of Object.entries(data)) {
      if (code === '$comment') continue;
      const push = (message: string, hint: string) => problems.push({ file, pointer: `/${code.replace(/\//g, '~1')}`, message, hint });
      if (!CODE.test(code)) {
        push(`"${code}" is not a code`, 'lower camel-case words joined by dots, at least two: area.name');
        continue;
      }
      if (reasons[code]) {
        push(`"${code}" is declared twice`, `it is also in ${reasons[code].file}`);
        continue;
      }
      const e = (entry ?? {}) as Record<string, unknown>;
      const unknown = Object.keys(e).filter((k) => !['status', ...LANGS].includes(k));
      if (unknown.length) push(`unknown key(s) ${unknown.join(', ')}`, `an entry holds ${LANGS.join(', ')} and optionally status`);
      const missing = LANGS.filter((l) => typeof e[l] !== 'string' || !(e[l] as string).trim());
      if (missing.length) {
        push(`no text in ${missing.join(', ')}`, 'every language needs its text; zh-CN in the spec’s exact words where the spec gives them');
        continue;
      }
      const text = Object.fromEntries(LANGS.map((l) => [l, e[l] as string])) as Record<Lang, string>;
      const params = placeholders(text['zh-CN']);
      for (const l of LANGS.slice(1)) {
        const own = placeholders(text[l]);
        if (own.join() !== params.join()) push(`${l} has the placeholders {${own.join('}, {')}} where zh-CN has {${params.join('}, {')}}`, 'every language names the same parameters');
      }
      const status = e.status === undefined ? 400 : e.status;
      if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 999) push('status must be an envelope code', 'a whole number such as 400, 409 or 429');
      reasons[code] = { file, status: status as number, params, text };
    }
  }
  const codes = Object.keys(reasons).sort();
  for (let i = 1; i < codes.length; i++) {
    if (codes[i].startsWith(codes[i - 1] + '.')) problems.push({ file: reasons[codes[i]].file, pointer: `/${codes[i]}`, message: `"${codes[i]}" extends the code "${codes[i - 1]}"`, hint: 'a code may not be the start of another one; rename one of them' });
  }
  return reasons;
}

/** The hand-written source a code may be used in: the server, the console, its providers and the shared modules. */
const SOURCE_DIRS = ['server', 'app', 'adapters', 'contract'];
const GENERATED = new Set(['generated']);

function sources(root: string, dir: string): string[] {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    if (GENERATED.has(name)) return [];
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sources(root, path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The declarations whose calls' bodies name codes (a property's `x-message(s)`): the resource and calls files. */
function declarationFiles(root: string): string[] {
  const list = (dir: string, end: string) => (existsSync(join(root, dir)) ? readdirSync(join(root, dir)).filter((n) => n.endsWith(end)).map((n) => `${dir}/${n}`) : []);
  return [...list('resources', '.resource.json'), ...list(CALLS_DIR, '.json')];
}

/** The codes a declared body names in its properties' `x-message` and `x-messages` (a code, or `{ code, params }`). */
function codesOfSchema(schema: unknown, into: Set<string>) {
  if (Array.isArray(schema)) return schema.forEach((s) => codesOfSchema(s, into));
  if (!schema || typeof schema !== 'object') return;
  for (const [key, value] of Object.entries(schema)) {
    const words = key === 'x-message' ? [value] : key === 'x-messages' && value && typeof value === 'object' ? Object.values(value) : null;
    if (words) for (const w of words) into.add(typeof w === 'string' ? w : String((w as { code?: unknown })?.code));
    else codesOfSchema(value, into);
  }
}

/** Declared codes no source names as a string literal: a refusal nobody can answer any more. */
export function unusedReasons(root: string, reasons: Reasons): Problem[] {
  // A workspace of declarations alone (the generator's own tests) has no server code to answer them.
  if (!sources(root, 'server').length) return [];
  const files = [...SOURCE_DIRS.flatMap((d) => sources(root, d)), ...declarationFiles(root)];
  const text = files.map((f) => readFileSync(join(root, f), 'utf8')).join('\n');
  const used = new Set([...text.matchAll(/['"`]([a-z][A-Za-z0-9]*(?:\.[a-z][A-Za-z0-9]*)+)['"`]/g)].map((m) => m[1]));
  return Object.entries(reasons)
    .filter(([code]) => !used.has(code))
    .map(([code, r]) => ({ file: r.file, pointer: `/${code}`, message: `"${code}" is declared but no code answers it`, hint: 'remove it, or refuse with it' }));
}

/** contract/generated/reasons.ts: the codes, their parameters and texts, for the server and the console alike. */
export function emitReasons(reasons: Reasons): Record<string, string> {
  const codes = Object.keys(reasons).sort();
  const table = Object.fromEntries(codes.map((c) => [c, { status: reasons[c].status, params: reasons[c].params, ...reasons[c].text }]));
  const paramTypes = codes.map((c) => `  ${JSON.stringify(c)}: ${reasons[c].params.length ? `{ ${reasons[c].params.map((p) => `${p}: string | number`).join('; ')} }` : 'Record<string, never>'};`).join('\n');
  const content = `${tsHeader}/** Every refusal and notice the server answers (schemas/reasons/): code → status, parameters, text by language. */
export const REASONS = ${literal(table)} as const;

export type ReasonCode = keyof typeof REASONS;

/** The parameters each code's text fills in. */
export interface ReasonParams {
${paramTypes}
}

/** The codes whose text has no parameters. */
export type PlainReasonCode = { [C in ReasonCode]: ReasonParams[C] extends Record<string, never> ? C : never }[ReasonCode];
`;
  return { 'contract/generated/reasons.ts': content };
}

/** The console's \`reasons\` branch: each code's text in one language, with polyglot's %{name} placeholders. */
export function reasonMessages(reasons: Reasons, lang: Lang): Record<string, unknown> {
  const tree: Record<string, unknown> = {};
  for (const [code, r] of Object.entries(reasons)) {
    const parts = code.split('.');
    let node = tree;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1]] = r.text[lang].replace(PLACEHOLDER, '%{$1}');
  }
  return tree;
}

/**
 * A field's own messages (a schema's `x-messages`) are codes too, `<entity>.<field>.<rule>`, and so is an
 * endpoint's notice (a resource file's `message`), `<entity>.<action>.done`: the CRUD engine answers
 * them, so they are declared beside the entity and never named in the code.
 */
export function fieldReasons(model: Model): Reasons {
  const reasons: Reasons = {};
  for (const { name, schemaFile: file, resourceFile, schema, resource } of model.entities) {
    for (const [field, p] of Object.entries(schema.properties)) {
      for (const [rule, text] of Object.entries(p['x-messages'] ?? {})) {
        reasons[`${name}.${field}.${rule}`] = { file, status: rule === 'unique' ? 409 : 400, params: placeholders(text['zh-CN']), text: { ...text } };
      }
    }
    for (const [action, ep] of Object.entries(resource.endpoints)) {
      if (ep.message) reasons[`${name}.${action}.done`] = { file: resourceFile, status: 200, params: placeholders(ep.message['zh-CN']), text: { ...ep.message } };
    }
  }
  return reasons;
}

/** The catalogue and the fields' messages, every problem thrown at once (InvalidInputs), as the generator's other inputs. */
export function checkedReasons(root: string, model: Model): Reasons {
  const problems: Problem[] = [];
  const declared = loadReasons(root, problems);
  if (!problems.length) problems.push(...unusedReasons(root, declared));
  const fields = fieldReasons(model);
  for (const code of Object.keys(fields)) {
    if (declared[code]) problems.push({ file: declared[code].file, pointer: `/${code}`, message: `"${code}" is also a field's message of ${fields[code].file}`, hint: 'rename the code in the catalogue' });
  }
  if (problems.length) throw new InvalidInputs(problems);
  return { ...declared, ...fields };
}

/** The layers every call passes through: the codes they answer are every call's (`commonReasons`). */
const LAYERS = ['server/http/', 'server/crud/', 'server/db/'];
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * The codes each call can answer, read from the code: those its module names and those of the modules
 * beside it (same folder) that it imports, or that another domain's public module it imports lets out;
 * an entity's call adds its fields' messages and its notice. The layers every call passes through answer
 * the common ones. A module's codes are all its calls' alike, so
 * the list errs on the side of too many. The OpenAPI document shows them with the call (`x-reasons`).
 */
export function emitReasonsByCall(root: string, model: Model, reasons: Reasons, calls: NamedCall[] = []): Record<string, string> {
  const declared = new Set(Object.keys(reasons));
  const files = sources(root, 'server');
  const named = new Map<string, Set<string>>();
  const imports = new Map<string, string[]>();
  const registers = new Map<string, string>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    named.set(file, new Set([...text.matchAll(/['"`]([a-z][A-Za-z0-9]*(?:\.[a-z][A-Za-z0-9]*)+)['"`]/g)].map((m) => m[1]).filter((c) => declared.has(c))));
    imports.set(
      file,
      [...text.matchAll(RELATIVE_IMPORT)].map((m) => resolveSource(root, file, m[1])).filter((f): f is string => !!f),
    );
    for (const m of text.matchAll(/\bcall:\s*'([\w.]+)'/g)) registers.set(m[1], file);
  }
  const folder = (file: string) => file.slice(0, file.lastIndexOf('/'));
  const closure = (start: string) => {
    const codes = new Set(named.get(start) ?? []);
    const add = (file: string) => named.get(file)?.forEach((c) => codes.add(c));
    for (const next of imports.get(start) ?? []) {
      if (folder(next) === folder(start)) add(next);
      // Another domain's public module: the modules it lets out.
      else if (next.endsWith('/index.ts')) (imports.get(next) ?? []).forEach(add);
    }
    return codes;
  };
  const common = new Set<string>();
  for (const file of files) if (LAYERS.some((l) => file.startsWith(l))) for (const c of named.get(file) ?? []) common.add(c);
  const byCall: Record<string, string[]> = {};
  for (const [name, file] of registers) byCall[name] = [...closure(file)].filter((c) => !common.has(c)).sort();
  for (const { name, resource } of model.entities) {
    const own = Object.keys(reasons).filter((c) => c.startsWith(`${name}.`) && (c.split('.').length === 3));
    const module = resource.server ? files.find((f) => f.endsWith(`server/${resource.server!.module}.ts`)) : undefined;
    const hooks = module ? closure(module) : new Set<string>();
    for (const action of Object.keys(resource.endpoints)) {
      byCall[`${name}.${action}`] ??= [...new Set([...hooks, ...own.filter((c) => !c.endsWith('.done') || c === `${name}.${action}.done`)])].filter((c) => !common.has(c)).sort();
    }
  }
  // A declared body refuses with the codes its properties name.
  for (const call of calls) {
    const ep = call.entity ? model.entities.find((e) => e.name === call.entity)!.resource.endpoints[call.action!] : undefined;
    const body = call.decl?.body ?? (typeof ep?.body === 'object' ? ep.body : undefined);
    if (!body || !byCall[call.name]) continue;
    const named = new Set<string>();
    codesOfSchema(body, named);
    byCall[call.name] = [...new Set([...byCall[call.name], ...[...named].filter((c) => declared.has(c) && !common.has(c))])].sort();
  }
  // The calls of one module answer the same codes: each list is written once and named by its calls.
  const lists: string[][] = [];
  const indexOf = new Map<string, number>();
  const byName = Object.keys(byCall)
    .sort()
    .map((name) => {
      const key = byCall[name].join();
      if (!indexOf.has(key)) indexOf.set(key, lists.push(byCall[name]) - 1);
      return `  ${JSON.stringify(name)}: LISTS[${indexOf.get(key)}],`;
    });
  return {
    'server/generated/reasons.ts': `${tsHeader}/** The codes every call can answer, and those each call adds (generator/reasons.ts reads them from the code). */
import type { ReasonCode } from '../../contract/generated/reasons';

export const commonReasons: readonly ReasonCode[] = ${literal([...common].sort())};

const LISTS: readonly (readonly ReasonCode[])[] = [
${lists.map((l) => `  ${JSON.stringify(l)},`).join('\n')}
];

export const reasonsByCall: Record<string, readonly ReasonCode[]> = {
${byName.join('\n')}
};
`,
  };
}

function resolveSource(root: string, from: string, spec: string): string | undefined {
  const base = join(from, '..', spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    if (existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile()) return candidate;
  }
  return undefined;
}

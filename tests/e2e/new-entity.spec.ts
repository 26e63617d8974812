/**
 * "An entity in five minutes": in a copy of the repository, `gen:new` writes the schema and the resource,
 * one property is added to them (a label in three languages, a list column, a filter, a form field),
 * `gen` turns them into code, and after one console build and one server start the administrator finds
 * the entity's page, list, form, filter and buttons in the console and its calls in the API document,
 * with no hand-written code.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { expect, test, ADMIN, login, openMenu, shot } from './helpers';

const REPO = resolve(import.meta.dirname, '..', '..');
// The repository's own server takes E2E_PORT (and E2E_PORT + 10000 for its broker): the copy takes the next ones.
const PORT = Number(process.env.E2E_PORT ?? 8181) + 1;
const BASE = `http://127.0.0.1:${PORT}`;
const ENTITY = 'gadget';
const COLOUR = { 'zh-CN': '颜色', 'zh-TW': '顏色', 'en-US': 'Colour' };
const TITLE = { 'zh-CN': '小工具', 'zh-TW': '小工具', 'en-US': 'Gadgets' };
const SECTION = 'system-manage';

let copy = '';
let server: ChildProcess | undefined;

test.use({ baseURL: BASE });
test.describe.configure({ timeout: 240_000 });

function run(cwd: string, args: string[]) {
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

function editJson(file: string, edit: (json: Record<string, any>) => void) {
  const json = JSON.parse(readFileSync(file, 'utf8'));
  edit(json);
  writeFileSync(file, JSON.stringify(json, null, 2) + '\n');
}

test.beforeAll(async () => {
  // Generating, building and starting a whole copy takes minutes on a loaded machine.
  test.setTimeout(300_000);
  copy = mkdtempSync(join(tmpdir(), 'iot-new-entity-'));
  const files = spawnSync('git', ['ls-files', '-z'], { cwd: REPO, encoding: 'utf8' }).stdout.split('\0').filter(Boolean);
  for (const f of files) {
    mkdirSync(dirname(join(copy, f)), { recursive: true });
    cpSync(join(REPO, f), join(copy, f));
  }
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
  const tsx = join(REPO, 'node_modules', 'tsx', 'dist', 'cli.mjs');

  // The two files `gen:new` writes, then the edits a developer makes to them.
  const made = run(copy, [tsx, 'generator/cli.ts', 'new', ENTITY, '--parent', SECTION]);
  expect(made).toContain(`schemas/${ENTITY}.schema.json`);
  editJson(join(copy, 'schemas', `${ENTITY}.schema.json`), (s) => {
    s['x-label'] = TITLE;
    s.properties.fColor = { type: 'string', maxLength: 20, 'x-label': COLOUR };
    // Its keyword filter needs an index, as `gen` says when it is missing.
    s['x-db'].indexes.push({ trigram: 'fColor' });
  });
  editJson(join(copy, 'resources', `${ENTITY}.resource.json`), (r) => {
    r.menu.title = TITLE;
    r.list.columns.splice(1, 0, 'fColor');
    r.list.filters.push({ key: 'color', field: 'fColor', op: 'like' });
    r.form.fields.push('fColor');
  });
  run(copy, [tsx, 'generator/cli.ts', 'generate']);
  run(copy, [join(REPO, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'error']);

  const dataDir = join(copy, '.data');
  const log = createWriteStream(join(copy, 'server.log'));
  server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: copy,
    env: { ...process.env, PORT: String(PORT), MQTT_PORT: String(PORT + 10000), DATA_DIR: dataDir, DATABASE_URL: '', MQTT_URL: '', LOG_LEVEL: 'warn', SKIP_CONSOLE_BUILD: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.pipe(log);
  server.stderr!.pipe(log);
  const exited = new Promise<never>((_, reject) => server!.once('exit', (code) => reject(new Error(`the copy's server exited (${code}):\n${readFileSync(join(copy, 'server.log'), 'utf8')}`))));
  const ready = (async () => {
    for (;;) {
      const ok = await fetch(`${BASE}/healthz`).then((r) => r.ok, () => false);
      if (ok) return;
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  await Promise.race([ready, exited]);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const gone = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await Promise.race([gone, new Promise((r) => setTimeout(r, 10_000))]);
    if (server.exitCode === null) server.kill('SIGKILL');
  }
  if (copy) rmSync(copy, { recursive: true, force: true });
});

test('a scaffolded and edited entity appears in the console and the API after gen and a restart', async ({ page }) => {
  await login(page);

  // The generated menu entry, last in the section `--parent` named, granted to the administrator with every code of the resource.
  await page.getByTestId(`menu-section-${SECTION}`).click();
  const item = page.getByTestId(`menu-item-${ENTITY}`);
  await expect(item).toHaveText(TITLE['zh-CN']);
  const unfolded = page.getByTestId(`menu-section-${SECTION}`).locator('xpath=following-sibling::*[1]');
  await expect(unfolded.locator('[data-testid^="menu-item-"]').last()).toHaveAttribute('data-testid', `menu-item-${ENTITY}`);
  await openMenu(page, ENTITY, SECTION);
  const list = page.getByTestId(`${ENTITY}-list`);
  await expect(list.getByRole('columnheader', { name: COLOUR['zh-CN'] })).toBeVisible();
  await expect(page.getByTestId('filter-color')).toBeVisible();

  // The form: the declared required message first, then a saved row.
  await page.getByTestId('list-add').click();
  const form = page.getByTestId('form-dialog');
  await page.getByTestId('form-save').click();
  await expect(form.getByText('名称不能为空')).toBeVisible();
  await page.getByTestId('form-input-fName').fill('端到端小工具');
  await page.getByTestId('form-input-fColor').fill('天蓝');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await expect(form).toBeHidden();
  await page.getByTestId('list-add').click();
  await page.getByTestId('form-input-fName').fill('另一个小工具');
  await page.getByTestId('form-input-fColor').fill('橙');
  await page.getByTestId('form-save').click();
  await expect(form).toBeHidden();

  // The new filter finds the row by the added property.
  const rows = page.getByTestId('list-row');
  await expect(rows).toHaveCount(2);
  await page.getByTestId('filter-color').fill('蓝');
  await page.getByTestId('list-query').click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('端到端小工具');
  await expect(rows.first()).toContainText('天蓝');
  // The administrator holds the edit and delete codes, so the row's buttons are there.
  await expect(rows.first().getByTestId('list-edit')).toBeVisible();
  await expect(rows.first().getByTestId('list-delete')).toBeVisible();
  await shot(page, 'new-entity-list');

  // The API document lists the entity's calls for the administrator.
  const signIn = await (await fetch(`${BASE}/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName: ADMIN.phone, password: ADMIN.password }) })).json();
  const doc = await (await fetch(`${BASE}/openapi.json`, { headers: { authorization: signIn.data.token } })).json();
  const paths = Object.keys(doc.paths);
  for (const call of ['pagelist', 'addorupdate', 'del']) expect(paths).toContain(`/biz/t-${ENTITY}/${call}`);
  // The added property is in the entity's schema, and its filter in the list call's conditions.
  expect(doc.components.schemas[ENTITY].properties).toHaveProperty('fColor');
  expect(doc.paths[`/biz/t-${ENTITY}/pagelist`].post.requestBody.content['application/json'].schema.properties.condition.properties).toHaveProperty('color');
});

/**
 * What a user used to trip over: the charts (nivo, in a chunk of their own, every value reachable from
 * the keyboard), the unsigned-alarm summary that covered a page's corner, a sign-off refused or cut off,
 * empty pages that did not say what to do, and forms (the timer's time field, the product's functions,
 * a viewed phone, a code tree's number).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { REASONS } from '../../contract/generated/reasons';
import { expect, test, ADMIN, login, shot } from './helpers';

/** The script files a page loads, by name. */
function scriptsOf(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  return scripts;
}

/** Another sign-in of the administrator, as a colleague at another desk: its token. */
async function otherSession(request: APIRequestContext): Promise<string> {
  const answer = await (await request.post('/login', { data: { userName: ADMIN.phone, password: ADMIN.password } })).json();
  expect(answer.data.token).toBeTruthy();
  return answer.data.token as string;
}

const CHART_CHUNK = /\/nivo-[\w-]+\.js$/;

for (const locale of ['zh-CN', 'zh-TW', 'en-US'] as const) {
  test(`the dashboard's charts are drawn by nivo in ${locale}, every value reachable from the keyboard`, async ({ page }) => {
    const scripts = scriptsOf(page);
    await page.goto('/login');
    await expect(page.getByTestId('login-phone')).toBeVisible();
    // The charts' code is not part of the login page.
    expect(scripts.filter((s) => CHART_CHUNK.test(s))).toEqual([]);
    await login(page, ADMIN, locale);
    const history = page.getByTestId('dashboard-history-chart');
    await expect(history.locator('svg').first()).toBeVisible({ timeout: 20_000 });
    expect(scripts.filter((s) => CHART_CHUNK.test(s))).toHaveLength(1);
    // The cards' small charts and the gauges are drawn too.
    await expect(page.getByTestId('dashboard-card-record').locator('svg').first()).toBeVisible();
    await expect(page.getByTestId('dashboard-card-device').locator('svg').first()).toBeVisible();
    await expect(page.getByTestId('dashboard-cpu').locator('svg').first()).toBeVisible();
    await expect(page.getByTestId('dashboard-card-user').locator('svg').first()).toBeVisible();

    // One stop in the tab order per chart: the arrows walk its days, the tooltip names the day and values.
    const title = { 'zh-CN': '历史消息', 'zh-TW': '歷史消息', 'en-US': 'Message history' }[locale];
    const chart = history.getByRole('img', { name: title });
    await chart.focus();
    await page.keyboard.press('End');
    const tooltip = history.getByRole('status');
    await expect(tooltip).toBeVisible();
    await expect(chart).toHaveAttribute('aria-describedby', (await tooltip.getAttribute('id'))!);
    const last = await tooltip.textContent();
    await page.keyboard.press('ArrowLeft');
    await expect(tooltip).not.toHaveText(last ?? '');
    await expect(tooltip).toContainText(/\d{2}/);
    await page.keyboard.press('Home');
    const first = await tooltip.textContent();
    await page.keyboard.press('ArrowLeft');
    await expect(tooltip).toHaveText(first ?? '');
    await page.keyboard.press('Escape');
    await expect(tooltip).toHaveCount(0);
    await shot(page, `usability-dashboard-${locale}`, true);
  });
}

test('the home page shows its figures without waiting for the charts, whose places hold their size until they are drawn', async ({ page }) => {
  // The charts' code held back on its way: the figures show meanwhile, the charts' places empty.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const fetched: string[] = [];
  await page.route(CHART_CHUNK, async (route) => {
    fetched.push(route.request().url());
    await held;
    await route.continue();
  });
  await login(page);
  const home = page.getByTestId('home-page');
  await expect(page.getByTestId('dashboard-user-all')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('dashboard-device-all')).toHaveText(/^\d[\d,]*$/);
  await expect(page.getByTestId('dashboard-record-day')).toHaveText(/^\d[\d,]*$/);
  await expect(home.getByRole('progressbar')).toHaveCount(0);
  // Asked for once the figures are painted; no chart is drawn while it is on its way.
  await expect.poll(() => fetched.length).toBe(1);
  await expect(home.getByRole('img')).toHaveCount(0);
  const place = page.getByTestId('dashboard-map-place');
  const before = (await place.boundingBox())!;
  const history = (await page.getByTestId('dashboard-history').boundingBox())!;

  release();
  await expect(page.getByTestId('dashboard-history-chart').locator('svg').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('dashboard-card-user').getByRole('img')).toBeVisible();
  // Drawn in the places they held: nothing under them moved.
  expect((await place.boundingBox())!.y).toBeCloseTo(before.y, 0);
  expect((await page.getByTestId('dashboard-history').boundingBox())!.height).toBeCloseTo(history.height, 0);
});

test("the home page's first row has its cards before their figures arrive: nothing under them moves when they do", async ({ page }) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/home\/total-(alarm|user)$/, async (route) => {
    await held;
    await route.continue();
  });
  await login(page);
  // The administrator's alarm and user cards, foretold by the session, wait for their figures in place.
  await expect(page.getByTestId('dashboard-user-all')).toHaveText('—');
  await expect(page.getByTestId('dashboard-alarm-day')).toHaveText('—');
  const history = page.getByTestId('dashboard-history');
  const before = (await history.boundingBox())!;
  release();
  await expect(page.getByTestId('dashboard-user-all')).toHaveText(/^\d+$/);
  await expect(page.getByTestId('dashboard-alarm-day')).toHaveText(/^\d[\d,]*$/);
  expect((await history.boundingBox())!.y).toBeCloseTo(before.y, 0);
});

test('the statistics chart is nivo, and its tooltip is reachable from the keyboard', async ({ page }) => {
  await login(page, ADMIN, 'en-US');
  await page.goto('/statistics');
  const devices = page.getByTestId('statistics-devices');
  await devices.getByRole('combobox').click();
  await page.getByRole('option', { name: /DEV000009/ }).click();
  await page.keyboard.press('Escape');
  await page.getByTestId('statistics-query').click();
  const chart = page.getByTestId('energy-chart');
  await expect(chart.locator('svg').first()).toBeVisible({ timeout: 20_000 });
  await chart.getByRole('img').focus();
  await page.keyboard.press('Home');
  // The first day, and the device's line (named by the device's name) with its value.
  const tooltip = chart.getByRole('status');
  await expect(tooltip).toContainText(/^\d{4}-\d{2}-\d{2}/);
  await expect(tooltip).toContainText('演示设备9');
  await shot(page, 'usability-statistics-en-US');
});

test('the unsigned-alarm summary shows after login in the top bar, gives way to the count and covers no control', async ({ page }) => {
  await login(page);
  const summary = page.getByTestId('alarm-summary');
  await expect(summary).toBeVisible();
  // In the top bar's own row: nothing of the page is under it.
  const header = (await page.locator('header').first().boundingBox())!;
  const box = (await summary.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(header.y + header.height);
  // Nor over the top bar's own buttons beside it.
  const button = (await page.getByTestId('alarm-summary-button').boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(button.x + 1);
  await shot(page, 'usability-alarm-summary');
  // It goes away by itself after a while; the count stays in the top bar.
  await expect(summary).toBeHidden({ timeout: 30_000 });
  const count = page.getByTestId('alarm-summary-button').locator('[data-count]');
  expect(Number(await count.getAttribute('data-count'))).toBeGreaterThan(0);

  // Brought back, it goes when the user moves to another page, and the page's bottom-right control takes the click.
  await page.getByTestId('alarm-summary-button').click();
  await expect(summary).toBeVisible();
  await page.goto('/alarmDevice');
  await expect(summary).toBeHidden();
  await expect(count).toBeVisible();
  const next = page.getByRole('button', { name: /next page|下一页/i }).last();
  await expect(next).toBeVisible();
  const viewport = page.viewportSize()!;
  const at = (await next.boundingBox())!;
  expect(at.x).toBeGreaterThan(viewport.width / 2);
  const listed = page.waitForResponse((r) => r.url().endsWith('/biz/t-alarm/pageList'));
  await next.click();
  expect(JSON.parse((await listed).request().postData() ?? '{}').current).toBe(2);
});

test('a sign-off refused as already signed reloads the list at once; one cut off by the network says so in words', async ({ page, request }) => {
  await login(page);
  await page.getByTestId('alarm-summary-close').click({ timeout: 3000 }).catch(() => undefined);
  await page.goto('/alarmDevice');
  await page.getByTestId('filter-status').click();
  await page.getByRole('option', { name: '未签收', exact: true }).click();
  const listed = page.waitForResponse((r) => r.url().endsWith('/biz/t-alarm/pageList'));
  await page.getByTestId('list-query').click();
  const records = (await (await listed).json()).data.records as { fId: number; fAlarmTime: string }[];
  const rows = page.getByTestId('list-row');
  await expect(rows.first().getByTestId('alarm-sign')).toBeVisible();

  // A colleague signs the first alarm while this console has its dialog open.
  const target = rows.filter({ hasText: records[0].fAlarmTime }).first();
  await target.getByTestId('alarm-sign').click();
  const dialog = page.getByTestId('sign-dialog');
  await dialog.getByTestId('sign-note').fill('现场核实');
  const token = await otherSession(request);
  const elsewhere = await (await request.post('/biz/t-alarm/signing', { headers: { authorization: token }, data: { fId: records[0].fId, fHandleContent: '另一处签收' } })).json();
  expect(elsewhere.code).toBe(200);
  const reloaded = page.waitForResponse((r) => r.url().endsWith('/biz/t-alarm/pageList'));
  await dialog.getByTestId('sign-submit').click();
  await expect(dialog.getByText(REASONS['alarm.alreadySigned']['zh-CN'])).toBeVisible();
  // The list reloaded at once, with the dialog still open: the row is no longer offered for sign-off.
  await reloaded;
  await expect(dialog).toBeVisible();
  await expect(rows.filter({ hasText: records[0].fAlarmTime }).getByTestId('alarm-sign')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The server cannot be reached for the sign-off (the browser's request fails): a sentence, in the console's language.
  await page.route('**/biz/t-alarm/signing', (route) => route.abort('internetdisconnected'));
  await rows.filter({ has: page.getByTestId('alarm-sign') }).first().getByTestId('alarm-sign').click();
  await dialog.getByTestId('sign-note').fill('现场核实');
  await dialog.getByTestId('sign-submit').click();
  await expect(dialog.getByText('无法连接服务器，操作未完成。请检查网络后重试。')).toBeVisible();
  await expect(dialog).not.toContainText(/\bnetwork\b/);
  await shot(page, 'usability-sign-network-zh-CN');
  await page.keyboard.press('Escape');

  // The same in English.
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  await page.getByTestId('filter-status').click();
  await page.getByRole('option', { name: 'Unsigned', exact: true }).click();
  await page.getByTestId('list-query').click();
  await rows.filter({ has: page.getByTestId('alarm-sign') }).first().getByTestId('alarm-sign').click();
  await dialog.getByTestId('sign-note').fill('Checked on site');
  await dialog.getByTestId('sign-submit').click();
  await expect(dialog.getByText('The server could not be reached, so nothing was done. Check the network connection and try again.')).toBeVisible();
  await shot(page, 'usability-sign-network-en-US');
  await page.unroute('**/biz/t-alarm/signing');
  await page.evaluate(() => localStorage.setItem('locale', 'zh-CN'));
});

test('signed together with a row signed elsewhere, the list behind the results reloads at once', async ({ page, request }) => {
  await login(page);
  await page.getByTestId('alarm-summary-close').click({ timeout: 3000 }).catch(() => undefined);
  await page.goto('/alarmDevice');
  await page.getByTestId('filter-status').click();
  await page.getByRole('option', { name: '未签收', exact: true }).click();
  const listed = page.waitForResponse((r) => r.url().endsWith('/biz/t-alarm/pageList'));
  await page.getByTestId('list-query').click();
  const records = (await (await listed).json()).data.records as { fId: number }[];
  const rows = page.getByTestId('list-row');
  await rows.nth(0).getByTestId('list-select').click();
  await rows.nth(1).getByTestId('list-select').click();
  await page.getByTestId('alarm-batch-sign').click();
  const batch = page.getByTestId('batch-sign-dialog');
  await batch.getByTestId('sign-note').fill('一并核实');
  const token = await otherSession(request);
  expect((await (await request.post('/biz/t-alarm/signing', { headers: { authorization: token }, data: { fId: records[0].fId, fHandleContent: '另一处签收' } })).json()).code).toBe(200);
  const reloaded = page.waitForResponse((r) => r.url().endsWith('/biz/t-alarm/pageList'));
  await batch.getByTestId('batch-sign-submit').click();
  await expect(batch.locator('[data-testid="batch-sign-result"][data-success="0"]')).toContainText(REASONS['alarm.alreadySigned']['zh-CN']);
  await reloaded;
  await expect(batch).toBeVisible();
  await batch.getByTestId('batch-sign-close').click();
});

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`empty pages say what to do next in ${locale}`, async ({ page }) => {
    await login(page, ADMIN, locale);
    await page.getByTestId('alarm-summary-close').click({ timeout: 3000 }).catch(() => undefined);
    const words = {
      'zh-CN': { relation: '勾选关系类型', example: '例如：手机号 13912345678', list: '放宽或清空搜索条件' },
      'en-US': { relation: 'tick the relation types', example: 'For example: the mobile 13912345678', list: 'Loosen or clear the search' },
    }[locale];
    // The relation graph before a search.
    await page.goto('/relation');
    const before = page.getByTestId('relation-before');
    await expect(before).toContainText(words.relation);
    await expect(before.getByTestId('empty-hint')).toContainText(words.example);
    await shot(page, `usability-relation-before-${locale}`);
    // The holographic profile before a search.
    await page.goto('/hologram');
    await expect(page.getByTestId('hologram-example')).toContainText(words.example);
    await shot(page, `usability-hologram-before-${locale}`);
    // A list searched for something it does not hold.
    await page.goto('/sys-role');
    await expect(page.getByTestId('list-row').first()).toBeVisible();
    await page.getByTestId('filter-name').fill('no-such-role-zz');
    await page.getByTestId('list-query').click();
    await expect(page.getByTestId('list-row')).toHaveCount(0);
    await expect(page.getByTestId('empty-hint')).toContainText(words.list);
    await shot(page, `usability-list-empty-${locale}`);
  });
}

test("the timer dialog's time field has its own label", async ({ page }) => {
  await login(page, ADMIN, 'en-US');
  await page.goto('/device');
  await page.getByTestId('device-search').fill('DEV000010');
  await page.getByTestId('device-search').press('Enter');
  await page.getByTestId('device-row').filter({ hasText: 'DEV000010' }).getByText('DEV000010').click();
  const drawer = page.getByTestId('device-drawer');
  await drawer.getByTestId('device-tab-timers').click();
  await drawer.getByRole('button', { name: 'Add timer' }).click();
  const dialog = page.getByTestId('timer-dialog');
  const time = dialog.getByTestId('timer-time');
  await expect(time.locator('label')).toHaveText('Run at');
  await expect(dialog.getByRole('group', { name: 'Run at' })).toBeVisible();
  await shot(page, 'usability-timer-dialog-en-US');
});

test("the product drawer shows the product's chosen functions", async ({ page }) => {
  await login(page);
  await page.goto('/product');
  const card = page.getByTestId('product-card').filter({ hasText: 'P-RG-MCCB' });
  // Two functions chosen in the product's form.
  await card.getByTestId('product-edit').click();
  const dialog = page.getByTestId('form-dialog');
  await dialog.getByTestId('form-field-fFunctionIds').getByRole('combobox').click();
  // Two functions the product does not have yet (the form shows those it has as chosen).
  const options = page.getByRole('option', { selected: false });
  await expect(options.nth(1)).toBeVisible();
  const chosen = [(await options.nth(0).textContent())!.trim(), (await options.nth(1).textContent())!.trim()];
  await page.getByRole('option', { name: chosen[0], exact: true }).click();
  await page.getByRole('option', { name: chosen[1], exact: true }).click();
  await page.keyboard.press('Escape');
  await dialog.getByTestId('form-save').click();
  await expect(dialog).toBeHidden();
  await card.getByTestId('product-view').click();
  const drawer = page.getByTestId('product-drawer');
  for (const name of chosen) await expect(drawer.getByText(name, { exact: false }).first()).toBeVisible();
  await shot(page, 'usability-product-drawer');
});

test("the user form's view mode masks the phone; editing shows it whole", async ({ page }) => {
  await login(page);
  await page.goto('/sys-user');
  const row = page.getByTestId('list-row').filter({ hasText: '138****0001' }).first();
  await row.getByTestId('list-view').click();
  const form = page.getByTestId('form-dialog');
  await expect(form.locator('input[value="138****0001"]')).toHaveCount(1);
  await expect(form.locator('input[value="13800000001"]')).toHaveCount(0);
  await shot(page, 'usability-user-view');
  await page.keyboard.press('Escape');
  await row.getByTestId('list-edit').click();
  await expect(form.locator('input[value="13800000001"]')).toHaveCount(1);
});

for (const locale of ['zh-CN', 'en-US'] as const) {
  test(`a number that is not a number gets the schema's words in the console and from the server, in ${locale}`, async ({ page, request }) => {
    await login(page, ADMIN, locale);
    const token = await page.evaluate(() => localStorage.getItem('token') ?? '');
    for (const [path, ns, code, name, call] of [
      ['/area', 'areas', 'fAreaId', 'fAreaName', '/system/t-area-info/addOrEditAreaInfo'],
      ['/department', 'departments', 'fDepartmentId', 'fDepartmentName', '/system/t-department-info/addOrEditDepartmentInfo'],
    ] as const) {
      // The server's answer to a number with a letter in it, in the console's language.
      const answer = await (await request.post(call, { headers: { authorization: token, 'accept-language': locale }, data: { [code]: '12a', [name]: 'x', isAdd: true } })).json();
      expect(answer.success).toBe(false);
      expect(answer.reason.code).toBe(`${ns === 'areas' ? 'area' : 'department'}.${code}.type`);
      // The console refuses the same value under its field with the same words, before any call.
      await page.goto(path);
      const sent: string[] = [];
      page.on('request', (r) => r.url().endsWith(call) && sent.push(r.url()));
      await page.getByTestId(`${ns}-add-top`).click();
      await page.getByTestId(`${ns}-field-${code}`).fill('12a');
      await page.getByTestId(`${ns}-field-${name}`).fill('x');
      await page.getByTestId(`${ns}-confirm`).click();
      await expect(page.getByTestId(`${ns}-detail`).getByText(answer.reason.text, { exact: true })).toBeVisible();
      expect(sent).toEqual([]);
      await shot(page, `usability-${ns}-number-${locale}`);
    }
  });
}

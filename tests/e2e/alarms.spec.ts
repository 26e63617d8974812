import { expect, test, login, shot, typeInto, OFFICER } from './helpers';
import { startSecuritySimulator, type SecuritySimulator } from '../../server/simulator/security';

// The server under test runs the embedded broker on PORT + 10000 (playwright.config.ts).
const BROKER = `mqtt://127.0.0.1:${Number(process.env.E2E_PORT ?? 8181) + 10000}`;

/** The alarm time as the list shows it (the server's time zone, Asia/Shanghai). */
const shown = (ts: number) => new Date(ts).toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' });

let lock: SecuritySimulator;
test.beforeAll(async () => {
  // A door lock of the demo: LK-H01-1 in a room of the first equipped rental house.
  lock = await startSecuritySimulator({ url: BROKER, devices: [{ productNumber: 'P-LOCK', deviceNumber: 'LK-H01-1', kind: 2, idcards: [] }], periodMs: 0 });
});
test.afterAll(() => lock?.stop());

test('a door lock left unlocked appears in its list without a reload and is signed off', async ({ page }) => {
  await login(page);
  // Right after login: the summary of unsigned alarms; a group opens its list.
  const summary = page.getByTestId('alarm-summary');
  await expect(summary).toBeVisible();
  await shot(page, 'alarms-summary');
  await summary.getByTestId('alarm-summary-lock').click();
  await expect(page).toHaveURL(/\/alarmLock$/);
  await expect(summary).toBeHidden();
  const rows = page.getByTestId('list-row');
  await expect(rows.first()).toBeVisible();
  await shot(page, 'alarms-lock-list');
  // The top bar keeps the count, and brings the card back.
  const button = page.getByTestId('alarm-summary-button');
  const count = Number(await button.locator('[data-count]').getAttribute('data-count'));
  expect(count).toBeGreaterThan(0);
  await button.click();
  await expect(summary).toBeVisible();
  await summary.getByTestId('alarm-summary-close').click();
  await expect(summary).toBeHidden();
  // Brought back on one page, it goes away when the officer moves on to another.
  await button.click();
  await expect(summary).toBeVisible();
  await page.getByRole('navigation').locator('a[href$="/alarmGather"]').click();
  await expect(page).toHaveURL(/\/alarmGather$/);
  await expect(summary).toBeHidden();
  await page.getByRole('navigation').locator('a[href$="/alarmLock"]').click();
  await expect(page).toHaveURL(/\/alarmLock$/);

  const ts = Date.now() - 1000;
  await lock.raise('LK-H01-1', { type: 3, ts });
  // A new alarm counts at once.
  await expect(button.locator('[data-count]')).toHaveAttribute('data-count', String(count + 1));
  // The list reloads on the live event: the new alarm is on top, unsigned and highlighted.
  const fresh = rows.filter({ hasText: shown(ts) });
  await expect(fresh).toHaveCount(1);
  await expect(rows.first()).toContainText(shown(ts));
  await expect(fresh).toHaveAttribute('data-highlighted', '1');
  await expect(fresh).toContainText('门未锁');

  await fresh.getByTestId('alarm-sign').click();
  const dialog = page.getByTestId('sign-dialog');
  await dialog.getByTestId('sign-submit').click();
  await expect(dialog.getByText('处理备注不能为空')).toBeVisible();
  await dialog.getByTestId('sign-note').fill('已联系租客，门已锁好');
  await dialog.getByTestId('sign-submit').click();
  await expect(dialog).toBeHidden();
  await expect(fresh).toHaveAttribute('data-highlighted', '0');
  await expect(fresh).toContainText('已签收');
  await expect(fresh).toContainText('已联系租客，门已锁好');
  await expect(fresh.getByTestId('alarm-sign')).toHaveCount(0);
  // Signed off: the top bar's count is down again.
  await expect(button.locator('[data-count]')).toHaveAttribute('data-count', String(count));
});

test('three device alarms are signed off together with one note', async ({ page }) => {
  await login(page);
  await page.getByTestId('alarm-summary-close').click().catch(() => undefined);
  await page.goto('/alarmDevice');
  await page.getByTestId('filter-status').click();
  await page.getByRole('option', { name: '未签收', exact: true }).click();
  await page.getByTestId('list-query').click();
  const rows = page.getByTestId('list-row');
  await expect(rows.first()).toHaveAttribute('data-highlighted', '1');
  const before = await page.locator('.MuiTablePagination-displayedRows').textContent();
  const times: string[] = [];
  for (let i = 0; i < 3; i++) {
    await rows.nth(i).getByTestId('list-select').click();
    times.push((await rows.nth(i).locator('td').nth(6).textContent()) ?? '');
  }
  await page.getByTestId('alarm-batch-sign').click();
  const dialog = page.getByTestId('batch-sign-dialog');
  await dialog.getByTestId('sign-note').fill('社区网格员已上门核查');
  await shot(page, 'alarms-batch-dialog');
  await dialog.getByTestId('batch-sign-submit').click();
  await expect(dialog.getByTestId('batch-sign-result')).toHaveCount(3);
  await expect(dialog.locator('[data-testid="batch-sign-result"][data-success="1"]')).toHaveCount(3);
  await expect(dialog.getByTestId('batch-sign-summary')).toHaveText('已签收 3 条，失败 0 条');
  await dialog.getByTestId('batch-sign-close').click();
  await expect(dialog).toBeHidden();
  // Signed, they leave the list of unsigned alarms.
  await expect(page.locator('.MuiTablePagination-displayedRows')).not.toHaveText(before ?? '');
  for (const t of times) if (t) await expect(rows.filter({ hasText: t })).toHaveCount(0);
});

test('one-touch alerts open their point on a map', async ({ page }) => {
  await login(page);
  await page.goto('/touchAlarm');
  const row = page.getByTestId('list-row').first();
  await expect(row).toBeVisible();
  await expect(row).toContainText(/\d{3}\*{4}\d{4}/);
  await shot(page, 'alarms-touch-list');
  await row.getByTestId('touch-point').click();
  const map = page.getByTestId('point-dialog');
  await expect(map.getByText('点位详情')).toBeVisible();
  await expect(map.getByTestId('point-marker')).toBeVisible();
  await expect(map.getByTestId('point-label')).toContainText('附近');
  await shot(page, 'alarms-point-map');
  await map.getByTestId('point-close').click();
  await expect(map).toBeHidden();

  // Sign-off takes a handling note (no bare yes/no), stored and shown in the row.
  const unsigned = page.getByTestId('list-row').filter({ has: page.getByTestId('touch-sign') });
  const before = await unsigned.count();
  await unsigned.first().getByTestId('touch-sign').click();
  const dialog = page.getByTestId('sign-dialog');
  await expect(dialog.getByText('一键报警签收')).toBeVisible();
  await dialog.getByTestId('sign-submit').click();
  await expect(dialog.getByText('处理备注不能为空')).toBeVisible();
  await dialog.getByTestId('sign-note').fill('已电话联系报警人，误触');
  await shot(page, 'alarms-touch-sign');
  const signed = page.waitForResponse((r) => r.url().endsWith('/biz/t-touch-alarm/updateStatus'));
  await dialog.getByTestId('sign-submit').click();
  expect(JSON.parse((await signed).request().postData() ?? '{}')).toMatchObject({ fHandleContent: '已电话联系报警人，误触' });
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('list-row').filter({ hasText: '已电话联系报警人，误触' })).toHaveCount(1);
  await expect(unsigned).toHaveCount(before - 1);
});

test('an inverted date-time range is refused beside the filter, not searched', async ({ page }) => {
  await login(page);
  await page.goto('/alarmLock');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  const [from, to] = [page.getByTestId('filter-time_limit-from'), page.getByTestId('filter-time_limit-to')];
  await typeInto(page, from, '202612010000');
  await typeInto(page, to, '202611010000');
  await expect(to.getByText('开始时间不能晚于结束时间')).toBeVisible();
  let lists = 0;
  page.on('request', (r) => r.url().endsWith('/biz/t-alarm/pageList') && lists++);
  await page.getByTestId('list-query').click();
  await page.waitForTimeout(500);
  expect(lists).toBe(0);
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  await shot(page, 'alarms-range-inverted');
  // Put right, the range is searched.
  await typeInto(page, to, '202701010000');
  await expect(to.getByText('开始时间不能晚于结束时间')).toHaveCount(0);
  const listed = page.waitForRequest((r) => r.url().endsWith('/biz/t-alarm/pageList'));
  await page.getByTestId('list-query').click();
  expect(JSON.parse((await listed).postData() ?? '{}').condition.time_limit).toEqual(['2026-12-01 00:00:00', '2027-01-01 00:00:00']);
});

test('the device alarm list in English', async ({ page }) => {
  await login(page);
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.goto('/alarmDevice');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  // Types are read in the console's language, not the server's Chinese names; the two type filters have names of their own.
  const header = (await page.locator('thead th').allTextContents()).map((t) => t.trim());
  const rows = page.getByTestId('list-row');
  const typeCell = (i: number) => rows.first().locator('td').nth(i);
  expect(await typeCell(header.indexOf('Alarm type')).textContent()).toMatch(/^(Access-control alarm|Door-lock alarm|Low battery|Tamper alarm)$/);
  expect(await typeCell(header.indexOf('Device type')).textContent()).toMatch(/^(Access control|Door lock)$/);
  await expect(page.getByTestId('filter-alarm_type')).toContainText('Access-control alarm, Door-lock alarm');
  await expect(page.getByTestId('filter-alarm_type_id')).toContainText('One alarm type');
  // However wide the list in English, its actions stay within the page's width.
  const actions = await page.locator('thead th').last().boundingBox();
  expect(actions!.x + actions!.width).toBeLessThanOrEqual(1440);
  await shot(page, 'alarms-device-en');
  await page.goto('/alarmTime');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  await shot(page, 'alarms-time-en');
  await page.evaluate(() => localStorage.setItem('locale', 'zh-CN'));
});

test('a refused identity-card warning sign-off says why in the console language, and an ended session leads to the login', async ({ page }) => {
  await login(page, OFFICER, 'en-US');
  const listed = page.waitForResponse((r) => r.url().endsWith('/biz/t-alarm/pageList'));
  await page.goto('/alarmCard');
  // The first unsigned warning the list shows (highlighted, with its sign-off button).
  const records = (await (await listed).json()).data.records as { fId: number; fStatus: number }[];
  const first = records.find((r) => r.fStatus === 0)!;
  const unsigned = page.getByTestId('list-row').filter({ has: page.getByTestId('alarm-sign') });
  await unsigned.first().getByTestId('alarm-sign').click();
  const dialog = page.getByTestId('sign-dialog');
  await dialog.getByTestId('sign-note').fill('Checked on site');

  // Someone else signs the same warning meanwhile: the server refuses, the console says so in English.
  const other = await page.evaluate(async (fId) => {
    const r = await fetch('/biz/t-alarm/signing', { method: 'POST', headers: { 'content-type': 'application/json', authorization: localStorage.getItem('token') ?? '' }, body: JSON.stringify({ fId, fHandleContent: 'signed elsewhere' }) });
    return (await r.json()).code;
  }, first.fId);
  expect(other).toBe(200);
  await dialog.getByTestId('sign-submit').click();
  await expect(dialog.getByText('This alarm has already been signed off')).toBeVisible();
  await shot(page, 'alarms-card-sign-refused-en');
  // The list behind it reloads at once (the warning now reads signed); the dialog keeps the note.
  await expect(page.getByTestId('list-row').filter({ has: page.getByTestId('alarm-sign') })).toHaveCount(records.filter((r) => r.fStatus === 0).length - 1);
  await expect(dialog.getByTestId('sign-note')).toHaveValue('Checked on site');

  // The session ends in another tab: the sign-off says the login expired and the console goes to the login page.
  await page.evaluate(() => fetch('/logout', { method: 'POST', headers: { 'content-type': 'application/json', authorization: localStorage.getItem('token') ?? '' }, body: '{}' }));
  await dialog.getByTestId('sign-submit').click();
  await expect(dialog.getByText('Your login has expired or you have no access to this page')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  await page.evaluate(() => localStorage.setItem('locale', 'zh-CN'));
});

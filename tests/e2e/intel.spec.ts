import type { Page } from '@playwright/test';
import { expect, test, ADMIN, AGENT, login, openMenu, shot } from './helpers';

/** A call with the signed-in console's token. */
async function api(page: Page, path: string, body: object) {
  return page.evaluate(
    async ([p, b]) => {
      const res = await fetch(p as string, { method: 'POST', headers: { 'content-type': 'application/json', authorization: localStorage.getItem('token') ?? '' }, body: JSON.stringify(b) });
      return { status: res.status, body: await res.json() };
    },
    [path, body] as const,
  );
}

/**
 * A current tenant of the demo district (a phone with a phone book, leases and unlock records), with the
 * full phone the user page's call answers an administrator (the profile's calls answer it masked).
 */
async function seededTenant(page: Page): Promise<{ userId: number; phone: string }> {
  const leases = await api(page, '/biz/t-tenant-house/pageList', { current: 1, size: 1, condition: { fStatus: 2 }, orders: [{ column: 'fId', asc: true }] });
  const userId = leases.body.data.records[0].fUserId;
  const info = await api(page, '/system/t-sys-user/getUserInfo', { id: userId });
  return { userId, phone: info.body.data.fPhone };
}

/** Every full mainland mobile in a text: 11 digits, nothing else numeric on either side. */
const fullPhones = (text: string) => text.match(/(?<!\d)1[3-9]\d{9}(?!\d)/g) ?? [];

/** The calls of the profile and the graph (not the user page's, which the test uses for its own reference). */
const INTEL_CALL = /\/(biz\/relation\/|biz\/hologram\/|biz\/t-address-book\/addressBookRelation|system\/t-sys-user\/getUser(Info|Data))/;

/** The answers of the profile's and the graph's calls the page receives from here on. */
function intelAnswers(page: Page) {
  const bodies: Promise<string>[] = [];
  page.on('response', (res) => {
    const req = res.request();
    // The test's own reference call (the user page's getUserInfo by id) is not the console's.
    if (!INTEL_CALL.test(req.url()) || /"id":/.test(req.postData() ?? '')) return;
    bodies.push(res.text().catch(() => ''));
  });
  return async () => (await Promise.all(bodies)).join('\n');
}

test('an administrator searches a person, sees every profile panel and closes it with Esc', async ({ page }) => {
  await login(page, ADMIN);
  const who = await seededTenant(page);
  await page.getByTestId('menu-section-person-intel').click();
  await page.getByTestId('menu-item-hologram').click();
  await expect(page).toHaveURL(/\/hologram$/);

  const input = page.getByTestId('hologram-input');
  const error = page.getByTestId('hologram-input-error');
  await page.getByTestId('hologram-search').click();
  await expect(error).toHaveText('请输入搜索条件');
  await input.fill('12345678901');
  await page.getByTestId('hologram-search').click();
  await expect(error).toHaveText('请输入正确的手机号');
  await input.fill('1234');
  await page.getByTestId('hologram-search').click();
  await expect(error).toHaveText('请输入正确的手机号或身份证号');
  await input.fill('44010619900101123Y');
  await page.getByTestId('hologram-search').click();
  await expect(error).toHaveText('请输入正确的身份证号');
  await input.fill('13912345670');
  await page.getByTestId('hologram-search').click();
  await expect(page.getByTestId('hologram-none')).toHaveText('暂无信息');
  await shot(page, 'intel-search-zh');

  const answers = intelAnswers(page);
  await input.fill(who.phone);
  await page.getByTestId('hologram-search').click();
  const modal = page.getByTestId('profile-modal');
  await expect(modal).toBeVisible();
  // The address names the person by user id, never by the phone typed.
  await expect(page).toHaveURL(new RegExp(`/hologram\\?userId=${who.userId}$`));
  for (const panel of ['basic', 'interests', 'trail', 'rental', 'locks', 'related']) await expect(modal.getByTestId(`profile-panel-${panel}`)).toBeVisible();
  await expect(modal.getByTestId('profile-phone')).toContainText(`${who.phone.slice(0, 3)}****${who.phone.slice(7)}`);
  await expect(modal.getByTestId('profile-phone')).not.toContainText(who.phone);
  await expect(modal.getByTestId('profile-panel-rental')).toContainText('在租');
  await expect(modal.getByTestId('profile-panel-locks').getByTestId('profile-empty')).toHaveCount(0);
  await expect(modal.getByTestId('profile-panel-related')).toContainText('通讯录');
  await expect(modal.getByTestId('profile-panel-related')).toContainText('****');
  // No full phone in the modal, nor in any answer of the profile's calls.
  expect(fullPhones(await modal.innerHTML())).toEqual([]);
  const profileAnswers = await answers();
  expect(profileAnswers).toContain(`"phone":"${who.phone.slice(0, 3)}****${who.phone.slice(7)}"`);
  expect(fullPhones(profileAnswers)).toEqual([]);
  await expect(page.getByTestId('digital-rain')).toBeVisible();
  // Nothing personal is kept in the browser's storage.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(stored).not.toContain(who.phone);
  await page.waitForTimeout(800);
  await shot(page, 'intel-profile-zh');

  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  await expect(page).toHaveURL(/\/hologram$/);

  // An address opens the profile directly: by user id, or by a phone typed into it.
  await page.goto(`/hologram?userId=${who.userId}`);
  await expect(page.getByTestId('profile-modal').getByTestId('profile-name')).not.toBeEmpty();
  await expect(page.getByTestId('profile-modal').getByTestId('profile-panel-related')).toContainText('通讯录');
  await page.goto(`/hologram?phone=${who.phone}`);
  await expect(page.getByTestId('profile-modal').getByTestId('profile-phone')).toContainText(`${who.phone.slice(0, 3)}****${who.phone.slice(7)}`);
});

test('a name in an alarm list opens the profile over the list; Esc leaves the list as it was', async ({ page }) => {
  await login(page, ADMIN);
  await page.getByTestId('alarm-summary-close').click().catch(() => undefined);
  await openMenu(page, 'alarmLock', 'alarm-manage');
  const url = page.url();
  // A filtered list, on its second page, with a row chosen.
  await page.getByTestId('filter-status').click();
  await page.getByRole('option', { name: '未签收', exact: true }).click();
  await page.getByTestId('list-query').click();
  const rows = page.getByTestId('list-row');
  await expect(rows.first()).toHaveAttribute('data-highlighted', '1');
  await page.getByRole('button', { name: '下一页' }).click();
  const shownRows = page.locator('.MuiTablePagination-displayedRows');
  await expect(shownRows).toContainText('第 11-');
  const linked = rows.filter({ has: page.getByTestId('list-link') }).first();
  await linked.getByTestId('list-select').click();
  const firstRow = await rows.first().textContent();

  await linked.getByTestId('list-link').click();
  const modal = page.getByTestId('profile-modal');
  await expect(modal.getByTestId('profile-panel-basic')).toBeVisible();
  await expect(modal.getByTestId('profile-name')).not.toBeEmpty();
  // Over the list: no navigation, the list still underneath.
  expect(page.url()).toBe(url);
  await expect(page.getByTestId('hologram-page')).toHaveCount(0);
  await page.waitForTimeout(600);
  await shot(page, 'intel-profile-over-alarm-list');

  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  expect(page.url()).toBe(url);
  await expect(page.getByTestId('filter-status')).toContainText('未签收');
  await expect(shownRows).toContainText('第 11-');
  await expect(rows.first()).toHaveText(firstRow ?? '');
  await expect(linked.getByTestId('list-select').locator('input')).toBeChecked();

  // The watch-list's names open the profile the same way, by ID number.
  await openMenu(page, 'controlPerson', 'control-manage');
  const personUrl = page.url();
  await page.getByTestId('list-link').first().click();
  await expect(page.getByTestId('profile-modal')).toBeVisible();
  expect(page.url()).toBe(personUrl);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('profile-modal')).toBeHidden();
  expect(page.url()).toBe(personUrl);
});

test('a phone with no relations shows 暂无数据, and the searched phone\'s colour is in the legend', async ({ page }) => {
  await login(page, ADMIN);
  await page.goto('/relation?phone=13800000000');
  await expect(page.getByTestId('relation-input')).toHaveValue('13800000000');
  await expect(page.getByTestId('empty-state')).toHaveText('暂无数据');
  await expect(page.getByTestId('relation-count')).toHaveCount(0);
  await expect(page.getByTestId('relation-legend-center')).toHaveText('查询号码');
  await shot(page, 'intel-relation-empty-zh');
  await page.evaluate(() => localStorage.setItem('locale', 'zh-TW'));
  await page.reload();
  await expect(page.getByTestId('empty-state')).toHaveText('暫無資料');
  await expect(page.getByTestId('relation-legend-center')).toHaveText('查詢號碼');
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  await expect(page.getByTestId('empty-state')).toHaveText('No data');
  await expect(page.getByTestId('relation-legend-center')).toHaveText('Searched phone');
});

test('the relation graph opens from the profile by user id, expands a phone by double click and hides people, with no full phone on the page', async ({ page }) => {
  await login(page, ADMIN);
  const who = await seededTenant(page);
  const answers = intelAnswers(page);
  const masked = `${who.phone.slice(0, 3)}****${who.phone.slice(7)}`;
  await page.goto(`/hologram?userId=${who.userId}`);
  await expect(page.getByTestId('profile-modal').getByTestId('profile-panel-related')).toContainText('通讯录');
  await page.getByTestId('profile-graph').click();
  await expect(page).toHaveURL(new RegExp(`/relation\\?userId=${who.userId}$`));
  const count = page.getByTestId('relation-count');
  await expect(count).toBeVisible();
  await page.waitForFunction(() => (window as any).__relationGraph?.order() > 0);
  // The layout settles in a worker, then moves the nodes in a 400 ms animation.
  await page.waitForFunction(() => performance.getEntriesByName('relation:settled').length > 0, null, { timeout: 30_000 });
  await shot(page, 'intel-relation-zh');
  const before = await page.evaluate(() => (window as any).__relationGraph.order());
  // The searched phone is a handle; its label shows the number masked.
  const centerId: string = await page.evaluate(() => (window as any).__relationGraph.center());
  expect(centerId).toMatch(/^p\./);
  const labels: string[] = await page.evaluate(() => (window as any).__relationGraph.labels());
  expect(labels.some((l) => l.includes(masked))).toBe(true);

  // A click selects (after the click delay) and opens the drawer.
  const canvas = page.getByTestId('relation-canvas');
  const box = (await canvas.boundingBox())!;
  const at = async (id: string) => page.evaluate((n) => (window as any).__relationGraph.nodePosition(n), id);
  const center = await at(centerId);
  await page.mouse.click(box.x + center.x, box.y + center.y);
  const drawer = page.getByTestId('relation-drawer');
  await expect(drawer.getByTestId('drawer-personal')).toContainText(masked);
  await expect(drawer.getByTestId('drawer-personal')).toContainText(/\d{6}\*{8}[\dX]{4}/);
  await expect(drawer.getByTestId('drawer-phonebook')).toBeVisible();
  await expect(drawer.getByTestId('drawer-phonebook')).toContainText('****');
  await expect(drawer.getByTestId('drawer-co-residents')).toBeVisible();
  await expect(drawer.getByTestId('drawer-same-house')).toBeVisible();
  await shot(page, 'intel-relation-drawer-zh');
  // The drawer opens the person's profile by user id.
  await drawer.getByTestId('drawer-open-profile').click();
  await expect(page.getByTestId('profile-modal').getByTestId('profile-phone')).toContainText(masked);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('profile-modal')).toBeHidden();
  await page.getByTestId('relation-drawer-close').click();

  // A person node's drawer: found by the person's user id.
  const person = `u${who.userId}`;
  const personAt = await at(person);
  await page.mouse.click(box.x + personAt.x, box.y + personAt.y);
  await expect(drawer.getByTestId('drawer-personal')).toContainText(masked);
  await page.getByTestId('relation-drawer-close').click();

  // Double click a phone node other than the searched one: its neighbours join the graph.
  const phones: string[] = await page.evaluate(() => (window as any).__relationGraph.nodesOf('phone'));
  const other = phones.find((p) => p !== centerId)!;
  const pos = await at(other);
  await page.mouse.dblclick(box.x + pos.x, box.y + pos.y);
  await page.waitForFunction((n) => (window as any).__relationGraph.order() > n, before);
  await expect(page.getByTestId('relation-count')).toBeVisible();

  // Nothing on the page, in the graph's labels or in the calls' answers holds a full phone.
  expect(fullPhones(await page.locator('body').innerHTML())).toEqual([]);
  expect(fullPhones((await page.evaluate(() => (window as any).__relationGraph.labels())).join('\n'))).toEqual([]);
  const graphAnswers = await answers();
  // The scan read the graph, the expansion and the drawer's answers.
  for (const part of [`"center":"${centerId}"`, '"nodeList"', '"phonebook"', '"tag":"address"']) expect(graphAnswers).toContain(part);
  expect(fullPhones(graphAnswers)).toEqual([]);

  // Hiding people merges each person into their phone.
  const shown = await page.evaluate(() => (window as any).__relationGraph.order());
  await page.getByTestId('relation-people').click();
  await page.waitForFunction((n) => (window as any).__relationGraph.order() < n, shown);
  expect(await page.evaluate(() => (window as any).__relationGraph.nodesOf('person').length)).toBe(0);
  await page.getByTestId('relation-people').click();
  await page.waitForFunction((n) => (window as any).__relationGraph.order() === n, shown);

  // At least one relation type.
  for (const t of [1, 2, 3]) await page.getByTestId(`relation-type-${t}`).uncheck();
  await page.getByTestId('relation-search').click();
  await expect(page.getByTestId('relation-types-error')).toHaveText('请至少选择一个关系类型');
});

test('the pages in English', async ({ page }) => {
  await login(page, ADMIN);
  const who = await seededTenant(page);
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.goto(`/hologram?userId=${who.userId}`);
  await expect(page.getByTestId('profile-modal').getByTestId('profile-panel-locks')).toBeVisible();
  await page.waitForTimeout(800);
  await shot(page, 'intel-profile-en');
  await page.goto(`/relation?phone=${who.phone}`);
  await page.waitForFunction(() => performance.getEntriesByName('relation:settled').length > 0, null, { timeout: 30_000 });
  await shot(page, 'intel-relation-en');
});

test('a user without hologram:sch sees no menu and is refused by the server', async ({ page }) => {
  await login(page, AGENT);
  await expect(page.getByTestId('menu-section-person-intel')).toHaveCount(0);
  await expect(page.getByTestId('menu-item-hologram')).toHaveCount(0);
  for (const [path, body] of [
    ['/biz/hologram/search', { phone: '13800000000' }],
    ['/biz/relation/graph', { phone: '13800000000', relations: [1] }],
    ['/system/t-sys-user/getUserInfo', { phone: '13800000000' }],
  ] as const) {
    const res = await api(page, path, body);
    expect(res.status, path).toBe(401);
  }
});

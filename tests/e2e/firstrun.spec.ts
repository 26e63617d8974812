import type { Page } from '@playwright/test';
import { expect, test, login, shot } from './helpers';

async function language(page: Page, locale: string) {
  await page.getByTestId('language-switch').first().click();
  await page.getByTestId(`language-option-${locale}`).click();
}

test('opening / lands on the console', async ({ page }) => {
  const res = await page.goto('/');
  expect(res?.status()).toBe(200);
  await expect(page).toHaveURL(/\/(login|home)$/);
  await expect(page.getByTestId('login-phone')).toBeVisible();
  await login(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId('tab-bar')).toBeVisible();
});

test('table pagers speak Chinese', async ({ page }) => {
  await login(page);
  await page.goto('/sys-user');
  const pager = page.getByTestId('user-pagination');
  await expect(pager).toContainText('每页条数');
  await expect(pager).toContainText(/共 \d+ 条/);
  await expect(pager).not.toContainText('Rows per page');
  await page.goto('/sys-role');
  await expect(page.locator('.MuiTablePagination-root').first()).toContainText('每页条数');
  await shot(page, 'firstrun-roles-zh-CN');
});

test('the home tab stays visible with twelve tabs open', async ({ page }) => {
  await login(page);
  for (const path of ['/device', '/product', '/firmware', '/group', '/statistics', '/location', '/gateway', '/sys-user', '/sys-role', '/sys-menu', '/oplog', '/department', '/area']) {
    await page.goto(path);
    await expect(page.locator(`[data-testid="tab"][data-path="${path}"]`)).toBeVisible();
  }
  expect(await page.getByTestId('tab').count()).toBeGreaterThanOrEqual(12);
  const home = page.locator('[data-testid="tab"][data-path="/home"]');
  await expect(home).toBeInViewport();
  const bar = await page.getByTestId('tab-bar').boundingBox();
  const box = await home.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(bar!.x);
  await shot(page, 'firstrun-tabs');
  await home.click();
  await expect(page).toHaveURL(/\/home$/);
});

test('collapsing the sidebar on the dashboard logs no console error', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await login(page);
  await expect(page.getByTestId('dashboard-history-chart').locator('svg').first()).toBeVisible({ timeout: 20_000 });
  for (let i = 0; i < 4; i++) {
    await page.getByTestId('sidebar-toggle').click();
    await page.waitForTimeout(700);
  }
  await page.waitForTimeout(500);
  await expect(page.getByTestId('dashboard-history-chart').locator('svg').first()).toBeVisible();
  // The map's tiles come from the internet, which the test machine may not reach; those are not the page's errors.
  expect(errors.filter((e) => !/Failed to load resource: net::ERR_/.test(e))).toEqual([]);
  expect(errors.some((e) => e.includes('translate('))).toBe(false);
  await shot(page, 'firstrun-dashboard');
});

for (const width of [1440, 1280]) {
  test(`the device list's action column is visible in English and Chinese at ${width}px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await login(page);
    await page.goto('/device');
    const action = page.getByTestId('device-row').first().getByTestId('device-edit');
    await expect(action).toBeInViewport({ ratio: 1 });
    await shot(page, `firstrun-devices-zh-CN-${width}`);
    await language(page, 'en-US');
    await expect(page.getByTestId('device-row').first().getByTestId('device-edit')).toBeInViewport({ ratio: 1 });
    // Measured again until it holds: the list may re-render (a live update, the language's texts) between
    // finding the box and reading its place.
    await expect(async () => {
      const box = await page.getByTestId('device-table-box').boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
    }).toPass();
    await shot(page, `firstrun-devices-en-US-${width}`);
    await page.goto('/sys-menu');
    await expect(page.getByTestId('sys-menu-page')).toContainText('product:list');
    await shot(page, `firstrun-menus-en-US-${width}`);
    await page.goto('/oplog');
    await expect(page.getByTestId('oplog-row').first()).toBeVisible();
    await expect(page.getByTestId('oplog-row').first()).toContainText('Sign in');
    await shot(page, `firstrun-oplog-en-US-${width}`);
    await language(page, 'zh-CN');
  });
}

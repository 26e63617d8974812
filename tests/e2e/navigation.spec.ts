/**
 * Getting around the console: any console address answers the console's page whoever asks, while the
 * API's own paths keep their answers; a page outside the user's menus opens no tab; the built-in roles
 * read in the console's language; the login page's errors reach the error log; the maps draw the tiles
 * of the address the server hands them, and keep working without them. Each in zh-CN and en-US.
 */
import { AGENT, expect, login, shot, test } from './helpers';
import type { Page } from '@playwright/test';

const LANGUAGES = ['zh-CN', 'en-US'] as const;

/** The dashboard's map loads when its place is in view (gone once it has, maybe while scrolling to it). */
async function showMap(page: Page) {
  await expect(async () => {
    await page.locator('#main-content').evaluate((main) => main.scrollTo(0, main.scrollHeight));
    await expect(page.getByTestId('map-marker').first()).toBeAttached({ timeout: 3000 });
  }).toPass({ timeout: 45_000 });
  await page.getByTestId('dashboard-map').scrollIntoViewIfNeeded();
}
type Language = (typeof LANGUAGES)[number];

/** A 1×1 PNG: what a tile server answers, for a machine that has none. */
const TILE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

test('a console address answers the console page to any client; API paths, documents and missing files keep their answers', async ({ request }) => {
  for (const accept of ['*/*', 'application/json', '']) {
    for (const path of ['/homeschool', '/homeschool/device', '/homeschool/sys-user?x=1', '/homeschool/no/such/page']) {
      const answer = await request.get(path, { headers: accept ? { accept } : {}, maxRedirects: 0 });
      expect(answer.status(), `${path} with Accept ${accept || '(none)'}`).toBe(200);
      expect(answer.headers()['content-type']).toContain('text/html');
      expect(await answer.text()).toContain('<div id="root">');
    }
  }
  // A file the build does not have stays missing, in the API's envelope.
  for (const path of ['/homeschool/assets/missing-1234.js', '/homeschool/missing.png']) {
    const answer = await request.get(path, { headers: { accept: '*/*' } });
    expect(answer.status(), path).toBe(404);
    expect((await answer.json()).code).toBe(404);
  }
  // The API's own paths answer as before.
  expect(await (await request.get('/healthz')).json()).toMatchObject({ status: 'ok' });
  expect((await (await request.get('/openapi.json')).json()).openapi).toBeTruthy();
  expect((await request.get('/api-docs/viewer.js')).headers()['content-type']).toContain('javascript');
  expect((await (await request.get('/api/public/console-settings')).json()).data.mapTileUrl).toContain('{z}');
  for (const path of ['/biz/t-device/no-such-call', '/system/nothing', '/api/nothing', '/app/nothing', '/message/nothing']) {
    const answer = await request.get(path, { headers: { accept: '*/*' } });
    expect(answer.status(), path).toBe(404);
    expect((await answer.json()).code, path).toBe(404);
  }
  // A browser opening an address from before the base path is still sent into it.
  const old = await request.get('/device', { headers: { accept: 'text/html' }, maxRedirects: 0 });
  expect(old.status()).toBe(302);
  expect(old.headers().location).toBe('/homeschool/device');
});

const TITLES: Record<Language, { monitor: RegExp; roles: string[] }> = {
  'zh-CN': { monitor: /系统监控/, roles: ['超级管理员', '代理商', '普通用户', '民警'] },
  'en-US': { monitor: /System monitor/i, roles: ['Administrator', 'Agent', 'User', 'Officer'] },
};

for (const language of LANGUAGES) {
  test(`a page outside the user's menus shows 404 and opens no tab (${language})`, async ({ page }) => {
    await login(page, AGENT, language);
    await page.goto('/device');
    await expect(page.locator('[data-testid="tab"][data-path="/device"]')).toHaveCount(1);
    // The system monitor is the administrator's: the agent's menus do not name it.
    await page.goto('/monitor');
    await expect(page.getByTestId('error-page-404')).toBeVisible();
    await expect(page.locator('[data-testid="tab"][data-path="/monitor"]')).toHaveCount(0);
    await expect(page.getByTestId('tab-bar')).not.toContainText(TITLES[language].monitor);
    expect(await page.title()).not.toMatch(TITLES[language].monitor);
    await shot(page, `navigation-outside-menus-${language}`);
    // Its own pages still open tabs.
    await page.goto('/device');
    await expect(page.locator('[data-testid="tab"][data-path="/device"]')).toHaveCount(1);
  });

  test(`the built-in roles read in the console's language in the role list, the user list and the role choice (${language})`, async ({ page }) => {
    await login(page, undefined, language);
    await page.goto('/sys-role');
    const names = TITLES[language].roles;
    // A name's cell: the name, then the built-in mark.
    for (const name of names) await expect(page.getByTestId('list-row').getByRole('cell', { name: new RegExp(`^${name}( |$)`) })).toBeVisible();
    if (language === 'en-US') await expect(page.getByTestId('list-row').filter({ hasText: '超级管理员' })).toHaveCount(0);
    await shot(page, `navigation-roles-${language}`);

    await page.goto('/sys-user');
    // The demo's own names stay as written: the administrator is 系统管理员, holding the built-in role.
    await expect(page.getByTestId('list-row').filter({ hasText: '系统管理员' }).first()).toContainText(names[0]);
    await shot(page, `navigation-user-roles-${language}`);
    await page.getByTestId('list-add').click();
    await page.getByTestId('form-field-fRoleIds').getByRole('combobox').click();
    for (const name of names) await expect(page.getByRole('option', { name, exact: true })).toBeVisible();
    await shot(page, `navigation-role-choice-${language}`);
  });

  test(`an error on the login page reaches the error log (${language})`, async ({ page }) => {
    const marker = `login page fault ${language} ${Date.now()}`;
    await page.goto('/login');
    await page.evaluate((l) => localStorage.setItem('locale', l), language);
    await page.goto('/login');
    await expect(page.getByTestId('login-submit')).toBeVisible();
    const reported = page.waitForResponse((r) => r.url().endsWith('/system/error-log/add'));
    await page.evaluate((m) => setTimeout(() => {
      throw new Error(m);
    }), marker);
    expect(await (await reported).json()).toMatchObject({ code: 200 });

    await login(page, undefined, language);
    await page.goto('/errorLog');
    await expect(page.getByTestId('list-row').filter({ hasText: marker }).or(page.getByText(marker)).first()).toBeVisible();
    await shot(page, `navigation-login-error-${language}`);
  });

  test(`the maps draw the tiles of the server's address, and keep working without them (${language})`, async ({ page }) => {
    // Two visits of the dashboard, each waiting for its map.
    test.setTimeout(180_000);
    const settings = await (await page.request.get('/api/public/console-settings')).json();
    const address: string = settings.data.mapTileUrl;
    // The address's host, as the browser asks it ({s} is a sub-domain letter).
    const host = new URL(address.replace('{s}', 'a').replace(/\{[zxy]\}/g, '0')).host.replace(/^a\./, '');
    const asked: string[] = [];
    // The machine reaches no tile server: one stands in for the address the server named.
    await page.route((url) => url.host.endsWith(host), (route) => {
      asked.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'image/png', body: TILE });
    });
    await login(page, undefined, language);
    await showMap(page);
    await expect(page.locator('.leaflet-tile-loaded').first()).toBeVisible({ timeout: 20_000 });
    expect(asked.length).toBeGreaterThan(0);
    await expect(page.getByTestId('dashboard-map-tiles-unavailable')).toHaveCount(0);
    await shot(page, `navigation-map-tiles-${language}`);

    // The tile server gone: the map keeps its markers and says the tiles are missing.
    await page.unrouteAll();
    await page.route((url) => url.host.endsWith(host), (route) => route.abort('connectionrefused'));
    await page.reload();
    await showMap(page);
    await expect(page.getByTestId('dashboard-map-tiles-unavailable')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('map-marker').first()).toBeVisible();
    await shot(page, `navigation-map-no-tiles-${language}`);
  });
}

import { expect, test, type Page } from '@playwright/test';
import { login, openMenu } from './helpers';

const SHOTS = process.env.E2E_SHOTS_DIR;

/** The script files a page load fetches, by path. */
function scriptsOf(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  return scripts;
}

test('the console files are sent precompressed; hashed assets are cached for good, the page is checked each visit', async ({ request }) => {
  // The console lives under its base path (spec 002 §9); an address from before it is sent there.
  const old = await request.get('/device?product_id=3', { headers: { accept: 'text/html' }, maxRedirects: 0 });
  expect(old.status()).toBe(302);
  expect(old.headers().location).toBe('/homeschool/device?product_id=3');
  const page = await request.get('/homeschool/login', { headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' } });
  expect(page.headers()['cache-control']).toBe('no-cache');
  const entry = /src="(\/homeschool\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
  expect(entry).toBeTruthy();
  const brotli = await request.get(entry!, { headers: { 'accept-encoding': 'br' } });
  expect(brotli.headers()['content-encoding']).toBe('br');
  expect(brotli.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(brotli.headers()['content-type']).toMatch(/javascript/);
  // A cache between must not give the brotli file to a client that did not ask for it.
  expect(brotli.headers().vary).toContain('Accept-Encoding');
  const gzip = await request.get(entry!, { headers: { 'accept-encoding': 'gzip' } });
  expect(gzip.headers()['content-encoding']).toBe('gzip');
  // A client that accepts neither gets the file as it is.
  const plain = await request.get(entry!, { headers: { 'accept-encoding': 'identity' } });
  expect(plain.headers()['content-encoding']).toBeUndefined();
  expect((await plain.body()).length).toBeGreaterThan(Number(brotli.headers()['content-length'] ?? 0));
});

test('the login page loads its own language only, zh-TW from the generated catalogue without a converter', async ({ page }) => {
  const scripts = scriptsOf(page);
  await page.goto('/login');
  await expect(page.getByText('手机号码').first()).toBeVisible();
  expect(scripts.map((s) => /\/(zh-CN|zh-TW|en-US)-[\w-]+\.js$/.exec(s)?.[1]).filter(Boolean)).toEqual(['zh-CN']);
  // No list page, dialog or chart code on the login page.
  expect(scripts.filter((s) => /(SchemaList|DeviceList|RegisterDialog|Dashboard|LineChart|cn2t|DeviceMap)/.test(s))).toEqual([]);

  scripts.length = 0;
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-option-zh-TW').click();
  await expect(page.getByText('手機號碼').first()).toBeVisible();
  expect(scripts.some((s) => /\/zh-TW-[\w-]+\.js$/.test(s))).toBe(true);
  expect(scripts.filter((s) => /cn2t|opencc/i.test(s))).toEqual([]);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/login-zh-TW.png` });

  // Reopened in the stored language: the first frame already speaks it.
  await page.reload();
  await expect(page.getByText('手機號碼').first()).toBeVisible();
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-option-en-US').click();
  await expect(page.getByText('Mobile number').first()).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/login-en-US.png` });
  // Back to a language already loaded: nothing is fetched again.
  scripts.length = 0;
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-option-zh-TW').click();
  await expect(page.getByText('手機號碼').first()).toBeVisible();
  expect(scripts).toEqual([]);
});

for (const locale of ['zh-TW', 'en-US'] as const) {
  test(`the device list in ${locale}`, async ({ page }) => {
    await login(page, undefined, locale);
    const scripts = scriptsOf(page);
    await page.goto('/device');
    const title = locale === 'zh-TW' ? '設備' : 'Device';
    await expect(page.getByRole('columnheader').first()).toBeVisible();
    await expect(page.getByText(new RegExp(title)).first()).toBeVisible();
    // The list's code arrived when the list was opened.
    expect(scripts.some((s) => /DeviceList-/.test(s))).toBe(true);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/devices-${locale}.png` });
  });
}

/** A text still showing its catalogue key: `area.key` or deeper, lower camel case, no spaces. */
const RAW_KEY = /\b(ra|resources|enums|common|device|deviceTab|menus|shell|dashboard|permissions)\.[a-zA-Z_-]+(\.[a-zA-Z_-]+)*\b/;

for (const locale of ['zh-CN', 'zh-TW', 'en-US'] as const) {
  test(`a page outside the first screen shows its own texts in ${locale}, fetched with the page`, async ({ page }) => {
    const scripts = scriptsOf(page);
    await login(page, undefined, locale);
    await page.waitForLoadState('networkidle');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/home-${locale}.png` });
    // The home page does without the rest of the catalogue.
    expect(scripts.filter((s) => /\.rest-[\w-]+\.js$/.test(s))).toEqual([]);

    await openMenu(page, 'device');
    const headers = page.getByRole('columnheader');
    await expect(headers.first()).toBeVisible();
    expect(scripts.filter((s) => new RegExp(`/${locale}\\.rest-[\\w-]+\\.js$`).test(s))).toHaveLength(1);
    // Every column header is a text of the language, none a raw key.
    const { default: rest } = await import(`../../app/generated/catalogues/${locale}.rest.ts`);
    const labels = new Set(Object.values(rest.resources.device.fields as Record<string, string>));
    const shown = (await headers.allInnerTexts()).map((t) => t.trim()).filter(Boolean);
    expect(shown.length).toBeGreaterThan(2);
    expect(shown.filter((t) => labels.has(t)).length).toBeGreaterThan(2);
    expect(await page.locator('body').innerText()).not.toMatch(RAW_KEY);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/device-list-from-home-${locale}.png` });
  });
}

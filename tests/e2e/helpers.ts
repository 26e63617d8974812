/** What every end-to-end test does the same way: sign in, open a page from the sidebar, pick options. */
import { expect, test as base, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from '@playwright/test';
import { apiDocument, watchContract } from './contract';

export { expect };

export interface Account {
  phone: string;
  password: string;
}

/** The demo's accounts (server/db/seed.ts). */
export const ADMIN: Account = { phone: '13800000000', password: 'Admin@123' };
export const AGENT: Account = { phone: '13800000001', password: 'Agent@123' };
export const USER: Account = { phone: '13800000002', password: 'User@123' };
export const OFFICER: Account = { phone: '13800000003', password: 'Officer@123' };

/** Signs in through the login form, in the console language given, and waits for the home page. */
export async function login(page: Page, account: Account = ADMIN, locale?: string) {
  await page.goto('/login');
  if (locale) {
    await page.evaluate((l) => localStorage.setItem('locale', l), locale);
    await page.goto('/login');
  }
  await page.getByTestId('login-phone').fill(account.phone);
  await page.getByTestId('login-password').fill(account.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/home$/);
}

/**
 * Opens a page from the sidebar, unfolding its section when it is folded, and waits until the page's
 * address is shown, as a user waits for the page before the next click.
 */
export async function openMenu(page: Page, component: string, section = 'device-manage') {
  const item = page.getByTestId(`menu-item-${component}`);
  if (!(await item.isVisible())) await page.getByTestId(`menu-section-${section}`).click();
  const href = await item.getAttribute('href');
  if (!href) return item.click();
  const address = new RegExp(`${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([?#].*)?$`);
  // On a loaded machine a click can meet the menu while it re-renders and go nowhere: a person clicks
  // again, and so does the test (a second click on the same item changes nothing).
  await expect(async () => {
    if (!address.test(page.url())) await item.click();
    await expect(page).toHaveURL(address, { timeout: 4000 });
  }).toPass({ timeout: 20_000 });
}

/** Searches the device list for one device by its number and returns its row. */
export async function findDevice(page: Page, number: string) {
  await page.goto('/device');
  await page.getByTestId('device-search').fill(number);
  await page.getByTestId('device-search').press('Enter');
  const row = page.getByTestId('device-row').filter({ hasText: number });
  await expect(row).toHaveCount(1);
  return row;
}

/** Chooses an option of a form's select field by its shown name. */
export async function pick(page: Page, field: string, option: string) {
  await page.getByTestId(`form-field-${field}`).getByRole('combobox').click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The text a date-time field holds (its hidden input, in the API's wall-clock format). */
export const valueOf = (field: Locator) => field.locator('input').first();

/** Types a date-time from the keyboard: focus the field's first section and type the digits in order. */
export async function typeInto(page: Page, field: Locator, digits: string) {
  await field.getByRole('spinbutton').first().click();
  await page.keyboard.type(digits);
  await page.keyboard.press('Tab');
}

/** Screenshots for review, written only when SHOTS_DIR names a folder. */
export async function shot(page: Page, name: string, fullPage = false) {
  const dir = process.env.SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage });
}

/**
 * `test` for every spec.
 *
 * A worker's tests share one browser context, as one person's browser keeps its cache from one visit to
 * the next: the console's files stay cached and compiled. A fresh context per test fetched and compiled
 * the whole console again in every test, about 2 s of this two-core machine's time each. What a test
 * leaves behind goes when it ends: its pages (and with them their session storage and routes), the
 * cookies, and the local storage and databases of the console's origin. A spec aimed at another server
 * (`test.use({ baseURL })`) gets a context of its own.
 *
 * And the page's calls to the server are checked against /openapi.json (contract.ts): a call the
 * document does not describe, or a body or answer it does not accept, fails the test.
 */
export const test = base.extend<{ apiContract: void }, { workerContext: BrowserContext }>({
  workerContext: [
    async ({ browser }, use, workerInfo) => {
      const context = await browser.newContext(contextOptions(workerInfo.project.use));
      await use(context);
      await context.close();
    },
    { scope: 'worker' },
  ],
  context: async ({ workerContext, browser, baseURL }, use, testInfo) => {
    if (baseURL !== testInfo.project.use.baseURL) {
      const own = await browser.newContext({ ...contextOptions(testInfo.project.use), baseURL });
      await use(own);
      await own.close();
      return;
    }
    await use(workerContext);
    await forget(workerContext, new URL(baseURL!).origin);
  },
  apiContract: [
    async ({ context, baseURL }, use) => {
      const watch = watchContract(context, baseURL!, () => apiDocument(baseURL!, ADMIN));
      await use();
      expect((await watch.check()).join('\n'), 'calls that differ from the API document').toBe('');
    },
    { auto: true },
  ],
});

/** The options of the configuration a context is made with. */
function contextOptions(use: BrowserContextOptions): BrowserContextOptions {
  const { baseURL, locale, viewport, reducedMotion } = use;
  return { baseURL, locale, viewport, reducedMotion };
}

/** Closes a test's pages and clears what it stored, keeping the cache. */
async function forget(context: BrowserContext, origin: string) {
  const page = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'local_storage,session_storage,indexeddb,cache_storage,service_workers' });
  await cdp.detach();
  // Every origin's cookies, not only the console's.
  await context.clearCookies();
  for (const p of context.pages()) await p.close();
}

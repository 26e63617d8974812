import { readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, ADMIN, USER, login, openMenu, pick, shot } from './helpers';

test('the login form asks for the account and the password', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('账号不能为空')).toBeVisible();
  await page.getByTestId('login-phone').fill(ADMIN.phone);
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('密码不能为空')).toBeVisible();
  await page.getByTestId('login-password').fill('wrong-password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('账号或密码错误')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('in English a refused sign-in and a refused registration say why in English', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.goto('/login');
  await page.getByTestId('login-phone').fill(ADMIN.phone);
  await page.getByTestId('login-password').fill('wrong-password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('Wrong account or password')).toBeVisible();
  await page.getByTestId('login-register').click();
  const form = { name: 'Another agent', phone: '13800000001', password: 'Another@123', confirm: 'Another@123' };
  for (const [field, value] of Object.entries(form)) await page.getByTestId(`register-${field}`).fill(value);
  await page.getByTestId('register-submit').click();
  await expect(page.getByText('This mobile number is already registered')).toBeVisible();
  await shot(page, 'console-register-refused-en');
});

test('an administrator creates a product and a device, finds it, switches language and logs out', async ({ page }) => {
  await login(page, ADMIN);
  await openMenu(page, 'product');
  await expect(page).toHaveURL(/\/product$/);

  // A product: the dialog refuses an empty form with the spec's messages, then saves.
  await page.getByTestId('product-add').click();
  const dialog = page.getByTestId('form-dialog');
  await page.getByTestId('form-save').click();
  await expect(dialog.getByText('设备编号不能为空')).toBeVisible();
  await expect(dialog.getByText('产品类型不能为空')).toBeVisible();
  await page.getByTestId('form-input-fNumber').fill('E2E-PRODUCT');
  await page.getByTestId('form-input-fName').fill('端到端产品');
  await pick(page, 'fCategoryId', '智能开关');
  await pick(page, 'fProtocol', 'MQTT');
  await pick(page, 'fDeviceType', '4G设备');
  // The libraries of commands sent to it offer the send ones only; the reported ones, the receive ones.
  await page.getByTestId('form-field-fSendJsonIds').getByRole('combobox').click();
  await expect(page.getByRole('option', { name: '开关控制' })).toBeVisible();
  await expect(page.getByRole('option', { name: '数据上报' })).toHaveCount(0);
  await page.getByRole('option', { name: '开关控制' }).click();
  await page.getByRole('option', { name: '刷新' }).click();
  await page.keyboard.press('Escape');
  await pick(page, 'fReceiveJsonIds', '数据上报');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('form-field-fSendJsonIds')).toContainText('开关控制、刷新');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('产品保存成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  const card = page.getByTestId('product-card').filter({ hasText: 'E2E-PRODUCT' });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('product-status')).toHaveText('未发布');

  // Its device count leads to the device list filtered to it.
  await card.getByTestId('product-device-count').click();
  await expect(page).toHaveURL(/\/device\?product_id=\d+/);
  await expect(page.getByTestId('device-counter-all-value')).toHaveText('0');

  // A device under it.
  await page.getByTestId('device-add').click();
  await page.getByTestId('form-save').click();
  await expect(dialog.getByText('所属产品不能为空')).toBeVisible();
  await expect(dialog.getByText('设备编号不能为空')).toBeVisible();
  await pick(page, 'fProductId', '端到端产品');
  await page.getByTestId('form-input-fNumber').fill('E2E-DEVICE-1');
  await page.getByTestId('form-input-fName').fill('端到端设备');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('设备保存成功')).toBeVisible();
  await expect(page.getByTestId('device-counter-all-value')).toHaveText('1');

  // Found by keyword from the whole list.
  await page.getByTestId('device-reset').click();
  await page.getByTestId('device-search').fill('E2E-DEVICE');
  await page.getByTestId('device-search').press('Enter');
  const rows = page.getByTestId('device-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('端到端设备');
  await expect(rows.first()).toContainText('端到端产品');

  // Editing keeps the device number read-only.
  await rows.first().getByTestId('device-edit').click();
  await expect(page.getByTestId('form-input-fNumber')).toBeDisabled();
  await page.getByTestId('form-cancel').click();

  // English, then Traditional Chinese, at run time.
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-option-en-US').click();
  await expect(page.getByTestId('menu-item-device')).toContainText('Devices');
  await expect(page.getByTestId('device-add')).toContainText(/add/i);
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-option-zh-TW').click();
  await expect(page.getByTestId('menu-item-device')).toContainText('設備管理');
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-option-zh-CN').click();
  await expect(page.getByTestId('menu-item-device')).toContainText('设备管理');

  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/device');
  await expect(page).toHaveURL(/\/login$/);
});

test('the tab bar keeps home first and closes others and all', async ({ page }) => {
  await login(page, ADMIN);
  await openMenu(page, 'product');
  await openMenu(page, 'device');
  const tabs = page.getByTestId('tab');
  await expect(tabs).toHaveCount(3);
  await expect(tabs.first()).toHaveAttribute('data-path', '/home');
  await expect(tabs.first().getByTestId('tab-close')).toHaveCount(0);
  await page.getByTestId('tab-actions').click();
  await page.getByTestId('tab-close-others').click();
  await expect(tabs).toHaveCount(2);
  await expect(tabs.nth(1)).toHaveAttribute('data-path', '/device');
  await page.getByTestId('tab-actions').click();
  await page.getByTestId('tab-close-all').click();
  await expect(tabs).toHaveCount(1);
  await expect(page).toHaveURL(/\/home$/);
});

test('an ordinary user sees no product changes and the server refuses them', async ({ page }) => {
  await login(page, USER);
  await openMenu(page, 'product');
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  await expect(page.getByTestId('product-delete')).toHaveCount(0);
  await expect(page.getByTestId('product-add')).toHaveCount(0);
  await expect(page.getByTestId('product-view').first()).toBeVisible();

  // Hiding the button is not the protection: the server answers 401 to the user's own token.
  const refused = await page.evaluate(async () => {
    const r = await fetch('/biz/t-product/del', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: localStorage.getItem('token') ?? '' },
      body: JSON.stringify({ fId: 1 }),
    });
    return { status: r.status, body: await r.json() };
  });
  expect(refused.status).toBe(401);
  expect(refused.body.message).toBe('没有操作权限');

  // Only the devices shared with the user, and a view button instead of edit.
  await openMenu(page, 'device');
  await expect(page.getByTestId('device-counter-all-value')).toHaveText('5');
  await expect(page.getByTestId('device-edit')).toHaveCount(0);
  await expect(page.getByTestId('device-view').first()).toBeVisible();
});

test('an expired session returns to the login page', async ({ page }) => {
  await login(page, ADMIN);
  await page.evaluate(() => localStorage.setItem('token', 'expired.token.value'));
  await page.goto('/device');
  await expect(page).toHaveURL(/\/login$/, { timeout: 15_000 });
});

/** Runs `during` while the built console no longer serves the chunks named `prefix`, as after an update. */
async function withoutChunks(prefix: string, during: () => Promise<void>) {
  const assets = join(import.meta.dirname, '..', '..', 'dist', 'app', 'assets');
  const chunks = readdirSync(assets).filter((f) => f.startsWith(prefix));
  expect(chunks.length).toBeGreaterThan(0);
  try {
    for (const f of chunks) renameSync(join(assets, f), join(assets, `${f}.away`));
    await during();
  } finally {
    for (const f of chunks) renameSync(join(assets, `${f}.away`), join(assets, f));
  }
}

const LOAD_FAILED = '页面加载失败：网络中断，或控制台已更新。请刷新页面后重试。';

test('a page whose code is gone after an update says so, and a reload brings it', async ({ page }) => {
  await login(page);
  await withoutChunks('DruidPage-', async () => {
    await page.goto('/druid/');
    await expect(page.getByTestId('page-load-failed')).toContainText(LOAD_FAILED);
    // The shell still works around it.
    await expect(page.getByTestId('tab-bar')).toBeVisible();
    await shot(page, 'console-page-load-failed');
  });
  await page.getByRole('button', { name: '刷新页面' }).click();
  await expect(page.getByTestId('druid-page')).toBeVisible();
  await expect(page.getByTestId('page-load-failed')).toHaveCount(0);
});

test('a dialog outside any page whose code is gone says so for the whole console, and a reload brings it', async ({ page }) => {
  await login(page);
  await withoutChunks('PasswordDialog-', async () => {
    await page.getByTestId('user-menu').click();
    await page.getByTestId('change-password').click();
    await expect(page.getByTestId('page-load-failed')).toContainText(LOAD_FAILED);
  });
  await page.getByRole('button', { name: '刷新页面' }).click();
  await page.getByTestId('user-menu').click();
  await page.getByTestId('change-password').click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.getByTestId('page-load-failed')).toHaveCount(0);
});

import { expect, test, findDevice, login } from './helpers';

// The server words its command answers in Chinese, as the specification does; an English console
// reads them in English.
test('an English console reads the answers to a switch command in English', async ({ page }) => {
  await login(page, undefined, 'en-US');
  const row = await findDevice(page, 'DEV000011');
  await expect(row.getByTestId('device-online')).toHaveText('Online', { timeout: 30_000 });

  const toggle = row.getByTestId('device-switch');
  await toggle.click();
  await expect(page.getByText(/^(Open|Close): command sent$/)).toBeVisible();
  // Within 3 s of the last command the server refuses another (spec 000 §4).
  await expect(toggle).toBeEnabled();
  await toggle.click();
  await expect(page.getByText('Too many clicks, take a break')).toBeVisible();
  await expect(page.getByText('点击太频繁，休息一下')).toHaveCount(0);
});

test('a refused share names the failure once, and an English console reads its reason in English', async ({ page }) => {
  await login(page);
  await page.goto('/device');
  await page.getByTestId('device-share-more').click();
  const dialog = page.getByTestId('device-share-dialog');
  await dialog.getByTestId('device-share-devices').click();
  await page.getByRole('option').first().click();
  await page.keyboard.press('Escape');
  await dialog.getByTestId('device-share-user').fill('13999999999');
  await dialog.getByTestId('device-share-submit').click();
  await expect(dialog.getByTestId('device-share-error')).toHaveText('设备分享失败:用户不存在');

  await page.goto('/login');
  await login(page, undefined, 'en-US');
  await (await findDevice(page, 'DEV000009')).getByText('DEV000009').click();
  const drawer = page.getByTestId('device-drawer');
  await drawer.getByTestId('device-tab-shares').click();
  await drawer.getByTestId('share-add').click();
  await page.getByTestId('share-user').fill('13999999999');
  await page.getByTestId('share-save').click();
  await expect(page.getByTestId('share-dialog')).toContainText('Sharing failed: no such user');
});

import { expect, test, login } from './helpers';

// The server words its command answers in Chinese, as the specification does; an English console
// reads them in English.
test('an English console reads the answers to a switch command in English', async ({ page }) => {
  await login(page, undefined, 'en-US');
  await page.goto('/device');
  await page.getByTestId('device-search').fill('DEV000011');
  await page.getByTestId('device-search').press('Enter');
  const row = page.getByTestId('device-row').filter({ hasText: 'DEV000011' });
  await expect(row).toHaveCount(1);
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

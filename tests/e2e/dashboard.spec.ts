import { expect, test, login } from './helpers';

test('the home dashboard counts the simulated devices online and shows them on the map', async ({ page }) => {
  await login(page);
  const online = page.getByTestId('dashboard-device-online');
  // The simulator's devices come online a few seconds after the server starts; the card's refresh asks again.
  await expect(async () => {
    await page.getByTestId('dashboard-refresh-device').click();
    expect(Number(await online.textContent())).toBeGreaterThan(0);
  }).toPass({ timeout: 30_000 });
  // The demo's 22 devices, and any that other tests of this run added.
  expect(Number(await page.getByTestId('dashboard-device-all').textContent())).toBeGreaterThanOrEqual(22);
  // The demo's four console accounts.
  await expect(page.getByTestId('dashboard-user-all')).toHaveText('4');
  // The administrator handles the rental alarms too (counted exactly in tests/api/jurisdiction.test.ts).
  await expect(page.getByTestId('dashboard-alarm-month')).toHaveText(/^\d[\d,]*$/);
  // The map loads when its place is in view; the place is gone once it has (maybe while scrolling to it).
  await page
    .getByTestId('dashboard-map-place')
    .scrollIntoViewIfNeeded({ timeout: 5000 })
    .catch(() => undefined);
  await expect(page.getByTestId('map-marker').first()).toBeAttached();
  expect(Number(await page.getByTestId('dashboard-cpu-value').textContent().then((t) => parseFloat(t ?? '')))).toBeGreaterThanOrEqual(0);
});

test('statistics: the spec messages, a query over chosen devices, and the export', async ({ page }) => {
  await login(page);
  await page.goto('/statistics');
  await expect(page.getByTestId('statistics-page')).toBeVisible();
  await page.getByTestId('statistics-query').click();
  await expect(page.getByText('请选择需要统计的设备')).toBeVisible();

  const devices = page.getByTestId('statistics-devices');
  await devices.getByRole('combobox').click();
  await page.getByRole('option', { name: /DEV000009/ }).click();
  await devices.getByRole('combobox').click();
  await page.getByRole('option', { name: /DEV000010/ }).click();
  await page.keyboard.press('Escape');
  await page.getByTestId('statistics-query').click();
  await expect(page.getByTestId('statistics-totals')).toBeVisible();
  await expect(page.getByTestId('statistics-total-sum')).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByTestId('statistics-export').click();
  expect((await download).suggestedFilename()).toBe('数据统计.xlsx');
});

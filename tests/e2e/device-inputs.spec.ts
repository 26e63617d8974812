import type { Page } from '@playwright/test';
import { expect, test, findDevice, login, pick } from './helpers';

/** Counts the page's calls to one path, to prove a refused value never reached the server. */
function callsTo(page: Page, path: string) {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === path) calls.push(r.postData() ?? '');
  });
  return calls;
}

async function openDevice(page: Page, number: string) {
  await (await findDevice(page, number)).getByText(number).click();
  return page.getByTestId('device-drawer');
}

test('a number outside its range is refused under its field in the console language, before any call', async ({ page }) => {
  await login(page, undefined, 'en-US');
  const saves = callsTo(page, '/biz/t-device/addorupdate');
  await page.goto('/device');
  await page.getByTestId('device-add').click();
  await pick(page, 'fProductId', '485智能开关');
  await page.getByTestId('form-field-fNumber').locator('input').fill('RANGE-1');
  await page.getByTestId('form-field-fGpsLongitude').locator('input').fill('500');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('form-field-fGpsLongitude')).toContainText('Longitude must be between -180 and 180');
  expect(saves).toHaveLength(0);
});

test('an alarm-setting threshold that is no number or out of range is refused in the console language, never saved as a default', async ({ page }) => {
  await login(page, undefined, 'en-US');
  const saves = callsTo(page, '/biz/t-device-alarm-cabinet/addorupdate');
  const drawer = await openDevice(page, 'DEV000011');
  await drawer.getByTestId('device-tab-cabinet').click();
  const cabinet = drawer.getByTestId('device-cabinet-tab');
  await cabinet.getByTestId('cabinet-add').click();
  const draft = cabinet.getByTestId('cabinet-row').last();
  await draft.getByTestId('cabinet-fUnit').locator('..').click();
  await page.getByRole('option', { name: 'ppm' }).click();
  await draft.getByTestId('cabinet-fGasEn').fill('CO');

  await draft.getByTestId('cabinet-fAlarmOne').fill('abc');
  await draft.getByTestId('cabinet-save').click();
  await expect(cabinet.getByTestId('cabinet-error').last()).toHaveText('Level 1 must be 1-1000');

  await draft.getByTestId('cabinet-fAlarmOne').fill('100');
  await draft.getByTestId('cabinet-fMax').fill('5000');
  await draft.getByTestId('cabinet-save').click();
  await expect(cabinet.getByTestId('cabinet-error').last()).toHaveText('Maximum must be 1-1000');

  await draft.getByTestId('cabinet-fMax').fill('');
  await draft.getByTestId('cabinet-save').click();
  await expect(cabinet.getByTestId('cabinet-error').last()).toHaveText('Maximum must be 1-1000');
  expect(saves).toHaveLength(0);
  await expect(draft.getByTestId('cabinet-unsaved')).toBeVisible();
});

test('a breaker parameter refused by its form says so under the field and leaves no error in the browser console', async ({ page }) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await login(page);
  const drawer = await openDevice(page, 'DEV000001');
  await drawer.getByTestId('device-tab-params').click();
  // The fields open once the device has answered the read (or the read has timed out).
  await expect(drawer.getByTestId('breaker-read')).toBeEnabled({ timeout: 60_000 });
  const section = drawer.getByTestId('protection-section');
  await section.locator('input#root_Ue').fill('0');
  await section.getByTestId('protection-save').click();
  await expect(section).toContainText('取值范围 1-4294967295');
  expect(errors.filter((e) => e.includes('Form validation failed'))).toEqual([]);
});

test("a timer's reverse delay beyond a day is refused in the console language, before any call", async ({ page }) => {
  await login(page, undefined, 'en-US');
  const saves = callsTo(page, '/biz/t-device-timing/saves');
  const drawer = await openDevice(page, 'DEV000010');
  await drawer.getByTestId('device-tab-timers').click();
  await drawer.getByRole('button', { name: 'Add timer' }).click();
  const dialog = page.getByTestId('timer-dialog');
  await dialog.getByTestId('timer-reverse').click();
  await dialog.getByTestId('timer-reverse-second').fill('100000');
  await dialog.getByTestId('timer-save').click();
  await expect(dialog).toContainText('Reverse seconds must be at most 86400');
  await dialog.getByTestId('timer-reverse-second').fill('1.5');
  await dialog.getByTestId('timer-save').click();
  await expect(dialog).toContainText('Reverse seconds must be an integer');
  expect(saves).toHaveLength(0);
});

import type { Page } from '@playwright/test';
import { OFFICER, expect, test, login, shot } from './helpers';

/** The total the list's pager states (…共 N 条 / of N). */
async function total(page: Page): Promise<number> {
  const pager = page.locator('[data-testid$="-pagination"]').first();
  await expect(pager).toContainText(/\d/);
  const text = await pager.innerText();
  return Number(/共\s*([\d,]+)/.exec(text)?.[1]?.replace(/,/g, '') ?? NaN);
}

async function logout(page: Page) {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login/);
}

test('an officer sees the alarms of the street in charge; the administrator adds a street from the user form', async ({ page }) => {
  // The demo officer is in charge of 石牌街: the summary after login, and the door-lock list of that street.
  await login(page, OFFICER);
  const summary = page.getByTestId('alarm-summary');
  await expect(summary).toBeVisible();
  // The officer's home is the street's alarms and the server, not device figures the officer has none of.
  await expect(page.getByTestId('dashboard-card-alarm')).toBeVisible();
  await expect(page.getByTestId('dashboard-alarm-month')).toHaveText(/^\d[\d,]*$/);
  await expect(page.getByTestId('dashboard-system')).toBeVisible();
  await expect(page.getByTestId('dashboard-card-device')).toHaveCount(0);
  await expect(page.getByTestId('dashboard-history')).toHaveCount(0);
  await shot(page, 'jurisdiction-officer-home');
  await summary.getByTestId('alarm-summary-lock').click();
  await expect(page).toHaveURL(/\/alarmLock$/);
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  const before = await total(page);
  expect(before).toBeGreaterThan(0);
  await shot(page, 'jurisdiction-officer-locks');
  await logout(page);

  // The administrator sees more, and puts the officer in charge of 五山街 as well.
  await login(page);
  await page.getByTestId('alarm-summary-close').click();
  await page.goto('/alarmLock');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  const all = await total(page);
  expect(all).toBeGreaterThan(before);
  await page.goto('/sys-user');
  await page.getByTestId('filter-keyword').fill('演示民警');
  await page.getByTestId('list-query').click();
  const row = page.getByTestId('list-row').filter({ hasText: '演示民警' });
  await expect(row).toHaveCount(1);
  await row.getByTestId('list-edit').click();
  const form = page.getByTestId('form-dialog');
  const streets = form.getByTestId('form-field-streets');
  await expect(streets.locator('.MuiChip-root', { hasText: '石牌街' })).toBeVisible();
  const picker = 'form-field-streets-picker';
  await page.getByTestId(`${picker}-input`).click();
  for (const [level, name] of [['province', '广东省'], ['city', '广州市'], ['district', '天河区'], ['street', '五山街']]) {
    await page.getByTestId(`${picker}-level-${level}`).getByRole('menuitem', { name, exact: true }).click();
  }
  await expect(page.getByTestId(`${picker}-panel`)).toBeHidden();
  await expect(streets.locator('.MuiChip-root', { hasText: '五山街' })).toBeVisible();
  await shot(page, 'jurisdiction-user-form');
  await page.getByTestId('form-save').click();
  await expect(form).toBeHidden();
  // The detail drawer names both.
  await row.getByTestId('user-detail').click();
  await expect(page.getByTestId('user-basic')).toContainText('石牌街、五山街');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('user-drawer')).toBeHidden();
  await logout(page);

  // The officer's next visit shows both streets' alarms.
  await login(page, OFFICER);
  await page.getByTestId('alarm-summary-close').click();
  await page.goto('/alarmLock');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  await expect.poll(() => total(page)).toBeGreaterThan(before);
  expect(await total(page)).toBeLessThanOrEqual(all);
  await logout(page);

  // Put back as the demo has it: the chip of 五山街 removed.
  await login(page);
  await page.getByTestId('alarm-summary-close').click();
  await page.goto('/sys-user');
  await page.getByTestId('filter-keyword').fill('演示民警');
  await page.getByTestId('list-query').click();
  await page.getByTestId('list-row').filter({ hasText: '演示民警' }).getByTestId('list-edit').click();
  await streets.locator('.MuiChip-root', { hasText: '五山街' }).locator('.MuiChip-deleteIcon').click();
  await expect(streets.locator('.MuiChip-root')).toHaveCount(1);
  await page.getByTestId('form-save').click();
  await expect(form).toBeHidden();
});

import { chromium } from '@playwright/test';
const base = 'http://localhost:8383';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
async function session(locale: string, phone: string, password: string) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(base + '/login');
  await page.evaluate((l) => localStorage.setItem('locale', l), locale);
  await page.goto(base + '/login');
  await page.getByTestId('login-phone').fill(phone);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/home$/);
  return page;
}
for (const locale of ['zh-CN', 'zh-TW', 'en-US']) {
  const page = await session(locale, '13800000000', 'Admin@123');
  await page.getByTestId('alarm-summary-close').click().catch(() => undefined);
  await page.goto(base + '/sys-user');
  await page.getByTestId('list-row').first().waitFor();
  await page.getByTestId('list-row').filter({ hasText: '演示民警' }).getByTestId('list-edit').click();
  await page.getByTestId('form-field-streets').locator('.MuiChip-root').first().waitFor();
  await page.getByTestId('form-field-fAreaIds-picker-input').click();
  await page.getByTestId('form-field-fAreaIds-picker-level-province').getByRole('menuitem').first().click();
  await page.waitForTimeout(600);
  await page.screenshot({ path: `/tmp/shots/form-picker-${locale}.png` });
  await page.keyboard.press('Escape');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/shots/form-${locale}.png` });
  await page.close();
}
const officer = await session('zh-CN', '13800000003', 'Officer@123');
await officer.waitForTimeout(1500);
await officer.screenshot({ path: '/tmp/shots/officer-home.png' });
await officer.getByTestId('alarm-summary-close').click().catch(() => undefined);
await officer.goto(base + '/alarmLock');
await officer.getByTestId('list-row').first().waitFor();
await officer.screenshot({ path: '/tmp/shots/officer-locks.png' });
await officer.goto(base + '/touchAlarm');
await officer.waitForTimeout(1500);
await officer.screenshot({ path: '/tmp/shots/officer-touch.png' });
await browser.close();

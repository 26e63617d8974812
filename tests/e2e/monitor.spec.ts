/**
 * The embedded pages: the API documentation rendered by the server's viewer inside the console, the
 * system monitor's live figures, and a script error thrown in the page arriving in the error log.
 */
import type { Page } from '@playwright/test';
import { expect, test, login as signIn, openMenu, shot } from './helpers';

/** Signs in as the administrator and puts the unsigned-alarm summary away, so it covers no figure. */
async function login(page: Page) {
  await signIn(page);
  const close = page.getByTestId('alarm-summary-close');
  await close.click({ timeout: 5000 }).catch(() => undefined);
}

test('an administrator reads the API documentation inside the console', async ({ page }) => {
  await login(page);
  await openMenu(page, 'api-docs', 'system-manage');
  const frame = page.frameLocator('[data-testid="api-docs-frame"]');
  // A declared call, with its permission codes, as the server documents it.
  await frame.locator('h3[data-tag="user"]').click();
  const op = frame.locator('.opblock', { hasText: '/system/t-sys-user/addOrUpdateSysUser' });
  await expect(op).toBeVisible();
  await op.locator('.opblock-summary').click();
  await expect(op.getByText('Permission: user:add or user:edit.')).toBeVisible();
  await expect(op.getByText('fChineseName').first()).toBeVisible();
  await shot(page, 'monitor-api-docs');
});

test('the system monitor shows live figures', async ({ page }) => {
  await login(page);
  await openMenu(page, 'sys-monitor', 'system-manage');
  const updated = page.getByTestId('monitor-updated');
  await expect(updated).toBeVisible();
  await expect(page.getByTestId('monitor-rss')).toHaveText(/\d+(\.\d)? MB/);
  await expect(page.getByTestId('monitor-mqtt-state')).toContainText('已连接');
  // Polled: the time of the figures moves on, and the calls the page makes are counted.
  const first = await updated.textContent();
  await expect(updated).not.toHaveText(first!, { timeout: 8000 });
  await expect.poll(async () => Number(await page.getByTestId('monitor-last-minute').textContent())).toBeGreaterThan(2);
  // The broker and the intake: the embedded broker publishes no figures of itself, and says so.
  const intake = page.getByTestId('monitor-intake');
  await expect(intake).toContainText('消息代理与设备消息接收');
  await expect(page.getByTestId('monitor-dropped')).toHaveText('代理未报告');
  // The browser tests' server is started with INTAKE_LAG_ALARM_S=600 (playwright.config.ts).
  await expect(intake).toContainText('滞后超过 600 秒时告警');
  await shot(page, 'monitor-system', true);

  await page.goto('/druid/');
  await expect(page.getByTestId('druid-table-row').first()).toBeVisible();
  await expect(page.getByTestId('druid-statement').first()).toBeVisible();
  await shot(page, 'monitor-druid');
});

test('the system monitor speaks English to an English console', async ({ page }) => {
  await signIn(page, undefined, 'en-US');
  await page.getByTestId('alarm-summary-close').click({ timeout: 5000 }).catch(() => undefined);
  await openMenu(page, 'sys-monitor', 'system-manage');
  const intake = page.getByTestId('monitor-intake');
  await expect(intake).toContainText('Broker and device message intake');
  await expect(page.getByTestId('monitor-dropped')).toHaveText('not reported by the broker');
  await expect(intake).toContainText('Alarm when more than 600 s behind');
  await shot(page, 'monitor-system-en', true);
});

test('a script error thrown in the page shows up in the error log', async ({ page }) => {
  await login(page);
  const marker = `e2e-${Date.now()}`;
  // Thrown from a timer, as a bug in an event handler would be: only the global handler sees it.
  await page.evaluate((m) => setTimeout(() => {
    throw new Error(m);
  }), marker);
  await openMenu(page, 'errorLog', 'system-manage');
  await expect(page.getByTestId('list-row').filter({ hasText: marker })).toBeVisible();
  await expect(page.getByTestId('list-row').filter({ hasText: marker })).toContainText('脚本错误');
  await shot(page, 'monitor-error-log');
  const download = page.waitForEvent('download');
  await page.getByTestId('error-log-export').click();
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);

  // English and Traditional Chinese.
  await page.evaluate(() => localStorage.setItem('locale', 'en-US'));
  await page.reload();
  await expect(page.getByTestId('list-row').filter({ hasText: marker })).toContainText('Script error');
  await shot(page, 'monitor-error-log-en');
  await page.evaluate(() => localStorage.setItem('locale', 'zh-TW'));
  await page.goto('/monitor');
  await expect(page.getByTestId('monitor-mqtt-state')).toContainText('已連線');
  await shot(page, 'monitor-system-tw');
});

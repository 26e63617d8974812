import { writeFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { expect, test, ADMIN, login, openMenu, shot } from './helpers';

const unread = async (page: Page) => Number((await page.getByTestId('message-unread').getAttribute('data-count')) || 0);

test('a feedback reply: the empty reply is refused first, then the reply is sent', async ({ page }) => {
  await login(page);
  await openMenu(page, 'feedbackAnswer', 'system-manage');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  await page.getByTestId('filter-content').fill('闪退');
  await page.getByTestId('list-query').click();
  await expect(page.getByTestId('list-row')).toHaveCount(1);
  await shot(page, 'feedback-answers');
  // This list replies; signing off belongs to the tenant flavour.
  await expect(page.getByTestId('feedback-sign')).toHaveCount(0);
  await page.getByTestId('feedback-reply-open').click();
  const dialog = page.getByTestId('feedback-reply');
  await dialog.getByTestId('feedback-answer-save').click();
  await expect(dialog.getByText('答复内容不能为空')).toBeVisible();
  await shot(page, 'feedback-answer-empty');
  await dialog.getByTestId('feedback-answer-input').fill('已修复，请更新到最新版本');
  await dialog.getByTestId('feedback-answer-save').click();
  await expect(page.getByText('反馈答复成功')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('list-row').first()).toContainText('已修复，请更新到最新版本');
});

test('a finished import arrives in the top bar live; reading it drops the unread count by one', async ({ page }) => {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('布控人员');
  sheet.addRow(['人员名称', '身份证号', '布控类型', '布控人', '布控开始时间', '布控结束时间', '布控状态', '手机号']);
  sheet.addRow(['消息中心甲', '110101199003075555', '1', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', '13800138055']);
  const file = test.info().outputPath('people.xlsx');
  writeFileSync(file, Buffer.from(await book.xlsx.writeBuffer()));

  await login(page, ADMIN);
  await expect(page.getByTestId('message-unread')).toHaveAttribute('data-count', /\d+/);
  const before = await unread(page);
  await page.goto('/controlPerson');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  await page.getByTestId('control-person-import-file').setInputFiles(file);
  // No reload: the message comes over the event stream. The running devices raise alarms of their own,
  // whose messages may arrive at any moment too: the count grows by one at least.
  await expect(page.getByText('新消息：导入完成通知')).toBeVisible();
  await expect.poll(() => unread(page)).toBeGreaterThan(before);
  await shot(page, 'messages-arrived');

  await page.getByTestId('message-bell').click();
  await expect(page).toHaveURL(/\/message$/);
  // The newest import message is this one (a retry of the test leaves an earlier one).
  const imported = page.getByTestId('message-item').filter({ hasText: '导入完成通知' });
  await expect(imported.first()).toBeVisible();
  const importsUnread = await imported.count();
  await shot(page, 'messages-unread');
  // The top bar counts the unread list: before reading, and after, when the import left it.
  const items = page.getByTestId('message-item');
  let others = 0;
  await expect(async () => {
    others = (await items.count()) - 1;
    expect(await unread(page)).toBe(others + 1);
  }).toPass();
  await imported.first().click();
  await expect(page.getByTestId('message-content')).toContainText('布控人员导入完成，共导入1条数据');
  await expect(imported).toHaveCount(importsUnread - 1);
  // One less, unless a device's alarm arrived meanwhile (then it is listed and counted too).
  await expect(async () => {
    const left = await items.count();
    expect(await unread(page)).toBe(left);
    expect(left).toBeGreaterThanOrEqual(others);
  }).toPass();
  await shot(page, 'messages-read');

  // Read → trash (it leaves the read list) → restored.
  await page.getByTestId('message-tab-readed').click();
  await imported.first().click();
  await expect(page.getByTestId('message-title')).toHaveText('导入完成通知');
  await page.getByTestId('message-remove').click();
  await expect(page.getByText('消息已移入回收站')).toBeVisible();
  await page.getByTestId('message-tab-trash').click();
  await imported.first().click();
  await expect(page.getByTestId('message-title')).toHaveText('导入完成通知');
  await shot(page, 'messages-trash');
  await page.getByTestId('message-restore').click();
  await expect(page.getByTestId('empty-state').first()).toBeVisible();
  await page.getByTestId('message-tab-readed').click();
  await expect(imported.first()).toBeVisible();
});

test('the message centre and the feedback replies in English', async ({ page }) => {
  await login(page, ADMIN, 'en-US');
  await page.goto('/message');
  await page.getByTestId('message-tab-readed').click();
  await page.getByTestId('message-item').first().click();
  await expect(page.getByTestId('message-content')).toBeVisible();
  await expect(page.getByRole('tab', { name: /Unread/ })).toBeVisible();
  await shot(page, 'messages-en');
  await page.goto('/feedbackAnswer');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  await page.getByTestId('feedback-reply-open').first().click();
  await page.getByTestId('feedback-answer-input').fill('');
  await page.getByTestId('feedback-answer-save').click();
  await expect(page.getByText('Reply content cannot be empty')).toBeVisible();
  await shot(page, 'feedback-answer-en');
});

test('the message centre in Traditional Chinese', async ({ page }) => {
  await login(page, ADMIN, 'zh-TW');
  await page.goto('/message');
  await expect(page.getByRole('tab', { name: /未讀訊息/ })).toBeVisible();
  await page.getByTestId('message-tab-readed').click();
  await page.getByTestId('message-item').first().click();
  await expect(page.getByTestId('message-content')).toBeVisible();
  await shot(page, 'messages-zh-TW');
});

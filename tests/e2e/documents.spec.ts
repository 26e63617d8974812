import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test, login, openMenu, shot } from './helpers';
import { solidPng } from '../../server/administration/feedback';

/** Waits for the read view's fade-in, so its screenshot is not of a half-shown dialog. */
async function readerShown(page: Page) {
  await expect(page.getByTestId('document-reader').locator('.MuiDialog-container')).toHaveCSS('opacity', '1');
}

/** The help-manual list, opened from the sidebar. */
async function openHelpManuals(page: Page) {
  await openMenu(page, 'helpManual', 'document-manage');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
}

test('a help manual written in the rich-text editor is saved and read formatted', async ({ page }) => {
  await login(page);
  await openHelpManuals(page);
  await shot(page, 'documents-help-list-zh-CN');

  await page.getByTestId('list-add').click();
  const editor = page.getByTestId('rt-content-fContent');
  await expect(editor).toBeVisible();
  // The spec's messages when title and content are missing.
  await page.getByTestId('form-save').click();
  await expect(page.getByText('标题名称不能为空')).toBeVisible();

  await page.getByTestId('form-input-fTitle').fill('端到端：门禁卡挂失');
  // A heading line, then a bold word and a red word.
  await editor.click();
  await page.getByTestId('rt-heading').click();
  await page.getByTestId('rt-heading-2').click();
  await page.keyboard.type('挂失步骤');
  await page.keyboard.press('Enter');
  // Typing starts once the toolbar shows the editor's mark turned on (and off): a key typed before the
  // editor has taken the click lands on the wrong side of it.
  await page.getByTestId('rt-bold').click();
  await expect(page.getByTestId('rt-bold')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.type('立即');
  await page.getByTestId('rt-bold').click();
  await expect(page.getByTestId('rt-bold')).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.type('拨打物业电话，');
  await page.getByTestId('rt-color').click();
  await page.getByTestId('rt-color-d32f2f').click();
  await page.keyboard.type('不要外借');
  await expect(editor.locator('h2')).toHaveText('挂失步骤');
  await expect(editor.locator('strong')).toHaveText('立即');
  await shot(page, 'documents-help-editor-zh-CN');

  // A picture through the upload (≤ 2 MB), inserted where the cursor is.
  const picture = test.info().outputPath('card.png');
  writeFileSync(picture, solidPng(120, 60, [25, 118, 210]));
  await page.getByTestId('rt-image-input').setInputFiles(picture);
  await expect(editor.locator('img')).toHaveAttribute('src', /^\/api\/upload\/[0-9a-f]+\.png$/);

  const saved = page.waitForResponse((r) => r.url().endsWith('/biz/t-help-manual/addOrUpdateHelpManual'));
  await page.getByTestId('form-save').click();
  const answer = await (await saved).json();
  expect(answer, JSON.stringify(answer)).toMatchObject({ success: true });
  await expect(page.getByTestId('form-dialog')).toBeHidden();

  // The list shows it; the read view shows it formatted, as the server cleaned and stored it.
  await page.getByTestId('filter-title').fill('门禁卡挂失');
  await page.getByTestId('list-query').click();
  const row = page.getByTestId('list-row').filter({ hasText: '端到端：门禁卡挂失' });
  await expect(row).toHaveCount(1);
  await row.getByTestId('list-read').click();
  const body = page.getByTestId('document-reader-body');
  await expect(page.getByTestId('document-reader-title')).toHaveText('端到端：门禁卡挂失');
  await expect(body.locator('h2')).toHaveText('挂失步骤');
  await expect(body.locator('strong')).toHaveText('立即');
  const red = body.locator('span', { hasText: '不要外借' });
  await expect(red).toHaveCSS('color', 'rgb(211, 47, 47)');
  await expect(body.locator('h2')).toHaveCSS('font-size', '21px');
  await expect(body.locator('img')).toBeVisible();
  await readerShown(page);
  await shot(page, 'documents-help-reader-zh-CN');
  await page.getByTestId('document-reader-close').click();

  // Edited again, the editor opens with the stored formatting.
  await row.getByTestId('list-edit').click();
  await expect(page.getByTestId('rt-content-fContent').locator('strong')).toHaveText('立即');
  await page.getByTestId('form-cancel').click();
});

test('the status switch saves at once', async ({ page }) => {
  await login(page);
  await openHelpManuals(page);
  const row = page.getByTestId('list-row').filter({ hasText: '报警签收流程' });
  const toggle = row.getByTestId('switch-fStatus');
  await expect(toggle).toBeChecked();
  const saved = page.waitForResponse((r) => r.url().endsWith('/biz/t-help-manual/updateStatus'));
  await toggle.click();
  expect((await (await saved).json()).success).toBe(true);
  await expect(page.getByText('操作成功')).toBeVisible();
  await expect(toggle).not.toBeChecked();
  // Stored: a reload shows it off, and it goes back on the same way.
  await page.reload();
  const again = page.getByTestId('list-row').filter({ hasText: '报警签收流程' }).getByTestId('switch-fStatus');
  await expect(again).not.toBeChecked();
  await again.click();
  await expect(again).toBeChecked();
});

for (const [locale, section] of [
  ['zh-TW', '文檔管理'],
  ['en-US', 'Documents'],
] as const) {
  test(`the document screens read in ${locale}`, async ({ page }) => {
    await login(page, undefined, locale);
    await openHelpManuals(page);
    await expect(page.getByTestId('menu-section-document-manage')).toContainText(section);
    await shot(page, `documents-help-list-${locale}`);
    await page.getByTestId('list-row').first().getByTestId('list-edit').click();
    await expect(page.getByTestId('rt-content-fContent')).toBeVisible();
    await shot(page, `documents-help-editor-${locale}`);
    await page.getByTestId('form-cancel').click();
    await page.getByTestId('list-row').first().getByTestId('list-read').click();
    await expect(page.getByTestId('document-reader-body').locator('h2')).toBeVisible();
    await readerShown(page);
    await shot(page, `documents-help-reader-${locale}`);
    await page.getByTestId('document-reader-close').click();
    for (const [page_, list] of [
      ['programHelpManual', 'programHelpManual'],
      ['rentalFile', 'rentalFile'],
      ['platform', 'platform'],
      ['platformFeedback', 'platformFeedback'],
      ['reminderRecord', 'reminderRecord'],
    ]) {
      await openMenu(page, page_, 'document-manage');
      await expect(page.getByTestId(`${list}-list`).getByTestId('list-row').first()).toBeVisible();
      await shot(page, `documents-${list}-${locale}`);
    }
  });
}

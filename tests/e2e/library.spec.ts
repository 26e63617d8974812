import { expect, test, login, openMenu, pick, shot } from './helpers';

test('the library tree expands, a field with a switch row is added and shows cut at 50 characters', async ({ page }) => {
  await login(page);
  await openMenu(page, 'productJson');
  const list = page.getByTestId('productJson-list');
  const root = list.getByTestId('list-row').filter({ hasText: '同步网关设备编号' });
  await expect(root).toBeVisible();
  // Collapsed: the child is not shown until its parent expands.
  await expect(list.getByTestId('list-row').filter({ hasText: '网关子设备' })).toHaveCount(0);
  await root.getByTestId('tree-toggle').click();
  const child = list.getByTestId('list-row').filter({ hasText: '网关子设备' });
  await expect(child).toBeVisible();
  await expect(child).toHaveAttribute('data-depth', '1');
  await expect(root).toContainText('412 同步网关设备编号');
  await shot(page, 'library-tree-zh', true);

  // Bid filter: a select of the spec's options.
  await page.getByTestId('filter-fBid').click();
  await page.getByRole('option', { name: '201 WiFi漏保主动上报' }).click();
  await page.getByTestId('list-query').click();
  await expect(list.getByTestId('list-row')).toHaveCount(1);
  await page.getByTestId('list-reset').click();
  await page.getByTestId('list-query').click();

  // The field drawer of the 201 library.
  await list.getByTestId('list-row').filter({ hasText: 'WiFi漏保主动上报' }).first().getByTestId('library-detail').click();
  const drawer = page.getByTestId('productJsonConf-list');
  await expect(page.getByTestId('library-drawer')).toContainText('查看描述库详情 — WiFi漏保主动上报');
  await expect(drawer.getByTestId('list-row')).toHaveCount(2);

  // A new field: the entity rule, then a switch with its default row and a long description.
  await drawer.getByTestId('list-add').click();
  const dialog = page.getByTestId('form-dialog');
  await page.getByTestId('form-save').click();
  await expect(dialog.getByText('标识符不能为空')).toBeVisible();
  await expect(dialog.getByText('功能点名称不能为空')).toBeVisible();
  await page.getByTestId('form-input-fJsonKey').fill('power');
  await page.getByTestId('form-input-fJsonName').fill('电源开关');
  await pick(page, 'fDataType', '实体');
  await pick(page, 'fValueType', '开关状态');
  await page.getByTestId('form-save').click();
  await expect(dialog.getByText('数据类型为实体/实体数组时，下级描述库不能为空')).toBeVisible();
  await pick(page, 'fDataType', '整数');
  await pick(page, 'fFunctionType', '开关');
  await expect(page.getByTestId('conf-switches-row')).toHaveCount(1);
  await expect(page.getByTestId('conf-switches-fOpenValue-0')).toHaveValue('1');
  await expect(page.getByTestId('conf-switches-fCloseValue-0')).toHaveValue('0');
  await page.getByTestId('conf-switches-fOpenReadValue-0').fill('on');
  const long = '这是一段很长的字段说明，'.repeat(8);
  await page.getByTestId('form-input-fJsonDes').fill(long);
  await shot(page, 'library-field-form-zh');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('字段保存成功')).toBeVisible();
  const row = drawer.getByTestId('list-row').filter({ hasText: 'power' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('开关状态');
  await expect(row.getByTestId('conf-description')).toHaveText(`${long.slice(0, 50)}...`);
  await row.getByTestId('conf-description').hover();
  await expect(page.getByRole('tooltip')).toHaveText(long);
  await shot(page, 'library-drawer-zh');

  // View mode shows the stored switch row and closes without saving.
  await row.getByTestId('list-view').click();
  await expect(page.getByTestId('conf-switches-fOpenReadValue-0')).toHaveValue('on');
  // View mode: one confirm button, which only closes (nothing is saved).
  await expect(page.getByTestId('form-cancel')).toHaveCount(0);
  await page.getByTestId('form-save').click();
  await expect(dialog).toBeHidden();
});

test('a function is created and deleted with the confirmation', async ({ page }) => {
  await login(page);
  await openMenu(page, 'productFunction');
  const list = page.getByTestId('productFunction-list');
  await expect(list.getByTestId('list-row').first()).toBeVisible();
  await list.getByTestId('list-add').click();
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('form-dialog').getByText('功能名称不能为空')).toBeVisible();
  await expect(page.getByTestId('form-dialog').getByText('描述库不能为空')).toBeVisible();
  // The type starts at 9, all.
  await expect(page.getByTestId('form-field-fType')).toContainText('全部');
  await page.getByTestId('form-input-fName').fill('端到端功能');
  await pick(page, 'fProductJsonId', '漏保自检结果');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('功能保存成功')).toBeVisible();
  const row = list.getByTestId('list-row').filter({ hasText: '端到端功能' });
  await expect(row).toContainText('漏保自检结果');
  await shot(page, 'library-functions-zh', true);
  await row.getByTestId('list-delete').click();
  await expect(page.getByTestId('confirm-message')).toHaveText('确定要删除吗！');
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByText('功能删除成功')).toBeVisible();
  await expect(row).toHaveCount(0);

  // A product offers functions picked from this list (spec 000: the product form).
  await openMenu(page, 'product');
  await page.getByTestId('product-add').click();
  await page.getByTestId('form-field-fFunctionIds').getByRole('combobox').click();
  await page.getByRole('option', { name: '开关控制' }).click();
  await page.getByRole('option', { name: '阈值设置' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('form-field-fFunctionIds')).toContainText('开关控制、阈值设置');
  await shot(page, 'library-product-functions-zh');
  await page.getByTestId('form-cancel').click();
  await openMenu(page, 'productFunction');

  // The same pages in English.
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-option-en-US').click();
  await expect(list.getByTestId('list-add')).toContainText('Add');
  await shot(page, 'library-functions-en', true);
  await openMenu(page, 'productJson');
  const libs = page.getByTestId('productJson-list');
  await libs.getByTestId('list-row').filter({ hasText: 'WiFi漏保主动上报' }).first().getByTestId('tree-toggle').click();
  await shot(page, 'library-tree-en', true);
  await libs.getByTestId('list-row').filter({ hasText: 'WiFi漏保主动上报' }).first().getByTestId('library-detail').click();
  await page.getByTestId('productJsonConf-list').getByTestId('list-view').first().click();
  await shot(page, 'library-field-view-en');
});

test('a description library or function still in use is kept, and the refusal reads in the console language', async ({ page }) => {
  await login(page, undefined, 'en-US');
  await openMenu(page, 'productJson');
  const list = page.getByTestId('productJson-list');
  // 数据上报 (telemetry) is read by the demo's products.
  const library = list.getByTestId('list-row').filter({ hasText: '数据上报' }).first();
  await library.getByTestId('list-delete').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByText(/^Description library delete failed: The description library is used by the product ".+" and cannot be deleted$/)).toBeVisible();
  await shot(page, 'library-delete-refused-en');
  await expect(library).toBeVisible();

  // The same refusal in Traditional Chinese, the product's name carried over.
  await page.evaluate(() => localStorage.setItem('locale', 'zh-TW'));
  await page.reload();
  await list.getByTestId('list-row').filter({ hasText: '数据上报' }).first().getByTestId('list-delete').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByText(/^描述庫刪除失敗：該描述庫已被產品「.+」使用，無法刪除$/)).toBeVisible();
  await page.evaluate(() => localStorage.setItem('locale', 'zh-CN'));
});

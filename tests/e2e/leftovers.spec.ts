import { expect, test, login, openMenu, pick, shot, typeInto, valueOf } from './helpers';

/** Today in the server's time zone (the demo server runs on its default, Asia/Shanghai). */
const serverToday = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());


test('a product property is saved from the product drawer and read back', async ({ page }) => {
  await login(page);
  await page.goto('/product');
  const card = page.getByTestId('product-card').filter({ hasText: 'P-RG-MCCB' });
  await card.getByTestId('product-view').click();
  const box = page.getByTestId('product-properties');
  await expect(box.getByText('暂无属性')).toBeVisible();
  await box.getByTestId('property-add').click();
  await box.getByTestId('property-name-0').fill('品牌');
  await box.getByTestId('property-value-0').fill('正泰');
  await box.getByTestId('property-add').click();
  // An empty row is refused before anything is sent.
  await box.getByTestId('property-save').click();
  await expect(box.getByText('属性名称不能为空')).toBeVisible();
  await box.getByTestId('property-remove-1').click();
  await box.getByTestId('property-save').click();
  await expect(page.getByText('产品属性保存成功')).toBeVisible();
  await shot(page, 'leftovers-product-properties');
  await page.getByTestId('drawer-close').click();
  await card.getByTestId('product-view').click();
  await expect(page.getByTestId('product-properties').getByTestId('property-value-0')).toHaveValue('正泰');
  await expect(page.getByTestId('product-properties').getByTestId('property-row')).toHaveCount(1);
});

test('the product form lists the functions; a failed save says 产品保存失败 with the server’s reason', async ({ page }) => {
  await login(page);
  await page.goto('/product');
  await page.getByTestId('product-add').click();
  const dialog = page.getByTestId('form-dialog');
  await dialog.getByTestId('form-field-fFunctionIds').getByRole('combobox').click();
  const options = page.getByRole('option');
  await expect(options.first()).toBeVisible();
  expect(await options.count()).toBeGreaterThan(1);
  await options.first().click();
  await page.keyboard.press('Escape');
  await shot(page, 'leftovers-product-functions');
  await dialog.getByTestId('form-input-fNumber').fill('P-RG-MCCB');
  await dialog.getByTestId('form-input-fName').fill('重复编号的产品');
  await pick(page, 'fCategoryId', '智能断路器');
  await pick(page, 'fProtocol', 'MQTT');
  await pick(page, 'fDeviceType', '塑壳断路器');
  await dialog.getByTestId('form-save').click();
  await expect(page.getByText('产品保存失败:产品编号已存在')).toBeVisible();
  // The refusal names the field: it is shown under it too.
  await expect(dialog.getByTestId('form-field-fNumber')).toContainText('产品编号已存在');
  // The form stays open with what was typed.
  await expect(dialog.getByTestId('form-input-fName')).toHaveValue('重复编号的产品');
});

test('a duplicate refused by the server is shown under its field in the console’s language', async ({ page }) => {
  await login(page, undefined, 'en-US');
  await page.goto('/product');
  await page.getByTestId('product-add').click();
  const dialog = page.getByTestId('form-dialog');
  await dialog.getByTestId('form-input-fNumber').fill('P-RG-MCCB');
  await dialog.getByTestId('form-input-fName').fill('Duplicate number');
  await pick(page, 'fCategoryId', 'Smart breaker');
  await pick(page, 'fProtocol', 'MQTT');
  await pick(page, 'fDeviceType', 'Plastic-case breaker');
  await dialog.getByTestId('form-save').click();
  // Under the field, brought into view at the top of the long form, and in the message.
  await expect(dialog.getByTestId('form-field-fNumber')).toContainText('Product number already exists');
  await expect(dialog.getByTestId('form-field-fNumber')).toBeInViewport();
  await expect(page.getByText(/Product number already exists/).last()).toBeVisible();
  await expect(page.getByText('产品编号已存在')).toHaveCount(0);
  await shot(page, 'leftovers-product-duplicate-en');
  // Typing again clears it.
  await dialog.getByTestId('form-input-fNumber').fill('P-EN-NEW');
  await expect(dialog.getByTestId('form-field-fNumber')).not.toContainText('already exists');
});

test('a place’s district is picked from the area tree', async ({ page }) => {
  await login(page);
  await openMenu(page, 'place', 'system-manage');
  await page.getByTestId('place-add').click();
  const dialog = page.getByTestId('form-dialog');
  await dialog.getByTestId('form-input-fName').fill('天河测试场所');
  await dialog.getByTestId('place-district-input').click();
  for (const [level, name] of [['province', '广东省'], ['city', '广州市'], ['district', '天河区']]) {
    await page.getByTestId(`place-district-level-${level}`).getByRole('menuitem', { name, exact: true }).click();
  }
  await expect(dialog.getByTestId('place-district-input')).toHaveValue('广东省 / 广州市 / 天河区');
  await shot(page, 'leftovers-place-district');
  await dialog.getByTestId('form-save').click();
  await expect(page.getByText('场所保存成功')).toBeVisible();
  const row = page.getByTestId('place-row').filter({ hasText: '天河测试场所' });
  await expect(row).toContainText('天河区');
  // Editing shows the stored district in the picker again.
  await row.getByTestId('place-edit').click();
  await expect(page.getByTestId('form-dialog').getByTestId('place-district-input')).toHaveValue('广东省 / 广州市 / 天河区');
});

test('the log filter’s date-time picker speaks English in en-US and takes keyboard and mouse', async ({ page }) => {
  await login(page, undefined, 'en-US');
  await page.goto('/oplog');
  const begin = page.getByTestId('oplog-begin');
  const end = page.getByTestId('oplog-end');
  await typeInto(page, begin, '202601010000');
  await expect(valueOf(begin)).toHaveValue('2026-01-01 00:00');
  // Mouse: open the calendar, which is in English whatever the browser's language, and take today.
  await end.getByRole('button', { name: /choose date/i }).click();
  const picker = page.getByRole('dialog');
  await expect(picker.getByRole('button', { name: 'OK' })).toBeVisible();
  await expect(picker.getByText(/(January|February|March|April|May|June|July|August|September|October|November|December) \d{4}/)).toBeVisible();
  await shot(page, 'leftovers-datetime-en');
  await picker.getByRole('button', { name: 'Today' }).click();
  await expect(valueOf(end)).toHaveValue(new RegExp(`^${serverToday()} \\d{2}:\\d{2}$`));
  await page.getByTestId('oplog-search').click();
  await expect(page.getByTestId('oplog-row').first()).toBeVisible();
  // A range that ends before today's sign-ins finds none of them.
  await typeInto(page, end, '202601020000');
  await expect(valueOf(end)).toHaveValue('2026-01-02 00:00');
  await page.getByTestId('oplog-search').click();
  await expect(page.getByTestId('oplog-row')).toHaveCount(0);
});

test('the date-time picker speaks Chinese in zh-CN and opens from the keyboard', async ({ page }) => {
  await login(page, undefined, 'zh-CN');
  await page.goto('/oplog');
  const begin = page.getByTestId('oplog-begin');
  // Keyboard only: focus the calendar button, open it with Enter, move a day with the arrows, accept.
  await begin.getByRole('button', { name: /选择日期/ }).focus();
  await page.keyboard.press('Enter');
  const picker = page.getByRole('dialog');
  await expect(picker.getByRole('button', { name: '确认' })).toBeVisible();
  await expect(picker.getByRole('button', { name: '今天' })).toBeVisible();
  await expect(picker.getByText(/[一二三四五六七八九十]+月 \d{4}|\d{4}年\d{1,2}月/)).toBeVisible();
  await shot(page, 'leftovers-datetime-zh-CN');
  await page.keyboard.press('Escape');
  await expect(picker).toBeHidden();
  await typeInto(page, begin, '202611010830');
  await expect(valueOf(begin)).toHaveValue('2026-11-01 08:30');
  await page.getByTestId('oplog-search').click();
  await expect(page.getByTestId('oplog-row').first()).toBeVisible();
});

test('the picker follows zh-TW too', async ({ page }) => {
  await login(page, undefined, 'zh-TW');
  await page.goto('/oplog');
  await page.getByTestId('oplog-begin').getByRole('button', { name: /選擇日期/ }).click();
  await expect(page.getByRole('dialog').getByRole('button', { name: '確認' })).toBeVisible();
  await page.waitForTimeout(400); // the popup's fade-in, for the picture only
  await shot(page, 'leftovers-datetime-zh-TW');
});

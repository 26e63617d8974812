import { statSync, writeFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, test, ADMIN, login, shot, typeInto, valueOf } from './helpers';

/** A control-person import sheet: the import's header, then these rows, written among the test's files. */
async function peopleSheet(name: string, rows: string[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('布控人员');
  sheet.addRow(['人员名称', '身份证号', '布控类型', '布控人', '布控开始时间', '布控结束时间', '布控状态', '手机号']);
  for (const row of rows) sheet.addRow(row);
  const file = test.info().outputPath(name);
  writeFileSync(file, Buffer.from(await book.xlsx.writeBuffer()));
  return file;
}

test('a control-person import with one bad row is refused whole and names the row', async ({ page }) => {
  const file = await peopleSheet('people.xlsx', [
    ['端到端甲', '110101199003074578', '1', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', '13800138001'],
    ['端到端乙', '12345', '2', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', ''],
  ]);

  await login(page);
  await page.goto('/controlPerson');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  await shot(page, 'watch-control-person');
  await page.getByTestId('control-person-import-file').setInputFiles(file);
  const result = page.getByTestId('control-person-import-result');
  await expect(result).toBeVisible();
  await expect(result.getByTestId('import-problem')).toHaveText(['第3行：请输入正确的身份证号']);
  await shot(page, 'watch-control-person-import');
  await result.getByRole('button').click();
  await page.getByTestId('filter-name').fill('端到端');
  await page.getByTestId('list-query').click();
  await expect(page.getByTestId('empty-state')).toBeVisible();

  // The form: the ID is upper-cased while typed, the photo field is there.
  await page.getByTestId('list-add').click();
  await page.getByTestId('form-input-fUserIdcard').fill('11010119900307123x');
  await expect(page.getByTestId('form-input-fUserIdcard')).toHaveValue('11010119900307123X');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('人员名称不能为空')).toBeVisible();
  await shot(page, 'watch-control-person-form');
});

test('an app version is uploaded with a progress bar, saved and downloaded', async ({ page, context }) => {
  const size = 40 * 1024 * 1024;
  const file = test.info().outputPath('tenant-9.9.9.apk');
  writeFileSync(file, Buffer.alloc(size, 3));
  await login(page);
  // A slower link, so the progress of the upload can be seen (the browser's own network emulation).
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await page.goto('/appVersion');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  await shot(page, 'watch-app-version');
  await page.getByTestId('list-add').click();
  await page.getByTestId('form-field-fAppType').getByRole('combobox').click();
  await page.getByRole('option', { name: '租户端 Android' }).click();
  await page.getByTestId('form-input-fAppVersion').fill('9.9.9');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 8 * 1024 * 1024 });
  await page.getByTestId('app-file-input').setInputFiles(file);
  await expect(page.getByTestId('app-file-progress')).toBeVisible();
  await shot(page, 'watch-app-version-progress');
  await expect(page.getByTestId('app-file-name')).toHaveText('tenant-9.9.9.apk', { timeout: 60_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await page.getByTestId('form-field-fAreaId').getByRole('combobox').click();
  await page.getByRole('option').filter({ hasText: '天河区' }).first().click();
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('form-dialog')).toBeHidden();
  const row = page.getByTestId('list-row').filter({ hasText: '9.9.9' });
  await expect(row).toContainText('租户端 Android');
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('app-download').click()]);
  expect(download.suggestedFilename()).toBe('app-9.9.9.apk');
  const saved = test.info().outputPath('downloaded.apk');
  await download.saveAs(saved);
  expect(statSync(saved).size).toBe(size);
});

test('the vehicle switch saves at once and reloads; feedback photos open', async ({ page }) => {
  await login(page);
  await page.goto('/controlCar');
  const row = page.getByTestId('list-row').filter({ hasText: '粤A12345' });
  const toggle = row.getByTestId('switch-fState');
  await expect(toggle).toBeChecked();
  await shot(page, 'watch-control-car');
  await toggle.click();
  await expect(page.getByText('操作成功')).toBeVisible();
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(toggle).toBeChecked();
  // Plates are upper-cased while typed.
  await page.getByTestId('list-add').click();
  await page.getByTestId('form-input-fLicensePlate').fill('粤b123x');
  await expect(page.getByTestId('form-input-fLicensePlate')).toHaveValue('粤B123X');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('请输入正确的车牌号')).toBeVisible();
  await expect(page.getByText('布控开始时间不能为空')).toBeVisible();
  await shot(page, 'watch-control-car-form');
  // An end before the start is refused beside the end, and nothing typed is lost.
  const [start, end] = [page.getByTestId('form-field-fStartTime'), page.getByTestId('form-field-fStartEnd')];
  await page.getByTestId('form-input-fLicensePlate').fill('粤b12345');
  await typeInto(page, start, '20261201080000');
  await typeInto(page, end, '20261101080000');
  let saves = 0;
  page.on('request', (r) => r.url().endsWith('/addOrUpdateControlCar') && saves++);
  await page.getByTestId('form-save').click();
  await expect(end.getByText('布控结束时间不能早于开始时间')).toBeVisible();
  await expect(valueOf(start)).toHaveValue('2026-12-01 08:00:00');
  await expect(valueOf(end)).toHaveValue('2026-11-01 08:00:00');
  await expect(page.getByTestId('form-input-fLicensePlate')).toHaveValue('粤B12345');
  expect(saves).toBe(0);
  await shot(page, 'watch-control-car-end-before-start');
  await page.getByTestId('form-cancel').click();

  await page.goto('/feedback');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  await shot(page, 'watch-feedback');
  await page.getByTestId('feedback-photos-open').and(page.locator(':enabled')).first().click();
  await expect(page.getByTestId('feedback-photo')).toBeVisible();
  await page.waitForTimeout(500); // the dialog's fade-in, for the picture only
  await shot(page, 'watch-feedback-photos');
});

test('feedback is signed off with a required handling note, shown in its row', async ({ page }) => {
  await login(page);
  await page.goto('/feedback');
  const row = page.getByTestId('list-row').filter({ hasText: '房东不处理漏水问题' });
  const button = row.getByTestId('feedback-sign');
  await expect(button).toBeEnabled();
  let signs = 0;
  page.on('request', (r) => r.url().endsWith('/biz/t-feedback/sign') && signs++);
  await button.click();
  const dialog = page.getByTestId('sign-dialog');
  await expect(dialog.getByText('反馈签收')).toBeVisible();
  await dialog.getByTestId('sign-submit').click();
  await expect(dialog.getByText('处理备注不能为空')).toBeVisible();
  expect(signs).toBe(0);
  await dialog.getByTestId('sign-note').fill('已转交物业，三日内维修');
  await shot(page, 'watch-feedback-sign');
  await dialog.getByTestId('sign-submit').click();
  await expect(dialog).toBeHidden();
  expect(signs).toBe(1);
  await expect(row).toContainText('已转交物业，三日内维修');
  await expect(button).toBeDisabled();
});

test('the pages read in English', async ({ page }) => {
  await login(page, ADMIN, 'en-US');
  for (const path of ['controlPerson', 'controlCar', 'appVersion', 'feedback']) {
    await page.goto('/' + path);
    await expect(page.getByTestId('list-row').first()).toBeVisible();
    await shot(page, `${path}-en`);
  }
});

test('a refused control-person import reads in the console language, row by row', async ({ page }) => {
  const file = await peopleSheet('people-en.xlsx', [
    ['端到端丙', '12345', '2', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', ''],
    ['', '110101199003074578', '1', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', ''],
    ['端到端丁', '110101199003074578', '1', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', ''],
    ['端到端戊', '110101199003074578', '1', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', ''],
  ]);

  await login(page, ADMIN, 'en-US');
  await page.goto('/controlPerson');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  await page.getByTestId('control-person-import-file').setInputFiles(file);
  const result = page.getByTestId('control-person-import-result');
  await expect(result).toContainText('The import failed; nothing was imported');
  await expect(result.getByTestId('import-problem')).toHaveText([
    'Row 2: Please enter a correct ID card number',
    'Row 3: Name cannot be empty',
    'Row 5: The ID card number appears more than once',
  ]);
  await shot(page, 'watch-control-person-import-en');
});

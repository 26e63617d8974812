/**
 * The devices area's refusals in the console's language (issue 27): a command to a device that is not
 * online, a duplicate device number, a share the server refuses, a description library still used by a
 * product (its name a parameter of the refusal) and a device import's bad rows — each shown in English
 * and in Traditional Chinese from its code, and none of the server's Simplified Chinese words on the page.
 */
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { REASONS } from '../../contract/generated/reasons';
import { fillText } from '../../contract/reasons';
import { expect, test, ADMIN, findDevice, login, openMenu, pick, shot } from './helpers';

type Code = keyof typeof REASONS;
type Language = 'en-US' | 'zh-TW';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A code's text in a language, its parameters filled in. */
const textOf = (code: Code, language: Language | 'zh-CN', params: Record<string, string | number> = {}) => fillText(REASONS[code][language], params);

/** The page shows the code's text in the console's language and not the server's zh-CN words of it. */
async function showsInstead(page: Page, code: Code, language: Language, params: Record<string, string | number> = {}) {
  await expect(page.getByText(textOf(code, language, params)).first()).toBeVisible();
  const simplified = textOf(code, 'zh-CN', params);
  if (simplified !== textOf(code, language, params)) await expect(page.locator('body')).not.toContainText(simplified);
}

async function sheet(rows: string[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const s = book.addWorksheet('设备');
  s.addRow(['产品编号', '设备编号', '设备名称', 'IMEI', 'ICCID', '备注']);
  for (const r of rows) s.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

for (const language of ['en-US', 'zh-TW'] as const) {
  const tag = language === 'en-US' ? 'EN' : 'TW';

  test(`device refusals read in ${language}: a device that is not online, a duplicate number, a refused share`, async ({ page }) => {
    await login(page, ADMIN, language);
    await page.goto('/device');

    // A device no simulator answers for: never online, so a command to it is refused.
    const number = `E2E-OFF-${tag}`;
    await page.getByTestId('device-add').click();
    await pick(page, 'fProductId', '485智能开关');
    await page.getByTestId('form-field-fNumber').locator('input').fill(number);
    await page.getByTestId('form-save').click();
    await expect(page.getByTestId('form-dialog')).toHaveCount(0);
    const row = await findDevice(page, number);
    await row.getByTestId('device-switch').click();
    await showsInstead(page, 'command.offline', language);
    await shot(page, `reasons-devices-offline-${language}`);

    // A number another device has: the server's refusal under the field.
    await page.getByTestId('device-add').click();
    await pick(page, 'fProductId', '485智能开关');
    await page.getByTestId('form-field-fNumber').locator('input').fill('DEV000001');
    await page.getByTestId('form-save').click();
    await expect(page.getByTestId('form-field-fNumber')).toContainText(textOf('device.fNumber.unique', language));
    await expect(page.locator('body')).not.toContainText(textOf('device.fNumber.unique', 'zh-CN'));
    await shot(page, `reasons-devices-duplicate-${language}`);
    await page.keyboard.press('Escape');

    // Sharing with oneself.
    await page.goto('/device');
    await page.getByTestId('device-share-more').click();
    const dialog = page.getByTestId('device-share-dialog');
    await dialog.getByTestId('device-share-devices').click();
    await page.getByRole('option').first().click();
    await page.keyboard.press('Escape');
    await dialog.getByTestId('device-share-user').fill(ADMIN.phone);
    await dialog.getByTestId('device-share-submit').click();
    await expect(dialog.getByTestId('device-share-error')).toHaveText(textOf('share.self', language));
    await showsInstead(page, 'share.self', language);
    await shot(page, `reasons-devices-share-${language}`);
  });

  test(`library and import refusals read in ${language}: a library in use by its product's name, an import's bad rows`, async ({ page }) => {
    await login(page, ADMIN, language);

    // 数据上报 (telemetry) is read by the demo's products: the refusal names the product.
    await openMenu(page, 'productJson');
    const list = page.getByTestId('productJson-list');
    await list.getByTestId('list-row').filter({ hasText: '数据上报' }).first().getByTestId('list-delete').click();
    const refused = page.waitForResponse((r) => r.url().endsWith('/biz/t-product-json/del'));
    await page.getByTestId('confirm-ok').click();
    const answer = await (await refused).json();
    expect(answer.reason.code).toBe('library.usedByProduct');
    await showsInstead(page, 'library.usedByProduct', language, { name: answer.reason.params.name });
    await shot(page, `reasons-devices-library-${language}`);

    // An import with bad rows: every row's reason by its code.
    await page.goto('/device');
    await page.getByTestId('device-import').click();
    const dialog = page.getByTestId('device-import-dialog');
    const rows = [
      ['NO-SUCH', `E2E-RI-${tag}`, '', '', '', ''],
      ['P-SW-485', 'DEV000001', '', '', '', ''],
      ['', `E2E-RJ-${tag}`, '', '', '', ''],
    ];
    await dialog.getByTestId('device-import-file').setInputFiles({ name: 'devices.xlsx', mimeType: XLSX, buffer: await sheet(rows) });
    await dialog.getByTestId('device-import-submit').click();
    const result = dialog.getByTestId('device-import-result');
    await expect(result).toContainText(textOf('import.failed', language), { timeout: 60_000 });
    const line = (row: number, label: string, code: Code) =>
      language === 'en-US' ? `Row ${row} (${label}): ${textOf(code, language)}` : `第${row}行（${label}）：${textOf(code, language)}`;
    await expect(result).toContainText(line(2, `E2E-RI-${tag}`, 'deviceImport.productUnknown'));
    await expect(result).toContainText(line(3, 'DEV000001', 'device.fNumber.unique'));
    await expect(result).toContainText(line(4, `E2E-RJ-${tag}`, 'deviceImport.productRequired'));
    for (const code of ['import.failed', 'deviceImport.productUnknown', 'device.fNumber.unique', 'deviceImport.productRequired'] as const) {
      await expect(result).not.toContainText(textOf(code, 'zh-CN'));
    }
    await shot(page, `reasons-devices-import-${language}`);
  });
}

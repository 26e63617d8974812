import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expect, test, login, shot, AGENT } from './helpers';

const HEADERS = ['产品编号', '设备编号', '设备名称', 'IMEI', 'ICCID', '备注'];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function sheet(rows: string[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const s = book.addWorksheet('设备');
  s.addRow(HEADERS);
  for (const r of rows) s.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Keeps every stage and line the dialog's progress shows, however briefly, in `window.importStages`. */
async function recordProgress(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { importStages: string[] }).importStages = seen;
    new MutationObserver(() => {
      const box = document.querySelector('[data-testid="device-import-progress"]');
      const entry = box && `${box.getAttribute('data-stage')}: ${box.textContent}`;
      if (entry && seen[seen.length - 1] !== entry) seen.push(entry);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { importStages: string[] }).importStages);
}

test('a device import shows its progress, refuses a file with a bad row whole and takes a good one whole', async ({ page }) => {
  test.setTimeout(120_000);
  await login(page, AGENT);
  await page.goto('/device');
  await page.getByTestId('device-import').click();
  const dialog = page.getByTestId('device-import-dialog');
  const stages = await recordProgress(page);

  // Several thousand good rows and one bad one at the end: every row is read and checked, the server
  // telling the dialog how far it got, and then the file is refused with that row, nothing written.
  const rows = Array.from({ length: 8000 }, (_, i) => ['P-SW-485', `E2E-BULK-${i}`, `端到端导入${i}`, '', '', '']);
  rows.push(['NO-SUCH', 'E2E-BULK-BAD', '', '', '', '']);
  await dialog.getByTestId('device-import-file').setInputFiles({ name: 'devices.xlsx', mimeType: XLSX, buffer: await sheet(rows) });
  await dialog.getByTestId('device-import-submit').click();
  const result = dialog.getByTestId('device-import-result');
  await expect(result).toContainText('导入失败，未导入任何数据', { timeout: 60_000 });
  await expect(result).toContainText('第8002行（E2E-BULK-BAD）：所属产品不存在');
  await shot(page, 'device-import-refused');
  const shown = await stages();
  expect(shown[0]).toMatch(/^upload: 正在上传：\d+%$/);
  expect(shown.some((s) => /^read: 正在读取并校验：已读取 [\d,]+ 行，已校验 [\d,]+ 行$/.test(s))).toBe(true);
  await expect(dialog.getByTestId('device-import-progress')).toHaveCount(0);

  // The same rows without the bad one would go in; two of them do here (the shared database stays small).
  await dialog.getByTestId('device-import-file').setInputFiles({ name: 'devices.xlsx', mimeType: XLSX, buffer: await sheet(rows.slice(0, 2)) });
  await dialog.getByTestId('device-import-submit').click();
  await expect(result).toHaveText('导入完成：共 2 条，成功 2 条');
  await dialog.getByTestId('device-import-close').click();
  await page.getByTestId('device-search').fill('E2E-BULK-');
  await page.getByTestId('device-search').press('Enter');
  await expect(page.getByTestId('device-row')).toHaveCount(2);
});

test('an English console shows the import in English', async ({ page }) => {
  await login(page, AGENT, 'en-US');
  await page.goto('/device');
  await page.getByTestId('device-import').click();
  const dialog = page.getByTestId('device-import-dialog');
  await expect(dialog).toContainText('If any row is wrong, nothing of the file is imported');
  await dialog.getByTestId('device-import-file').setInputFiles({ name: 'devices.xlsx', mimeType: XLSX, buffer: await sheet([['NO-SUCH', 'E2E-EN-1', '', '', '', '']]) });
  await dialog.getByTestId('device-import-submit').click();
  const result = dialog.getByTestId('device-import-result');
  await expect(result).toContainText('The import failed; nothing was imported');
  await shot(page, 'device-import-refused-en');
  // The bad row by its code, in English too (issue 27): none of the server's Chinese words.
  await expect(result).toContainText('Row 2 (E2E-EN-1): No product has this number');
  await expect(result).not.toContainText('所属产品不存在');
});

/**
 * The security area's refusals in the console's language (issue 27): a sign-off the server refuses (a
 * note too long or blank, an alarm someone else signed, a batch with a row signed meanwhile), a
 * watch-list save whose end the server finds before its start, a person the lookup does not find, a
 * rental house with rooms, and a watch-list import's bad rows — each shown in English and in Traditional
 * Chinese from its code, and none of the server's Simplified Chinese words on the page.
 */
import { writeFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { REASONS } from '../../contract/generated/reasons';
import { fillText } from '../../contract/reasons';
import { expect, test, ADMIN, OFFICER, login, shot } from './helpers';

type Code = keyof typeof REASONS;
type Language = 'en-US' | 'zh-TW';

/** The alarm lists' status option for unsigned rows (schemas/enums.json signStatus 0). */
const UNSIGNED: Record<Language, string> = { 'en-US': 'Unsigned', 'zh-TW': '未簽收' };

/** The alarm list of each group of the login summary. */
const LISTS = { device: '/alarmDevice', lock: '/alarmLock', collect: '/alarmGather', time: '/alarmTime', roomCount: '/alarmRoom', person: '/alarmPerson', card: '/alarmCard' };

/** A code's text in a language, its parameters filled in. */
const textOf = (code: Code, language: Language | 'zh-CN', params: Record<string, string | number> = {}) => fillText(REASONS[code][language], params);

/** The page shows the code's text in the console's language and not the server's zh-CN words of it. */
async function showsInstead(page: Page, code: Code, language: Language, params: Record<string, string | number> = {}) {
  await expect(page.getByText(textOf(code, language, params)).first()).toBeVisible();
  const simplified = textOf(code, 'zh-CN', params);
  if (simplified !== textOf(code, language, params)) await expect(page.locator('body')).not.toContainText(simplified);
}

/** A call with the signed-in console's token. */
async function api(page: Page, path: string, body: object) {
  return page.evaluate(
    async ([p, b]) => {
      const res = await fetch(p as string, { method: 'POST', headers: { 'content-type': 'application/json', authorization: localStorage.getItem('token') ?? '' }, body: JSON.stringify(b) });
      return res.json();
    },
    [path, body] as const,
  );
}

/** Sends the calls to `path` with `change` applied to their body: what a console bypassing its own checks would send. */
async function rewriting(page: Page, path: string, change: (body: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>) {
  await page.unroute(`**${path}`);
  await page.route(`**${path}`, async (route) => route.continue({ postData: JSON.stringify(await change(JSON.parse(route.request().postData() ?? '{}'))) }));
}

for (const language of ['en-US', 'zh-TW'] as const) {
  test(`sign-off refusals read in ${language}, and an alarm signed meanwhile reloads the list`, async ({ page }) => {
    // A community officer signs off the alarms of the jurisdiction.
    await login(page, OFFICER, language);
    await page.getByTestId('alarm-summary-close').click({ timeout: 3000 }).catch(() => undefined);
    // The alarm list with the most unsigned alarms of the officer's jurisdiction (the login summary's groups).
    const groups = (await api(page, '/biz/t-alarm/alarmTypeCount', {})).data as { type: keyof typeof LISTS; num: number }[];
    const most = groups.reduce((a, b) => (b.num > a.num ? b : a));
    expect(most.num).toBeGreaterThan(2);
    await page.goto(LISTS[most.type]);
    await expect(page.getByTestId('list-row').first()).toBeVisible();
    // The unsigned alarms only (the option's words are the console's, from schemas/enums.json).
    await page.getByTestId('filter-status').click();
    await page.getByRole('option', { name: UNSIGNED[language], exact: true }).click();
    const listed = page.waitForResponse((r) => r.url().endsWith('/biz/t-alarm/pageList'));
    await page.getByTestId('list-query').click();
    const first = ((await (await listed).json()).data.records as { fId: number; fStatus: number }[]).find((r) => r.fStatus === 0)!;
    const unsigned = page.getByTestId('list-row').filter({ has: page.getByTestId('alarm-sign') });
    await unsigned.first().getByTestId('alarm-sign').click();
    const dialog = page.getByTestId('sign-dialog');
    await dialog.getByTestId('sign-note').fill('Checked on site');

    // A note too long, and a blank one, reach the server only past the dialog's own checks.
    await rewriting(page, '/biz/t-alarm/signing', (b) => ({ ...b, fHandleContent: 'x'.repeat(501) }));
    await dialog.getByTestId('sign-submit').click();
    await showsInstead(page, 'signOff.noteTooLong', language, { max: 500 });
    await shot(page, `reasons-security-note-too-long-${language}`);
    await rewriting(page, '/biz/t-alarm/signing', (b) => ({ ...b, fHandleContent: '   ' }));
    await dialog.getByTestId('sign-submit').click();
    await showsInstead(page, 'signOff.noteRequired', language);
    await page.unroute('**/biz/t-alarm/signing');

    // Someone else signs the same alarm meanwhile: the reason in the console's language, and the list
    // behind the dialog reloads (by the refusal's code), the dialog keeping the note.
    expect((await api(page, '/biz/t-alarm/signing', { fId: first.fId, fHandleContent: 'signed elsewhere' })).code).toBe(200);
    const reloaded = page.waitForRequest((r) => r.url().endsWith('/biz/t-alarm/pageList'));
    await dialog.getByTestId('sign-submit').click();
    await showsInstead(page, 'alarm.alreadySigned', language);
    await reloaded;
    await expect(dialog.getByTestId('sign-note')).toHaveValue('Checked on site');
    await shot(page, `reasons-security-already-signed-${language}`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // Two alarms signed together, one of them signed by someone else as the batch goes out: its row
    // says why in the console's language.
    const rows = page.getByTestId('list-row').filter({ has: page.getByTestId('alarm-sign') });
    await rows.nth(0).getByTestId('list-select').click();
    await rows.nth(1).getByTestId('list-select').click();
    await page.getByTestId('alarm-batch-sign').click();
    const batch = page.getByTestId('batch-sign-dialog');
    await batch.getByTestId('sign-note').fill('Checked together');
    await rewriting(page, '/biz/t-alarm/signingBatch', async (b) => {
      const ids = b.ids as number[];
      expect((await api(page, '/biz/t-alarm/signing', { fId: ids[0], fHandleContent: 'signed elsewhere' })).code).toBe(200);
      return b;
    });
    await batch.getByTestId('batch-sign-submit').click();
    await expect(batch.getByTestId('batch-sign-result')).toHaveCount(2);
    await expect(batch.locator('[data-testid="batch-sign-result"][data-success="0"]')).toContainText(textOf('alarm.alreadySigned', language));
    await showsInstead(page, 'alarm.alreadySigned', language);
    await shot(page, `reasons-security-batch-${language}`);
    await page.unroute('**/biz/t-alarm/signingBatch');
    await batch.getByTestId('batch-sign-close').click();
    await page.evaluate(() => localStorage.setItem('locale', 'zh-CN'));
  });

  test(`a watch-list end before its start, a person not found and a house with rooms read in ${language}`, async ({ page }) => {
    await login(page, ADMIN, language);
    await page.getByTestId('alarm-summary-close').click({ timeout: 3000 }).catch(() => undefined);

    // The form's own check passes; the server finds the end before the start and names the field.
    await page.goto('/controlPerson');
    await page.getByTestId('list-row').first().getByTestId('list-edit').click();
    const form = page.getByTestId('form-dialog');
    await expect(form).toBeVisible();
    await rewriting(page, '/biz/t-control-person/addOrUpdateControlPerson', (b) => ({ ...b, fStartTime: '2026-12-01 00:00:00', fEndTime: '2026-01-01 00:00:00' }));
    const refused = page.waitForResponse((r) => r.url().endsWith('/biz/t-control-person/addOrUpdateControlPerson'));
    await page.getByTestId('form-save').click();
    expect((await (await refused).json()).reason.code).toBe('controlPerson.fEndTime.notBefore');
    await expect(page.getByTestId('form-field-fEndTime')).toContainText(textOf('controlPerson.fEndTime.notBefore', language));
    await showsInstead(page, 'controlPerson.fEndTime.notBefore', language);
    await shot(page, `reasons-security-watch-end-${language}`);
    await page.unroute('**/biz/t-control-person/addOrUpdateControlPerson');
    await page.getByTestId('form-cancel').click();

    // Nobody has this phone: the profile search says so from the refusal's code.
    await page.goto('/hologram');
    await page.getByTestId('hologram-input').fill('13912345670');
    await page.getByTestId('hologram-search').click();
    await expect(page.getByTestId('hologram-none')).toHaveText(textOf('intel.noInformation', language));
    await showsInstead(page, 'intel.noInformation', language);
    await shot(page, `reasons-security-intel-none-${language}`);

    // A rental house with rooms is not deleted: the refusal says why.
    const houses = await api(page, '/biz/t-house-info/list', { current: 1, size: 50 });
    const house = (houses.data.records as { fHouseName: string; roomCount: number }[]).find((h) => h.roomCount > 0)!;
    await page.goto('/house');
    await page.getByTestId('filter-keyword').fill(house.fHouseName);
    await page.getByTestId('list-query').click();
    const row = page.getByTestId('list-row').filter({ hasText: house.fHouseName }).first();
    await row.getByTestId('list-delete').click();
    await page.getByTestId('confirm-ok').click();
    await showsInstead(page, 'house.hasRooms', language);
    await shot(page, `reasons-security-house-rooms-${language}`);
    await expect(page.getByTestId('list-row').filter({ hasText: house.fHouseName }).first()).toBeVisible();
    await page.evaluate(() => localStorage.setItem('locale', 'zh-CN'));
  });

  test(`a watch-list import's bad rows read in ${language}`, async ({ page }) => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('people');
    sheet.addRow(['人员名称', '身份证号', '布控类型', '布控人', '布控开始时间', '布控结束时间', '布控状态', '手机号']);
    sheet.addRow(['Reasons A', '110101199003074578', '1', 'Officer', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', '13800138001']);
    sheet.addRow(['Reasons B', '110101199003074578', '2', 'Officer', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', '']);
    const file = test.info().outputPath(`people-${language}.xlsx`);
    writeFileSync(file, Buffer.from(await book.xlsx.writeBuffer()));

    await login(page, ADMIN, language);
    await page.getByTestId('alarm-summary-close').click({ timeout: 3000 }).catch(() => undefined);
    await page.goto('/controlPerson');
    await page.getByTestId('control-person-import-file').setInputFiles(file);
    const result = page.getByTestId('control-person-import-result');
    await expect(result).toBeVisible();
    // The second row repeats the first one's ID number: row 3 of the sheet, by its code.
    await expect(result.getByTestId('import-problem')).toHaveCount(1);
    await expect(result.getByTestId('import-problem')).toContainText('3');
    await expect(result.getByTestId('import-problem')).toContainText(textOf('watch.idcardRepeated', language));
    await expect(result).not.toContainText(textOf('watch.idcardRepeated', 'zh-CN'));
    await shot(page, `reasons-security-import-${language}`);
    await page.evaluate(() => localStorage.setItem('locale', 'zh-CN'));
  });
}

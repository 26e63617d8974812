/**
 * The administration area's refusals and notices in the console's language (issue 27): a wrong password
 * and too many sign-in attempts on the login page, a phone another account holds, a built-in role's
 * delete, a department made its own parent, the password reset notice (with the password it set), an app
 * package the server refuses, and a system-user import's bad rows — each shown in English and in
 * Traditional Chinese from its code, and none of the server's Simplified Chinese words on the page.
 */
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { REASONS } from '../../contract/generated/reasons';
import { fillText } from '../../contract/reasons';
import { expect, test, ADMIN, login, pick, shot } from './helpers';

type Code = keyof typeof REASONS;
type Language = 'en-US' | 'zh-TW';

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
async function rewriting(page: Page, path: string, change: (body: Record<string, unknown>) => Record<string, unknown>) {
  await page.unroute(`**${path}`);
  await page.route(`**${path}`, async (route) => route.continue({ postData: JSON.stringify(change(JSON.parse(route.request().postData() ?? '{}'))) }));
}

/** The import's sheet: a good row, a bad phone, a phone given twice. */
async function usersSheet(prefix: string): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('用户');
  sheet.addRow(['姓名', '手机号码', '用户类型', '所属角色', '密码']);
  sheet.addRow(['Good one', `${prefix}01`, '普通用户', 'user', 'Import@123']);
  sheet.addRow(['Bad phone', '1362222000', '普通用户', 'user', 'Import@123']);
  sheet.addRow(['Twice', `${prefix}01`, '普通用户', 'user', 'Import@123']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

for (const [language, prefix, stranger] of [['en-US', '136333300', '13999990001'], ['zh-TW', '136444400', '13999990002']] as const) {
  test(`sign-in refusals read in ${language}: a wrong password and too many attempts`, async ({ page }) => {
    await page.goto('/login');
    await page.evaluate((l) => localStorage.setItem('locale', l), language);
    await page.goto('/login');
    await page.getByTestId('login-phone').fill(ADMIN.phone);
    await page.getByTestId('login-password').fill('wrong-password');
    await page.getByTestId('login-submit').click();
    await showsInstead(page, 'session.wrongPassword', language);
    await shot(page, `reasons-administration-wrong-password-${language}`);

    // An account guessed at from this address more often than a minute allows (LOGIN_RATE_LIMIT, 20).
    const answers = await page.evaluate(async (account) => {
      const codes: number[] = [];
      for (let i = 0; i < 21; i++) {
        const res = await fetch('/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName: account, password: 'guess' }) });
        codes.push(((await res.json()) as { code: number }).code);
      }
      return codes;
    }, stranger);
    expect(answers).toContain(429);
    await page.getByTestId('login-phone').fill(stranger);
    await page.getByTestId('login-password').fill('one more guess');
    await page.getByTestId('login-submit').click();
    await showsInstead(page, 'request.tooMany', language);
    await shot(page, `reasons-administration-too-many-${language}`);
    await expect(page).toHaveURL(/\/login$/);
  });

  test(`user, role and department refusals and the password reset notice read in ${language}`, async ({ page }) => {
    await login(page, ADMIN, language);
    await page.getByTestId('alarm-summary-close').click({ timeout: 3000 }).catch(() => undefined);

    // A phone another account holds: under the phone field, which the refusal names.
    await page.goto('/sys-user');
    await page.getByTestId('list-add').click();
    await pick(page, 'fAdmin', textOf('sheet.userKindOrdinary', language));
    await page.getByTestId('form-input-fChineseName').fill('Second agent');
    await page.getByTestId('form-input-fPhone').fill('13800000001');
    await page.getByTestId('form-field-fRoleIds').getByRole('combobox').click();
    await page.getByRole('option').first().click();
    await page.keyboard.press('Escape');
    await page.getByTestId('user-form-password').fill('Second@123');
    await page.getByTestId('user-form-password-check').fill('Second@123');
    await page.getByTestId('form-save').click();
    await expect(page.getByTestId('form-field-fPhone')).toContainText(textOf('user.fPhone.unique', language));
    await showsInstead(page, 'user.fPhone.unique', language);
    await shot(page, `reasons-administration-phone-taken-${language}`);
    await page.getByTestId('form-cancel').click();

    // A password reset to the default: the notice names the password it set. The account is one made
    // for this, so the demo accounts keep their passwords for the other tests.
    const roleList = (await api(page, '/system/t-sys-role/list', {})).data as { id: number; alias: string }[];
    const phone = language === 'en-US' ? '13977770001' : '13977770002';
    const made = await api(page, '/system/t-sys-user/addOrUpdateSysUser', { fAdmin: 0, fChineseName: `Reset ${language}`, fPhone: phone, roles: [roleList.find((r) => r.alias === 'user')!.id], fPassword: 'Reset@123', passwordCheck: 'Reset@123' });
    expect(made.success).toBe(true);
    await page.getByTestId('filter-keyword').fill(`Reset ${language}`);
    await page.getByTestId('list-query').click();
    const resetting = page.getByTestId('list-row').filter({ hasText: `Reset ${language}` });
    await resetting.getByTestId('user-reset-pwd').click();
    await page.getByTestId('confirm-ok').click();
    await showsInstead(page, 'password.resetToDefault', language, { password: '123456' });
    await shot(page, `reasons-administration-password-reset-${language}`);

    // The console offers no delete on a built-in role; a console that sends one anyway is refused.
    const roles = await api(page, '/system/t-sys-role/list', {});
    const builtIn = (roles.data as { id: number; alias: string }[]).find((r) => r.alias === 'admin')!;
    await page.goto('/sys-role');
    await rewriting(page, '/system/t-sys-role/removeSysRole', (b) => ({ ...b, id: builtIn.id, fId: builtIn.id }));
    await page.getByTestId('list-row').filter({ hasText: 'officer' }).getByTestId('list-delete').click();
    await page.getByTestId('confirm-ok').click();
    await showsInstead(page, 'role.builtIn', language);
    await shot(page, `reasons-administration-built-in-role-${language}`);
    await page.unroute('**/system/t-sys-role/removeSysRole');

    // A department made its own parent: the tree offers no such choice, the server refuses it.
    await page.goto('/department');
    await page.getByTestId('departments-node-9100').click();
    await page.getByTestId('departments-edit').click();
    await rewriting(page, '/system/t-department-info/addOrEditDepartmentInfo', (b) => ({ ...b, fHighDepartmentId: b.fDepartmentId }));
    await page.getByTestId('departments-confirm').click();
    await showsInstead(page, 'department.parentSelf', language);
    await shot(page, `reasons-administration-department-${language}`);
    await page.unroute('**/system/t-department-info/addOrEditDepartmentInfo');
  });

  test(`a system-user import’s bad rows and an app package refusal read in ${language}`, async ({ page }) => {
    await login(page, ADMIN, language);
    await page.getByTestId('alarm-summary-close').click({ timeout: 3000 }).catch(() => undefined);

    // Every bad row by its code: its line in the console's language, none of the server's words.
    await page.goto('/sys-user');
    await page.getByTestId('user-import-file').setInputFiles({ name: 'users.xlsx', mimeType: XLSX, buffer: await usersSheet(prefix) });
    const result = page.getByTestId('user-import-result');
    await expect(result.getByTestId('import-summary')).toHaveText(textOf('import.failed', language));
    const row = (n: number, code: Code) => (language === 'en-US' ? `Row ${n}: ${textOf(code, language)}` : `第${n}行：${textOf(code, language)}`);
    await expect(result.getByTestId('import-problem')).toHaveText([row(3, 'user.fPhone.pattern'), row(4, 'user.phoneRepeated')]);
    for (const code of ['import.failed', 'user.fPhone.pattern', 'user.phoneRepeated'] as const) await showsInstead(page, code, language);
    await shot(page, `reasons-administration-import-rows-${language}`);
    await result.getByRole('button').click();

    // An empty package passes the page's checks (its name and size); the server refuses it.
    await page.goto('/appVersion');
    await page.getByTestId('list-add').click();
    await page.getByTestId('app-file-input').setInputFiles({ name: 'empty.apk', mimeType: 'application/vnd.android.package-archive', buffer: Buffer.alloc(0) });
    await showsInstead(page, 'upload.noFile', language);
    await shot(page, `reasons-administration-app-package-${language}`);
  });
}

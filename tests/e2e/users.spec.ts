import ExcelJS from 'exceljs';
import { expect, test, AGENT, login, pick, shot } from './helpers';

const ROLE = { name: '产品查看员', alias: 'e2e-product-viewer' };
const PERSON = { name: '端到端用户', phone: '13612345678', password: 'Viewer@123' };

test('a role with some permissions and a user holding it: that user sees exactly that menu and those buttons', async ({ page }) => {
  await login(page);
  await page.goto('/sys-role');

  // The role, from the generic list and form.
  await page.getByTestId('list-add').click();
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('form-dialog').getByText('角色名称不能为空')).toBeVisible();
  await page.getByTestId('form-input-name').fill(ROLE.name);
  await page.getByTestId('form-input-alias').fill(ROLE.alias);
  await page.getByTestId('form-save').click();
  const roleRow = page.getByTestId('list-row').filter({ hasText: ROLE.alias });
  await expect(roleRow).toBeVisible();
  await expect(page.getByTestId('list-row').filter({ hasText: 'admin' }).getByTestId('list-delete')).toHaveCount(0);
  // The view button is for those who may not edit (spec 002 §6): beside Edit it shows nowhere.
  await expect(roleRow.getByTestId('list-edit')).toBeVisible();
  await expect(page.getByTestId('list-view')).toHaveCount(0);

  // Products only, and of their buttons only 新增: checking the page brings its section and buttons.
  await roleRow.getByTestId('role-permissions').click();
  const tree = page.getByTestId('role-permission-dialog');
  await tree.getByTestId('role-tree-check-product:list').check();
  for (const code of ['product:edit', 'product:del', 'product:status']) {
    const box = tree.getByTestId(`role-tree-check-${code}`);
    if (await box.count()) await box.uncheck();
  }
  await expect(tree.getByTestId('role-tree-check-product:add')).toBeChecked();
  await shot(page, 'users-role-permissions');
  await page.getByTestId('role-permission-save').click();
  await expect(page.getByText('授权成功')).toBeVisible();

  // The user, from the generic form with the password fields the format cannot declare.
  await page.goto('/sys-user');
  await page.getByTestId('list-add').click();
  await page.getByTestId('form-save').click();
  const form = page.getByTestId('form-dialog');
  await expect(form.getByText('姓名不能为空')).toBeVisible();
  await expect(form.getByText('所属角色不能为空')).toBeVisible();
  await expect(form.getByText('密码不能为空')).toBeVisible();
  await pick(page, 'fAdmin', '普通用户');
  await page.getByTestId('form-input-fChineseName').fill(PERSON.name);
  await page.getByTestId('form-input-fPhone').fill(PERSON.phone);
  await page.getByTestId('form-field-fRoleIds').getByRole('combobox').click();
  await page.getByRole('option', { name: ROLE.name }).click();
  await page.keyboard.press('Escape');
  await page.getByTestId('user-form-password').fill(PERSON.password);
  await page.getByTestId('user-form-password-check').fill('Other@123');
  await page.getByTestId('form-save').click();
  await expect(form.getByText('密码不一致!')).toBeVisible();
  await page.getByTestId('user-form-password-check').fill(PERSON.password);
  await shot(page, 'users-form');
  await page.getByTestId('form-save').click();
  await expect(form).toBeHidden();
  await page.getByTestId('filter-keyword').fill(PERSON.name);
  await page.getByTestId('list-query').click();
  const userRow = page.getByTestId('list-row').filter({ hasText: PERSON.name });
  await expect(userRow).toHaveCount(1);
  await expect(userRow).toContainText(ROLE.name);
  await expect(userRow).toContainText('136****5678');
  await shot(page, 'users-list');

  // Signed in as that user: one section, one page, and only the add button on it.
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await login(page, { phone: PERSON.phone, password: PERSON.password });
  await expect(page.locator('[data-testid^="menu-section-"]')).toHaveCount(1);
  await expect(page.getByTestId('menu-section-device-manage')).toBeVisible();
  if (!(await page.getByTestId('menu-item-product').isVisible())) await page.getByTestId('menu-section-device-manage').click();
  await expect(page.locator('[data-testid^="menu-item-"]')).toHaveCount(1);
  await page.getByTestId('menu-item-product').click();
  await expect(page).toHaveURL(/\/product$/);
  await expect(page.getByTestId('product-add')).toBeVisible();
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  await expect(page.getByTestId('product-edit')).toHaveCount(0);
  await expect(page.getByTestId('product-delete')).toHaveCount(0);
  await shot(page, 'users-limited-menu');
  // A page outside the role is not reachable by its address either.
  await page.goto('/sys-user');
  await expect(page.getByTestId('list-add')).toHaveCount(0);
});

test('an import with one bad row lists that row and stores nothing', async ({ page }) => {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('用户');
  sheet.addRow(['姓名', '手机号码', '用户类型', '所属角色', '密码']);
  sheet.addRow(['导入好人', '13622220001', '普通用户', 'user', 'Import@123']);
  sheet.addRow(['导入坏人', '1362222000', '普通用户', 'user', 'Import@123']);
  const buffer = Buffer.from(await book.xlsx.writeBuffer());

  await login(page);
  await page.goto('/sys-user');
  await page.getByTestId('user-import-file').setInputFiles({ name: 'users.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
  const result = page.getByTestId('user-import-result');
  await expect(result).toContainText('导入失败，未导入任何数据');
  await expect(result.getByTestId('import-problem')).toHaveText(['第3行：手机号码格式错误']);
  await shot(page, 'users-import-refused');
  await result.getByRole('button').click();
  await page.getByTestId('filter-keyword').fill('导入好人');
  await page.getByTestId('list-query').click();
  await expect(page.getByTestId('list-row')).toHaveCount(0);

  // The same file without the bad row goes in whole.
  sheet.spliceRows(3, 1);
  const good = Buffer.from(await book.xlsx.writeBuffer());
  await page.getByTestId('user-import-file').setInputFiles({ name: 'users.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: good });
  await expect(page.getByText('导入成功，共 1 条')).toBeVisible();
  await page.getByTestId('list-query').click();
  await expect(page.getByTestId('list-row')).toHaveCount(1);

  // The export is a form post of the search: the browser saves the file.
  const download = page.waitForEvent('download');
  await page.getByTestId('user-export').click();
  expect((await download).suggestedFilename()).toMatch(/\.xlsx$/);

  // The same screen in Traditional Chinese and English.
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-option-zh-TW').click();
  await expect(page.getByTestId('user-export')).toContainText('匯出');
  await expect(page.getByLabel('姓名/手機號碼')).toBeVisible();
  await shot(page, 'users-list-zh-TW');
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-option-en-US').click();
  await expect(page.getByLabel('Name or phone')).toBeVisible();
  await shot(page, 'users-list-en');
});

test('a status change the server refuses says so with its reason (spec 001 §8)', async ({ page }) => {
  await login(page);
  await page.goto('/sys-user');
  const own = page.getByTestId('list-row').filter({ hasText: '系统管理员' });
  await own.getByTestId('user-toggle').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByText('用户状态修改失败 不能禁用当前登录用户')).toBeVisible();
  await expect(own.getByTestId('user-status')).toHaveText('正常');
});

test('the user drawer shows a staff member’s phone masked, as the list does', async ({ page }) => {
  await login(page);
  await page.goto('/sys-user');
  const officer = page.getByTestId('list-row').filter({ hasText: '演示民警' });
  await expect(officer).toContainText('138****0003');
  await officer.getByTestId('user-detail').click();
  const basic = page.getByTestId('user-basic');
  await expect(basic).toContainText('138****0003');
  await expect(basic).not.toContainText('13800000003');
  await shot(page, 'users-drawer-masked');
});

test('in English the server’s refusals of users and roles read in English', async ({ page }) => {
  await login(page, undefined, 'en-US');
  await page.goto('/sys-user');
  // One’s own account cannot be deleted.
  await page.getByTestId('list-row').filter({ hasText: '系统管理员' }).getByTestId('list-delete').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByText('You cannot delete the account you are signed in with')).toBeVisible();
  // A phone another account holds.
  await page.getByTestId('list-add').click();
  await pick(page, 'fAdmin', 'Ordinary user');
  await page.getByTestId('form-input-fChineseName').fill('Second agent');
  await page.getByTestId('form-input-fPhone').fill('13800000001');
  await page.getByTestId('form-field-fRoleIds').getByRole('combobox').click();
  // The built-in roles read in the console's language.
  await page.getByRole('option', { name: 'User', exact: true }).click();
  await page.keyboard.press('Escape');
  await page.getByTestId('user-form-password').fill('Second@123');
  await page.getByTestId('user-form-password-check').fill('Second@123');
  await page.getByTestId('form-save').click();
  // Under the phone field, which the refusal names.
  await expect(page.getByTestId('form-field-fPhone').getByText('This mobile phone number is already used')).toBeVisible();
  await expect(page.getByText('该手机号码已存在')).toHaveCount(0);
  await shot(page, 'users-refusal-en');

  // A role someone holds cannot be deleted; an alias is one role’s only.
  await page.goto('/sys-role');
  await page.getByTestId('list-row').filter({ hasText: 'officer' }).getByTestId('list-delete').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByText('Users hold this role: it cannot be deleted')).toBeVisible();
  await page.getByTestId('list-add').click();
  await page.getByTestId('form-input-name').fill('Another officer');
  await page.getByTestId('form-input-alias').fill('officer');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('This role alias is already used').first()).toBeVisible();
  await shot(page, 'roles-refusal-en');
});

test('an agent opening the user, role or menu address gets the page-not-found page, and no call is made', async ({ page }) => {
  const calls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/system/t-sys-user/pageList') || r.url().includes('/system/t-sys-role/pageList')) calls.push(r.url());
  });
  await login(page, AGENT);
  for (const address of ['/sys-user', '/sys-role', '/sys-menu', '/oplog']) {
    await page.goto(address);
    await expect(page.getByTestId('error-page-404')).toBeVisible();
  }
  expect(calls).toEqual([]);
  // Its own place page opens as before.
  await page.goto('/place');
  await expect(page.getByTestId('place-page')).toBeVisible();
  await shot(page, 'users-agent-not-found');
});

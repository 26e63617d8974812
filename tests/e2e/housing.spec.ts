import type { Page } from '@playwright/test';
import { expect, test, login, openMenu, shot, OFFICER } from './helpers';

/** Chooses one option by name in the picker's column of that level. */
async function choose(page: Page, testId: string, level: string, name: string) {
  await page.getByTestId(`${testId}-level-${level}`).getByRole('menuitem', { name, exact: true }).click();
}

test('the rental-house filter picks a jurisdiction down to a community and shows only its houses; rooms open', async ({ page }) => {
  await login(page);
  await openMenu(page, 'house', 'rental-manage');
  await expect(page).toHaveURL(/\/house$/);
  const rows = page.getByTestId('list-row');
  await expect(rows).toHaveCount(10);

  const picker = 'filter-fCommunityId';
  await page.getByTestId(`${picker}-input`).click();
  await choose(page, picker, 'province', '广东省');
  await choose(page, picker, 'city', '广州市');
  // A district of the tree without streets reads 无数据 at the next level.
  await choose(page, picker, 'district', '荔湾区');
  await expect(page.getByTestId(`${picker}-level-street`).getByText('无数据')).toBeVisible();
  await choose(page, picker, 'district', '天河区');
  await choose(page, picker, 'street', '石牌街');
  const community = page.getByTestId(`${picker}-level-community`).getByRole('menuitem').first();
  await expect(community).toBeVisible();
  await shot(page, 'housing-picker');
  const communityName = (await community.innerText()).trim();
  await community.click();
  await expect(page.getByTestId(`${picker}-panel`)).toBeHidden();
  await expect(page.getByTestId(`${picker}-input`)).toHaveValue(`广东省 / 广州市 / 天河区 / 石牌街 / ${communityName}`);
  await page.getByTestId('list-query').click();
  await expect(rows).toHaveCount(4);
  for (const text of await rows.allInnerTexts()) expect(text).toContain('石牌街');
  await expect(rows.first()).toContainText(/1[3-9]\d\*{4}\d{4}/);
  await shot(page, 'housing-rental-houses');

  // Keyboard: the picker opens with Enter and walks the levels with the arrow keys.
  await page.getByTestId(`${picker}-clear`).click();
  await page.getByTestId(`${picker}-input`).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId(`${picker}-level-province`).getByRole('menuitem').first()).toBeFocused();
  await page.getByTestId(`${picker}-panel`).press('Escape');

  // A new house: the building is picked down the address path; the list shows it under its street.
  await page.getByTestId('list-add').click();
  const form = page.getByTestId('form-dialog');
  await page.getByTestId('form-save').click();
  await expect(form.getByText('房屋名称不能为空')).toBeVisible();
  await expect(form.getByText('所属楼栋不能为空')).toBeVisible();
  await page.getByTestId('form-input-fHouseName').fill('端到端出租屋');
  await page.getByTestId('form-input-fAddress').fill('广州市天河区石牌街端到端路1号');
  await page.getByTestId('form-input-fLandlordPhone').fill('13912345678');
  const building = 'form-field-fBuildId';
  await page.getByTestId(`${building}-input`).click();
  await choose(page, building, 'province', '广东省');
  await choose(page, building, 'city', '广州市');
  await choose(page, building, 'district', '天河区');
  await choose(page, building, 'street', '石牌街');
  await choose(page, building, 'community', communityName);
  await shot(page, 'housing-house-form');
  await choose(page, building, 'building', '1栋');
  await expect(page.getByTestId(`${building}-input`)).toHaveValue(`广东省 / 广州市 / 天河区 / 石牌街 / ${communityName} / 1栋`);
  await page.getByTestId('form-save').click();
  await expect(page.getByText('出租屋保存成功')).toBeVisible();
  await expect(form).toBeHidden();
  await page.getByTestId('filter-keyword').fill('端到端');
  await page.getByTestId('list-query').click();
  await expect(rows).toHaveCount(1);
  const mine = rows.filter({ hasText: '端到端出租屋' });
  await expect(mine).toContainText('石牌街');
  await expect(mine).toContainText('139****5678');
  // Edit shows the stored path.
  await mine.getByTestId('list-edit').click();
  await expect(page.getByTestId(`${building}-input`)).toHaveValue(`广东省 / 广州市 / 天河区 / 石牌街 / ${communityName} / 1栋`);
  await page.getByTestId('form-cancel').click();
  await page.getByTestId('list-reset').click();
  await expect(rows).toHaveCount(10);

  await rows.first().getByTestId('house-rooms').click();
  const dialog = page.getByTestId('house-rooms-dialog');
  await expect(dialog.getByTestId('list-row').first()).toBeVisible();
  await expect(dialog.getByTestId('list-row').first()).toContainText(/在租|未出租|已退租/);
  await shot(page, 'housing-rooms');
});

test('a tenant opens with both tabs and is disabled and enabled again after the confirmation', async ({ page }) => {
  await login(page);
  await openMenu(page, 'tenant', 'rental-manage');
  await expect(page).toHaveURL(/\/tenant$/);
  const rows = page.getByTestId('list-row');
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).toContainText(/1[3-9]\d\*{4}\d{4}/);

  // A tenant with assets (the demo gives the first renting tenants places with devices).
  const { name, phone } = await page.evaluate(async () => {
    const token = localStorage.getItem('token') ?? '';
    const post = (path: string, body: object) => fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: token }, body: JSON.stringify(body) }).then((r) => r.json());
    const link = await post('/biz/t-sys-user-room-device/pageList', { current: 1, size: 1, condition: {} });
    const owner = (await post('/biz/t-sys-user-room/rooms', { current: 1, size: 1, condition: { fHomeId: link.data.records[0].fHomeId } })).data.records[0].fUserId;
    const list = await post('/system/t-sys-user/pageList', { current: 1, pageSize: 1000, condition: { userType: 2 } });
    const u = list.data.records.find((r: { fId: number }) => r.fId === owner);
    return { name: u.fChineseName as string, phone: u.fPhone as string };
  });
  await page.getByTestId('filter-keyword').fill(phone);
  await page.getByTestId('list-query').click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(name);
  await shot(page, 'housing-tenants');

  await rows.first().getByTestId('tenant-view').click();
  const drawer = page.getByTestId('tenant-drawer');
  // Phone and ID number masked as the list and the profile show them: one rule everywhere (spec 001 §2.12).
  await expect(drawer.getByTestId('tenant-basic')).toContainText(`${phone.slice(0, 3)}****${phone.slice(7)}`);
  await expect(drawer.getByTestId('tenant-basic')).not.toContainText(phone);
  await expect(drawer.getByTestId('tenant-basic')).toContainText(/\d{6}\*{8}[\dX]{4}/);
  await expect(rows.first()).toContainText(/\d{6}\*{8}[\dX]{4}/);
  await page.waitForTimeout(500); // the drawer's slide-in
  await shot(page, 'housing-tenant-basic');
  await drawer.getByTestId('tenant-tab-assets').click();
  await expect(drawer.getByTestId('asset-row').first()).toBeVisible();
  await shot(page, 'housing-tenant-assets');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  await rows.first().getByTestId('tenant-toggle').click();
  await expect(page.getByText('确定要禁用该租客吗？')).toBeVisible();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByText('用户状态修改成功')).toBeVisible();
  await expect(rows.first().getByTestId('tenant-status')).toHaveText('禁用');
  // The status radio (spec 001 §2.7: all / normal / disabled): the tenant is among the disabled only.
  const status = page.getByTestId('filter-status');
  await expect(status.getByRole('radio')).toHaveCount(3);
  expect(await status.locator('label:has(input[type=radio])').allTextContents()).toEqual(['全部', '正常', '禁用']);
  await status.getByLabel('正常').check();
  await page.getByTestId('list-query').click();
  await expect(rows).toHaveCount(0);
  await status.getByLabel('禁用').check();
  await page.getByTestId('list-query').click();
  await expect(rows).toHaveCount(1);
  await status.getByLabel('全部').check();
  await page.getByTestId('list-query').click();
  await expect(rows).toHaveCount(1);
  await rows.first().getByTestId('tenant-toggle').click();
  await expect(page.getByText('确定要启用该租客吗？')).toBeVisible();
  await page.getByTestId('confirm-ok').click();
  await expect(rows.first().getByTestId('tenant-status')).toHaveText('正常');

  // The same page in English.
  await page.getByTestId('language-switch').click();
  await page.getByTestId('language-option-en-US').click();
  await rows.first().getByTestId('tenant-toggle').click();
  await expect(page.getByText('Are you sure to disable this tenant?')).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await shot(page, 'housing-tenants-en');
  await openMenu(page, 'house', 'rental-manage');
  await expect(page.getByTestId('list-row').first()).toBeVisible();
  await shot(page, 'housing-rental-houses-en');
});

test('the officer sees the houses and tenants of his street only, phones and ID numbers masked, in English and Traditional Chinese', async ({ page }) => {
  for (const [locale, street] of [['en-US', '石牌街'], ['zh-TW', '石牌街']] as const) {
    await login(page, OFFICER, locale);
    await openMenu(page, 'house', 'rental-manage');
    const rows = page.getByTestId('list-row');
    await expect(rows.first()).toBeVisible();
    // Every house of the list lies in the officer's street, and the landlord's phone reads 3 + 4.
    for (const text of await rows.allInnerTexts()) {
      expect(text).toContain(street);
      expect(text).not.toMatch(/1[3-9]\d{9}/);
    }
    await expect(rows.first()).toContainText(/1[3-9]\d\*{4}\d{4}/);
    await shot(page, `housing-officer-houses-${locale}`);
    await openMenu(page, 'tenant', 'rental-manage');
    await expect(rows.first()).toBeVisible();
    for (const text of await rows.allInnerTexts()) {
      expect(text).not.toMatch(/1[3-9]\d{9}/);
      expect(text).not.toMatch(/\d{17}[\dX]/);
    }
    await shot(page, `housing-officer-tenants-${locale}`);
    await page.evaluate(() => localStorage.clear());
  }
});

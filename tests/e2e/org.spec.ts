/** Departments, areas, places and rooms (spec 002 screens 7–9) as an administrator works them. */
import type { Page } from '@playwright/test';
import { expect, test, login } from './helpers';

/** Fills the tree page's "add top level" form (departments or areas) and confirms it. */
async function addTop(page: Page, ns: string, fields: Record<string, string>) {
  await page.getByTestId(`${ns}-add-top`).click();
  for (const [key, value] of Object.entries(fields)) await page.getByTestId(`${ns}-field-${key}`).fill(value);
  await page.getByTestId(`${ns}-confirm`).click();
}

test('adding a department or an area with a number already given is refused, and the node holding it stays', async ({ page }) => {
  await login(page);
  await page.goto('/department');
  await addTop(page, 'departments', { fDepartmentId: '9100', fDepartmentName: '新的部门' });
  await expect(page.getByTestId('departments-detail').getByText('部门编号已存在')).toBeVisible();
  await expect(page.getByTestId('departments-node-9100')).toContainText('运营中心');
  await page.getByTestId('departments-field-fDepartmentId').fill('9901');
  await page.getByTestId('departments-confirm').click();
  await expect(page.getByText('部门保存成功')).toBeVisible();
  await expect(page.getByTestId('departments-node-9901')).toContainText('新的部门');
  await expect(page.getByTestId('departments-node-9100')).toContainText('运营中心');

  // The same in English on the area tree.
  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await login(page, undefined, 'en-US');
  await page.goto('/area');
  await addTop(page, 'areas', { fAreaId: '440000', fAreaName: 'New province' });
  await expect(page.getByTestId('areas-detail').getByText('This area number is already used')).toBeVisible();
  await expect(page.getByTestId('areas-node-440000')).toContainText('广东省');
});

test('in English a room’s save and a place’s refused delete read in English', async ({ page }) => {
  await login(page, undefined, 'en-US');
  await page.goto('/place');
  await page.getByTestId('place-add').click();
  await page.getByTestId('form-dialog').getByTestId('form-input-fName').fill('English place');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('Place saved')).toBeVisible();
  const row = page.getByTestId('place-row').filter({ hasText: 'English place' });
  await row.getByTestId('place-rooms').click();
  await page.getByTestId('room-add').click();
  await page.getByTestId('room-dialog').locator('input').first().fill('Study');
  await page.getByTestId('room-save').click();
  await expect(page.getByText('Room saved')).toBeVisible();
  await expect(page.getByText('房间保存成功')).toHaveCount(0);
  await page.getByTestId('rooms-close').click();
  await row.getByTestId('place-delete').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByText('Deleting the place failed: Delete the rooms of the place first')).toBeVisible();
});

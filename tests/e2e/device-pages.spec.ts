import { expect, test, login } from './helpers';

test('groups: a group is created, devices are bound to it and shown', async ({ page }) => {
  await login(page);
  await page.goto('/group');
  await page.getByTestId('group-add').click();
  await page.getByTestId('group-form-submit').click();
  await expect(page.getByText('分组名称不能为空')).toBeVisible();
  await page.getByTestId('group-form-name').fill('端到端分组');
  await page.getByTestId('group-form-submit').click();
  await expect(page.getByText('分组保存成功')).toBeVisible();
  const row = page.getByTestId('group-row').filter({ hasText: '端到端分组' });
  await row.getByTestId('group-view').click();
  const drawer = page.getByTestId('group-drawer');
  await drawer.getByTestId('group-bind').click();
  await page.getByTestId('group-picker-row').first().click();
  await page.getByTestId('group-picker-confirm').click();
  await expect(page.getByText('设备绑定完成')).toBeVisible();
  await expect(drawer.getByTestId('group-device-row')).toHaveCount(1);
});

test('gateways show their bound child devices; the map page places the devices', async ({ page }) => {
  await login(page);
  await page.goto('/gateway');
  const card = page.getByTestId('gateway-card').filter({ hasText: 'DEV000005' });
  await expect(card.getByTestId('gateway-child')).toHaveCount(4);

  await page.goto('/location');
  await expect(page.getByTestId('location-page')).toBeVisible();
  await expect(page.getByTestId('location-marker').first()).toBeAttached();
  await expect(page.getByTestId('location-device-row').first()).toBeVisible();
});

test('firmware: a version is saved with the spec rules and a device added for upgrade', async ({ page }) => {
  await login(page);
  await page.goto('/firmware');
  await page.getByTestId('firmware-add').click();
  await page.getByTestId('form-save').click();
  await expect(page.getByText('固件名称不能为空')).toBeVisible();
  await expect(page.getByText('所属产品不能为空')).toBeVisible();
  await page.getByTestId('form-field-fProductId').getByRole('combobox').click();
  await page.getByRole('option', { name: 'WiFi智能插座', exact: true }).click();
  await page.getByTestId('form-input-fName').fill('端到端插座固件');
  await page.getByTestId('form-input-fVersion').fill('2.0.0');
  await page.getByTestId('form-input-fVersionCode').fill('v2');
  await page.getByTestId('form-input-fMd5Sign').fill('0123456789abcdef0123456789abcdef');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('版本序号只能为数字')).toBeVisible();
  await page.getByTestId('form-input-fVersionCode').fill('2');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('固件版本保存成功')).toBeVisible();
  const row = page.getByTestId('firmware-row').filter({ hasText: '端到端插座固件' });
  await row.getByTestId('firmware-view').click();
  await page.getByTestId('upgrade-add').click();
  // Every column of the picker is named, the devices' connection too.
  await expect(page.getByRole('columnheader', { name: '在线状态' })).toBeVisible();
  await page.getByTestId('picker-row').first().locator('input[type=checkbox]').check();
  await page.getByTestId('picker-add').click();
  await expect(page.getByText('设备添加完成')).toBeVisible();
  await expect(page.getByTestId('upgrade-row')).toHaveCount(1);
});

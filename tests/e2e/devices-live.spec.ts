import mqtt from 'mqtt';
import { expect, test, findDevice, login, shot } from './helpers';
import { resolveProtocolVersion } from '../../server/mqtt/connect';
import { deviceTopic } from '../../server/mqtt/topics';
import type { AlarmMessage } from '../../server/mqtt/protocol';

// The server under test runs the embedded broker on PORT + 10000 (playwright.config.ts).
const BROKER = `mqtt://127.0.0.1:${Number(process.env.E2E_PORT ?? 8181) + 10000}`;

/** Publishes a threshold alarm as the device itself would, on its up topic. */
async function deviceAlarm(productNumber: string, deviceNumber: string, alarm: Pick<AlarmMessage, 'kind' | 'field' | 'value' | 'limit' | 'level' | 'active'>) {
  const client = await mqtt.connectAsync(BROKER, { protocolVersion: await resolveProtocolVersion(BROKER, 'auto'), clientId: `e2e-alarm-${Date.now()}` });
  const message: AlarmMessage = { bid: 'alarm', ClientID: deviceNumber, ts: Date.now(), ...alarm };
  await client.publishAsync(deviceTopic(productNumber, deviceNumber, 'up'), JSON.stringify(message), { qos: 1 });
  await client.endAsync();
}

test('a connected device that is not activated reads unknown, in the list and its drawer (spec 000 §4)', async ({ page }) => {
  await login(page);
  // The demo's last 4G switch is not activated; the simulator connects it all the same.
  const row = await findDevice(page, 'DEV000012');
  await expect(row.getByTestId('device-activation')).toHaveText('未激活');
  await expect(row.getByTestId('device-online')).toHaveText('未知', { timeout: 30_000 });
  await row.getByText('DEV000012').click();
  await expect(page.getByTestId('device-drawer').getByTestId('device-online').first()).toHaveText('未知');
});

test('a simulated device switches off and on, and the list shows its state', async ({ page }) => {
  await login(page);
  const row = await findDevice(page, 'DEV000019');
  // The simulator brings the demo devices online shortly after the server starts.
  await expect(row.getByTestId('device-online')).toHaveText('在线', { timeout: 30_000 });
  const toggle = row.getByTestId('device-switch');
  await expect(toggle).toBeChecked();

  await toggle.click();
  await expect(page.getByText('分闸命令发送成功')).toBeVisible();
  await expect(toggle).not.toBeChecked();

  // A second click within 3 s is refused by the server, and the switch stays as it was.
  await toggle.click();
  await expect(page.getByText('点击太频繁，休息一下')).toBeVisible();
  await expect(toggle).not.toBeChecked({ timeout: 5_000 });

  await page.waitForTimeout(3_100);
  await toggle.click();
  await expect(page.getByText('合闸命令发送成功')).toBeVisible();
  await expect(toggle).toBeChecked();

  // What the device acknowledged is stored: a fresh page shows the same.
  const again = await findDevice(page, 'DEV000019');
  await expect(again.getByTestId('device-switch')).toBeChecked();
});

test('batch commands are confirmed, then answer device by device, with the device-type rules', async ({ page }) => {
  await login(page);
  await page.goto('/device');
  await page.getByTestId('device-search').fill('DEV00001');
  await page.getByTestId('device-search').press('Enter');
  await expect(page.getByTestId('device-row').first()).toBeVisible();
  await page.getByTestId('device-batch-3').click();
  await expect(page.getByText('请先选择需要操作的设备')).toBeVisible();

  const rows = page.getByTestId('device-row').filter({ hasText: /DEV00001[78]/ });
  await expect(rows).toHaveCount(2);
  await expect(rows.first().getByTestId('device-online')).toHaveText('在线', { timeout: 30_000 });
  await rows.nth(0).getByTestId('device-select').check();
  await rows.nth(1).getByTestId('device-select').check();
  await page.getByTestId('device-batch-2').click();
  await expect(page.getByTestId('confirm-message')).toHaveText('确定要对选中的 2 台设备执行批量校时吗？');
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByText('没有需要操作的设备')).toBeVisible();
  // Cutting the power of every selected device is asked first; cancelled, nothing is sent.
  const sends: string[] = [];
  page.on('request', (r) => r.url().endsWith('/biz/t-device/send') && sends.push(r.postData() ?? ''));
  await page.getByTestId('device-batch-3').click();
  await expect(page.getByTestId('confirm-message')).toHaveText('确定要对选中的 2 台设备执行批量分闸吗？');
  await page.getByTestId('confirm-cancel').click();
  await expect(page.getByTestId('confirm-dialog')).toBeHidden();
  expect(sends).toHaveLength(0);
  await page.getByTestId('device-batch-3').click();
  await page.getByTestId('confirm-ok').click();
  const result = page.getByTestId('device-batch-result');
  await expect(result.getByText('DEV000017: 分闸命令发送成功')).toBeVisible();
  await expect(result.getByText('DEV000018: 分闸命令发送成功')).toBeVisible();
});

test('the device drawer: running status switches the device, a timer is set and listed', async ({ page }) => {
  await login(page);
  const row = await findDevice(page, 'DEV000010');
  await expect(row.getByTestId('device-online')).toHaveText('在线', { timeout: 30_000 });
  await row.getByText('DEV000010').click();
  const drawer = page.getByTestId('device-drawer');
  await expect(drawer).toBeVisible();

  await drawer.getByTestId('device-tab-status').click();
  const toggle = drawer.getByTestId('status-switch');
  await expect(toggle).toHaveAttribute('data-checked', '1');
  await toggle.locator('input').click();
  await expect(page.getByText('分闸命令发送成功').first()).toBeVisible();
  await expect(toggle).toHaveAttribute('data-checked', '0');
  await expect(drawer.getByTestId('command-row').first()).toHaveAttribute('data-state', 'acknowledged');
  await page.waitForTimeout(3_100);
  await toggle.locator('input').click();
  await expect(page.getByText('合闸命令发送成功').first()).toBeVisible();
  await expect(toggle).toHaveAttribute('data-checked', '1');

  await drawer.getByTestId('device-tab-timers').click();
  await drawer.getByTestId('timer-add').click();
  const dialog = page.getByTestId('timer-dialog');
  await dialog.getByTestId('timer-save').click();
  await expect(dialog.getByText('时间不能为空')).toBeVisible();
  // The time picker takes the hours and minutes from the keyboard.
  await dialog.getByTestId('timer-time').getByRole('spinbutton').first().click();
  await page.keyboard.type('0730');
  await expect(dialog.getByTestId('timer-time').locator('input').first()).toHaveValue('07:30');
  await shot(page, 'devices-timer-time');
  await dialog.getByTestId('timer-save').click();
  await expect(dialog).toBeHidden();
  const timer = drawer.getByTestId('timer-row');
  await expect(timer).toHaveCount(1);
  await expect(timer).toContainText('07:30');
});

test('a device alarm is announced and marks the device in the list and its drawer until it clears', async ({ page }) => {
  await login(page);
  const row = await findDevice(page, 'DEV000002');
  await expect(row.getByTestId('device-online')).toHaveText('在线', { timeout: 30_000 });
  await expect(row.getByTestId('device-alarm')).toHaveCount(0);

  await deviceAlarm('P-SW-485', 'DEV000002', { kind: 'overcurrent', field: 'current', value: 32.5, limit: 25, level: 'alarm', active: true });
  // Without a reload: a notification names the device and the alarm, and the row is marked.
  await expect(page.getByText('设备 DEV000002 告警：过流告警 · 32.5（限值 25）')).toBeVisible();
  await expect(row.getByTestId('device-alarm')).toHaveText('过流告警');
  await shot(page, 'devices-live-alarm');

  await row.getByText('DEV000002').click();
  const drawer = page.getByTestId('device-drawer');
  await expect(drawer.getByTestId('device-alarm')).toHaveAttribute('data-kinds', 'overcurrent');

  // Back within its limit: the mark goes, here and in the list.
  await deviceAlarm('P-SW-485', 'DEV000002', { kind: 'overcurrent', field: 'current', value: 12, limit: 25, level: 'alarm', active: false });
  await expect(drawer.getByTestId('device-alarm')).toHaveCount(0);
  await drawer.getByTestId('drawer-close').click();
  await expect(row.getByTestId('device-alarm')).toHaveCount(0);
});

test('alarm settings and timed switching are edited row by row: checked, saved, deleted after a confirmation', async ({ page }) => {
  await login(page);
  const row = await findDevice(page, 'DEV000011');
  await row.getByText('DEV000011').click();
  const drawer = page.getByTestId('device-drawer');

  await drawer.getByTestId('device-tab-cabinet').click();
  const cabinet = drawer.getByTestId('device-cabinet-tab');
  await cabinet.getByTestId('cabinet-add').click();
  const draft = cabinet.getByTestId('cabinet-row').last();
  await expect(draft.getByTestId('cabinet-unsaved')).toBeVisible();
  await draft.getByTestId('cabinet-save').click();
  await expect(cabinet.getByTestId('cabinet-error').last()).toHaveText('请先选择单位');
  await draft.getByTestId('cabinet-fUnit').locator('..').click();
  await page.getByRole('option', { name: 'ppm' }).click();
  await draft.getByTestId('cabinet-fGasEn').fill('CO');
  await expect(cabinet.getByTestId('cabinet-error')).toHaveCount(0);
  await draft.getByTestId('cabinet-save').click();
  await expect(page.getByText('保存成功').first()).toBeVisible();
  await expect(draft.getByTestId('cabinet-unsaved')).toHaveCount(0);
  await draft.getByTestId('cabinet-delete').click();
  await expect(page.getByTestId('confirm-message')).toHaveText('确定要删除吗！');
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByText('删除成功').first()).toBeVisible();
  await expect(cabinet.getByTestId('cabinet-row').filter({ has: page.getByTestId('cabinet-fGasEn').and(page.locator('[value="CO"]')) })).toHaveCount(0);

  await drawer.getByTestId('device-tab-schedules').click();
  const panel = drawer.getByTestId('device-schedules-panel');
  const before = await panel.getByTestId('schedule-row').count();
  await panel.getByTestId('schedule-add').click();
  const schedule = panel.getByTestId('schedule-row').last();
  await expect(schedule).toHaveAttribute('data-unsaved', 'true');
  await schedule.getByTestId('schedule-save').click();
  await expect(page.getByText('保存成功').first()).toBeVisible();
  await expect(schedule).not.toHaveAttribute('data-unsaved', 'true');
  await shot(page, 'device-schedules');
  await schedule.getByTestId('schedule-delete').click();
  await page.getByTestId('confirm-ok').click();
  await expect(panel.getByTestId('schedule-row')).toHaveCount(before);
});

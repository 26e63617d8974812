import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer, until } from './harness';

describe.each(backends)('device drawer data on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let user: string;
  const id: Record<string, number> = {};

  beforeAll(async () => {
    s = await startServer(backend, { simulate: true, telemetryMs: 200 });
    [admin, agent, user] = [await s.login(ADMIN), await s.login(AGENT), await s.login(USER)];
    for (const r of await s.sql(`select f_id, f_number from t_device`)) id[r.fNumber] = r.fId;
  }, 60_000);
  afterAll(() => s?.close());

  describe('device-elec', () => {
    it('answers the latest simulated readings with their columns', async () => {
      const data = await until(async () => {
        const res = await s.call('/app/device/device-elec', { fId: id.DEV000009, isSendCmd: false }, agent);
        expect(res.body.success).toBe(true);
        return res.body.data.table.length >= 2 && res.body.data;
      });
      expect(data.tableCols.map((c: any) => c.key)).toEqual(['fTime', 'voltage', 'current', 'power', 'energy', 'temperature', 'leakage', 'switch']);
      expect(data.tableCols.find((c: any) => c.key === 'voltage')).toMatchObject({ title: '电压', unit: 'V' });
      const [latest, earlier] = data.table;
      expect(latest.fTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(latest.fTime >= earlier.fTime).toBe(true);
      expect(latest.voltage).toBeGreaterThan(180);
      expect(latest.voltage).toBeLessThan(260);
      expect([0, 1]).toContain(latest.switch);
      const live = s.devices.simulator!.device('DEV000009')!;
      expect(Math.abs(latest.voltage - live.readings.voltage)).toBeLessThan(40);
    });

    it('asks the device for fresh values first when isSendCmd is set', async () => {
      const before = await s.sql(`select count(*)::int as n from t_device_telemetry where f_device_id = ${id.DEV000010}`);
      const res = await s.call('/app/device/device-elec', { fId: id.DEV000010, isSendCmd: true }, admin);
      expect(res.body.success).toBe(true);
      expect(res.body.data.table.length).toBeGreaterThan(0);
      const after = await s.sql(`select count(*)::int as n from t_device_telemetry where f_device_id = ${id.DEV000010}`);
      expect(after[0].n).toBeGreaterThan(before[0].n);
      const [command] = await s.sql(`select f_bid, f_source, f_state from t_device_command where f_device_id = ${id.DEV000010} order by f_id desc limit 1`);
      expect(command).toMatchObject({ fBid: 'refresh', fSource: 'refresh', fState: 'acknowledged' });
    });

    it('tolerates an offline device and keeps its last readings', async () => {
      await until(async () => (await s.call('/app/device/device-elec', { fId: id.DEV000011 }, admin)).body.data.table.length > 0);
      await s.devices.simulator!.setOnline('DEV000011', false);
      await until(async () => (await s.sql(`select t_online from t_device where f_id = ${id.DEV000011}`))[0].tOnline === 0);
      const res = await s.call('/app/device/device-elec', { fId: id.DEV000011, isSendCmd: true }, admin);
      expect(res.body.success).toBe(true);
      expect(res.body.data.table.length).toBeGreaterThan(0);
      await s.devices.simulator!.setOnline('DEV000011', true);
    });

    it('reaches only devices in the user scope', async () => {
      const hidden = await s.call('/app/device/device-elec', { fId: id.DEV000012 }, user);
      expect(hidden.body).toMatchObject({ success: false, message: '设备不存在或无权操作' });
      const own = await s.call('/app/device/device-elec', { fId: id.DEV000001 }, user);
      expect(own.body.success).toBe(true);
    });
  });

  describe('shares', () => {
    const shares = async (deviceId: number, token: string) => (await s.call('/biz/t-user-device/pageList', { condition: { deviceId } }, token)).body;
    const visibleTo = async (token: string) => (await s.call('/biz/t-device/devices', { size: 100 }, token)).body.data.records.map((d: any) => d.fNumber);

    it('checks the form with the spec messages', async () => {
      expect((await s.call('/app/device/device-share-more', { deviceIds: [], user: USER.phone }, admin)).body.message).toBe('被分享设备不能为空');
      expect((await s.call('/app/device/device-share-more', { deviceIds: [id.DEV000012], user: ' ' }, admin)).body.message).toBe('被分享者不能为空');
      const unknown = await s.call('/app/device/device-share-more', { deviceIds: [id.DEV000012], user: '13999999999' }, admin);
      expect(unknown.body).toMatchObject({ success: false, message: '设备分享失败:用户不存在' });
      const toAgent = await s.call('/app/device/device-share-more', { deviceIds: [id.DEV000012], user: AGENT.phone }, admin);
      expect(toAgent.body.message).toBe('设备分享失败:只能分享给普通用户');
    });

    it('shares by phone: the shared user then sees the device, and only its owner may withdraw it', async () => {
      expect(await visibleTo(user)).not.toContain('DEV000012');
      const res = await s.call('/app/device/device-share-more', { deviceIds: [id.DEV000012], user: USER.phone }, admin);
      expect(res.body).toMatchObject({ success: true, message: '设备分享成功' });
      expect(res.body.data.successMsg).toContain('DEV000012');
      expect(res.body.data.errorMsg).toBe('');
      expect(await visibleTo(user)).toContain('DEV000012');

      const asAdmin = await shares(id.DEV000012, admin);
      expect(asAdmin.data.records).toHaveLength(1);
      expect(asAdmin.data.records[0]).toMatchObject({ userPhone: USER.phone, userName: '演示用户', fOwner: 0, isCanDel: 1 });
      expect(asAdmin.data.records[0].fIntime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      const asUser = await shares(id.DEV000012, user);
      expect(asUser.data.records[0].isCanDel).toBe(0);
      const refused = await s.call('/biz/t-user-device/del', { fId: asUser.data.records[0].fId }, user);
      expect(refused.body).toMatchObject({ success: false, message: '删除失败:无权删除该分享' });
      // The shared user cannot pass the device on.
      const reshare = await s.call('/app/device/device-share-more', { deviceIds: [id.DEV000012], user: ADMIN.phone }, user);
      expect(reshare.body.success).toBe(false);

      const again = await s.call('/app/device/device-share-more', { deviceIds: [id.DEV000012], user: USER.phone }, admin);
      expect(again.body.message).toContain('已分享给该用户');

      expect((await s.call('/biz/t-user-device/del', { fId: asAdmin.data.records[0].fId }, agent)).body).toMatchObject({ success: true, message: '删除成功' });
      expect(await visibleTo(user)).not.toContain('DEV000012');
    });

    it('shares by name, several devices at once, reporting each one', async () => {
      const res = await s.call('/app/device/device-share-more', { deviceIds: [id.DEV000013, id.DEV000002], user: '演示用户' }, agent);
      expect(res.body.success).toBe(true);
      expect(res.body.data.successMsg).toContain('DEV000013');
      expect(res.body.data.errorMsg).toContain('DEV000002');
      expect(await visibleTo(user)).toContain('DEV000013');
    });

    it('lets an ordinary user share the device it owns, and not devices beyond its scope', async () => {
      const reg = await s.call('/register', { fChineseName: '第二用户', fPhone: '13900000003', fPassword: 'Second@123', passwordCheck: 'Second@123' });
      expect(reg.body.success).toBe(true);
      const second = await s.login({ phone: '13900000003', password: 'Second@123' });
      expect(await visibleTo(second)).toEqual([]);

      const outOfScope = await s.call('/app/device/device-share-more', { deviceIds: [id.DEV000014], user: '13900000003' }, user);
      expect(outOfScope.body).toMatchObject({ success: false });
      expect(outOfScope.body.message).toContain('设备不存在或无权操作');

      const own = await s.call('/app/device/device-share-more', { deviceIds: [id.DEV000001], user: '第二用户' }, user);
      expect(own.body.success).toBe(true);
      expect(await visibleTo(second)).toEqual(['DEV000001']);
      const list = await shares(id.DEV000001, user);
      const owner = list.data.records.find((r: any) => r.fOwner === 1);
      const share = list.data.records.find((r: any) => r.userPhone === '13900000003');
      expect(owner.isCanDel).toBe(0);
      expect(share).toMatchObject({ fOwner: 0, isCanDel: 1, userName: '第二用户' });
      expect((await s.call('/biz/t-user-device/del', { fId: owner.fId }, admin)).body.success).toBe(false);
      expect((await s.call('/biz/t-user-device/del', { fId: share.fId }, user)).body.message).toBe('删除成功');
      expect(await visibleTo(second)).toEqual([]);
      // A user without the device sees no share list for it.
      expect((await shares(id.DEV000001, second)).success).toBe(false);
    });

    it('requires the permission codes', async () => {
      await s.sql(`delete from t_sys_role_menu where menu_id in (select id from t_sys_permission_menu where permissions in ('device:device-share-more', 'device:share-del')) and role_id = (select id from t_sys_role where alias = 'user')`);
      const fresh = await s.login(USER);
      const res = await s.call('/app/device/device-share-more', { deviceIds: [id.DEV000001], user: '13900000003' }, fresh);
      expect(res.status).toBe(401);
      expect((await s.call('/biz/t-user-device/del', { fId: 1 }, fresh)).status).toBe(401);
      expect((await s.call('/get_info', {}, admin)).body.data.permissions).toEqual(expect.arrayContaining(['device:device-share-more', 'device:share-del']));
    });
  });

  describe('message records', () => {
    const records = (condition: Record<string, unknown>, token = admin, size = 50) => s.call('/biz/t-emq-message-publish/records', { condition, current: 1, size }, token);

    it('lists what devices sent and what was sent to them, filtered by device and direction', async () => {
      await s.call('/app/device/device-elec', { fId: id.DEV000009, isSendCmd: true }, admin);
      const all = await records({ deviceId: id.DEV000009, type: 0 });
      expect(all.body.success).toBe(true);
      expect(all.body.data.total).toBeGreaterThan(1);
      expect(all.body.data.records.every((r: any) => r.fDeviceNumber === 'DEV000009')).toBe(true);
      const row = all.body.data.records[0];
      expect(Object.keys(row)).toEqual(expect.arrayContaining(['fTopic', 'fIntime', 'fPayload', 'fDirection']));
      expect(row.fTopic).toMatch(/^dev\/P-4G-SW\/DEV000009\//);

      const up = await records({ deviceNumber: 'DEV000009', type: 1 });
      expect(up.body.data.total).toBeGreaterThan(0);
      expect(up.body.data.records.every((r: any) => r.fDirection === 'up')).toBe(true);
      const down = await records({ deviceId: id.DEV000009, type: 2 });
      expect(down.body.data.records.length).toBeGreaterThan(0);
      expect(down.body.data.records.every((r: any) => r.fDirection === 'down' && r.fTopic.endsWith('/down'))).toBe(true);
      const byContent = await records({ deviceId: id.DEV000009, content: '"bid":"refresh"' });
      expect(byContent.body.data.records.length).toBeGreaterThan(0);
      expect(byContent.body.data.records.every((r: any) => r.fPayload.includes('"bid":"refresh"'))).toBe(true);

      const [product] = await s.sql(`select f_id from t_product where f_number = 'P-4G-SW'`);
      const byProduct = await records({ productId: product.fId }, admin, 200);
      expect(byProduct.body.data.records.every((r: any) => ['DEV000009', 'DEV000010', 'DEV000011', 'DEV000012'].includes(r.fDeviceNumber))).toBe(true);
      const byNumber = await records({ number: 'RG0000' });
      expect(byNumber.body.data.total).toBeGreaterThan(0);
      expect(byNumber.body.data.records.every((r: any) => r.fDeviceNumber.startsWith('RG0000'))).toBe(true);
    });

    it("reads minutes as whole minutes: begin gets ':00' and end ':59'", async () => {
      const payload = '{"bid":"marker"}';
      for (const at of ['10:29:59', '10:30:00', '10:30:59.5', '10:31:00', '10:32:00']) {
        await s.sql(`insert into t_emq_message_publish (f_device_id, f_device_number, f_product_number, f_direction, f_topic, f_bid, f_payload, f_intime)
          values (${id.DEV000001}, 'DEV000001', 'P-SW-485', 'up', 'dev/P-SW-485/DEV000001/up', 'marker', '${payload}', '2020-01-01 ${at}')`);
      }
      const times = async (beginTime: string, endTime: string) =>
        (await records({ deviceId: id.DEV000001, type: 'marker', beginTime, endTime })).body.data.records.map((r: any) => r.fIntime).sort();
      expect(await times('2020-01-01 10:30', '2020-01-01 10:30')).toEqual(['2020-01-01 10:30:00', '2020-01-01 10:30:59']);
      expect(await times('2020-01-01 10:30', '2020-01-01 10:31')).toEqual(['2020-01-01 10:30:00', '2020-01-01 10:30:59', '2020-01-01 10:31:00']);
      expect(await times('2020-01-01 10:30:00', '2020-01-01 10:31:00')).toEqual(['2020-01-01 10:30:00', '2020-01-01 10:30:59', '2020-01-01 10:31:00']);
      expect(await times('2020-01-01', '2020-01-01')).toHaveLength(5);
      expect(await times('2020-01-01 10:31', '')).toEqual(['2020-01-01 10:31:00', '2020-01-01 10:32:00']);
      const bad = await records({ beginTime: 'yesterday' });
      expect(bad.body).toMatchObject({ success: false, message: '时间格式不正确' });
    });

    it('pages, newest first', async () => {
      const first = await records({ deviceId: id.DEV000001, type: 'marker' }, admin, 2);
      expect(first.body.data).toMatchObject({ total: 5, current: 1, size: 2 });
      expect(first.body.data.records.map((r: any) => r.fIntime)).toEqual(['2020-01-01 10:32:00', '2020-01-01 10:31:00']);
      const third = await s.call('/biz/t-emq-message-publish/records', { condition: { deviceId: id.DEV000001, type: 'marker' }, current: 3, size: 2 }, admin);
      expect(third.body.data.records.map((r: any) => r.fIntime)).toEqual(['2020-01-01 10:29:59']);
    });

    it('shows a user only the messages of the devices it sees', async () => {
      const hidden = await records({ deviceId: id.DEV000010 }, user);
      expect(hidden.body.data.total).toBe(0);
      const mine = await records({}, user, 200);
      expect(mine.body.data.total).toBeGreaterThan(0);
      const visible = (await s.call('/biz/t-device/devices', { size: 100 }, user)).body.data.records.map((d: any) => d.fNumber);
      expect(mine.body.data.records.every((r: any) => visible.includes(r.fDeviceNumber))).toBe(true);
      const asAdmin = await records({ deviceId: id.DEV000010 }, admin);
      expect(asAdmin.body.data.total).toBeGreaterThan(0);
    });
  });
});

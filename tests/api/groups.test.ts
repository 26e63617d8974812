import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer } from './harness';

describe.each(backends)('groups and group devices on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let user: string;
  let agentId: number;
  const id: Record<string, number> = {};
  const save = (body: unknown, token = admin) => s.call('/biz/t-group/addorupdate', body, token);
  const groups = async (token = admin, condition = {}) => (await s.call('/biz/t-group/groups', { current: 1, size: 10000, condition }, token)).body.data;

  beforeAll(async () => {
    s = await startServer(backend);
    // These tests build their own groups: the demo groups go first.
    await s.sql('delete from t_group_device');
    await s.sql('delete from t_group');
    [admin, agent, user] = [await s.login(ADMIN), await s.login(AGENT), await s.login(USER)];
    for (const r of await s.sql(`select f_id, f_number from t_device`)) id[r.fNumber] = r.fId;
    agentId = (await s.sql(`select f_id from t_sys_user where f_phone = '13800000001'`))[0].fId;
  }, 60_000);
  afterAll(() => s?.close());

  it('creates groups under a parent and checks the parent rules', async () => {
    const top = await save({ fName: '一号楼', fRemork: '东区', fUserId: agentId });
    expect(top.body).toMatchObject({ success: true, message: '分组保存成功' });
    expect(top.body.data).toMatchObject({ fParentId: 0, fName: '一号楼', fUserId: agentId, deviceCount: 0 });
    const floor = await save({ fName: '一层', fParentId: top.body.data.fId }, agent);
    expect(floor.body.data).toMatchObject({ fParentId: top.body.data.fId, fUserId: agentId });
    const room = await save({ fName: '101', fParentId: floor.body.data.fId }, agent);

    expect((await save({ fName: '' })).body).toMatchObject({ success: false, message: '分组名称不能为空' });
    expect((await save({ fRemork: 'x' })).body.message).toBe('分组名称不能为空');
    const self = await save({ fId: top.body.data.fId, fName: '一号楼', fParentId: top.body.data.fId });
    expect(self.body).toMatchObject({ success: false, message: '当前分组与上级分组不能相同' });
    const cycle = await save({ fId: top.body.data.fId, fName: '一号楼', fParentId: room.body.data.fId });
    expect(cycle.body).toMatchObject({ success: false, message: '上级分组不能是当前分组的下级分组' });
    expect((await save({ fName: 'x', fParentId: 999999 })).body.message).toBe('上级分组不存在');
    expect((await save({ fName: 'x', fUserId: 1 })).body.message).toBe('所属代理商不存在');
    const moved = await save({ fId: room.body.data.fId, fName: '101室', fParentId: top.body.data.fId }, agent);
    expect(moved.body.data).toMatchObject({ fName: '101室', fParentId: top.body.data.fId });
    id.top = top.body.data.fId;
    id.floor = floor.body.data.fId;
    id.room = room.body.data.fId;
  });

  it('scopes groups: admin all, an agent its own; codes are checked', async () => {
    const adminOwn = await save({ fName: '管理员分组' });
    expect(adminOwn.body.data.fUserId).toBeNull();
    id.adminOwn = adminOwn.body.data.fId;
    const all = await groups();
    expect(all.total).toBe(4);
    const mine = await groups(agent);
    expect(mine.records.map((g: any) => g.fId).sort()).toEqual([id.top, id.floor, id.room].sort());
    // An agent cannot name another owner, nor file under a group it does not see.
    const other = await save({ fName: '代理商分组', fUserId: 999 }, agent);
    expect(other.body.data.fUserId).toBe(agentId);
    await s.call('/biz/t-group/del', { fId: other.body.data.fId }, agent);
    expect((await save({ fName: 'x', fParentId: id.adminOwn }, agent)).body.message).toBe('上级分组不存在');
    expect((await save({ fId: id.adminOwn, fName: 'x' }, agent)).body.success).toBe(false);
    expect((await groups(admin, { name: '一' })).records.map((g: any) => g.fName).sort()).toEqual(['一层', '一号楼'].sort());

    for (const path of ['/biz/t-group/groups', '/biz/t-group/addorupdate', '/biz/t-group/del', '/biz/t-group-device/bindDevices', '/biz/t-group-device/unbindDevices', '/biz/t-group-device/devicesbygroupid', '/biz/t-group-device/undevicesbygroupid']) {
      const r = await s.call(path, { fName: 'x', fId: id.top }, user);
      expect(r.status, path).toBe(401);
      expect(r.body).toMatchObject({ code: 401, message: '没有操作权限' });
    }
  });

  it('binds and unbinds devices, with the picker excluding bound ones', async () => {
    const none = await s.call('/biz/t-group-device/bindDevices', [], agent);
    expect(none.body).toMatchObject({ success: false, message: '请选择需要绑定的设备' });
    const unbound = await s.call('/biz/t-group-device/undevicesbygroupid', { current: 1, size: 10, condition: { group_id: id.floor } }, agent);
    // The agent's 22 switches and gateways and the 30 rental-house locks and access controls.
    expect(unbound.body.data).toMatchObject({ total: 52, size: 10, pages: 6 });
    const bind = await s.call('/biz/t-group-device/bindDevices', [id.DEV000001, id.DEV000002, id.DEV000009].map((d) => ({ fDeviceId: d, fGroupId: id.floor })), agent);
    expect(bind.body).toMatchObject({ success: true, message: '设备绑定完成' });
    // Binding again changes nothing.
    await s.call('/biz/t-group-device/bindDevices', [{ fDeviceId: id.DEV000001, fGroupId: id.floor }], agent);
    const list = await s.call('/biz/t-group-device/devicesbygroupid', { current: 1, size: 10, condition: { group_id: id.floor } }, agent);
    expect(list.body.data.total).toBe(3);
    expect(list.body.data.records[0].tDevice.fNumber).toMatch(/^DEV/);
    expect(list.body.data.records[0].tDevice.tProduct).toBeTruthy();
    const rest = await s.call('/biz/t-group-device/undevicesbygroupid', { current: 1, size: 10, condition: { group_id: id.floor, keyword: 'DEV00000' } }, agent);
    expect(rest.body.data.total).toBe(6);
    expect(rest.body.data.records.map((d: any) => d.fNumber)).not.toContain('DEV000001');
    expect((await groups(agent)).records.find((g: any) => g.fId === id.floor).deviceCount).toBe(3);

    // A device the caller cannot see is refused, and nothing of the batch is written.
    const [{ fId: productId }] = await s.sql(`select f_id from t_product where f_number = 'P-4G-SW'`);
    const hidden = (await s.call('/biz/t-device/addorupdate', { fNumber: 'GROUP-HIDDEN', fProductId: productId }, admin)).body.data.fId;
    const refused = await s.call('/biz/t-group-device/bindDevices', [{ fDeviceId: id.DEV000010, fGroupId: id.floor }, { fDeviceId: hidden, fGroupId: id.floor }], agent);
    expect(refused.body).toMatchObject({ success: false, message: '设备不存在或无权操作' });
    expect((await s.sql(`select count(*)::int as n from t_group_device where f_group_id = ${id.floor}`))[0].n).toBe(3);
    expect((await s.call('/biz/t-group-device/bindDevices', [{ fDeviceId: id.DEV000010, fGroupId: id.adminOwn }], agent)).body.message).toBe('分组不存在或无权操作');

    expect((await s.call('/biz/t-group-device/unbindDevices', [], agent)).body).toMatchObject({ success: false, message: '请选择需要解绑的设备' });
    const unbind = await s.call('/biz/t-group-device/unbindDevices', list.body.data.records.slice(0, 2), agent);
    expect(unbind.body).toMatchObject({ success: true, message: '设备解绑绑完成' });
    expect((await s.call('/biz/t-group-device/devicesbygroupid', { condition: { group_id: id.floor } }, agent)).body.data.total).toBe(1);
  });

  it('refuses to delete a group with sub-groups or devices', async () => {
    const parent = await s.call('/biz/t-group/del', { fId: id.top }, agent);
    expect(parent.body).toMatchObject({ success: false, message: '分组删除失败：请先删除下级分组' });
    const withDevices = await s.call('/biz/t-group/del', { fId: id.floor }, agent);
    expect(withDevices.body).toMatchObject({ success: false, message: '分组删除失败：请先解绑分组下的设备' });
    const links = (await s.call('/biz/t-group-device/devicesbygroupid', { condition: { group_id: id.floor } }, agent)).body.data.records;
    await s.call('/biz/t-group-device/unbindDevices', links, agent);
    expect((await s.call('/biz/t-group/del', { fId: id.floor }, agent)).body).toMatchObject({ success: true, message: '分组删除成功' });
    expect((await s.call('/biz/t-group/del', { fId: id.adminOwn }, agent)).body.success).toBe(false);
    expect((await s.call('/biz/t-group/del', { fId: id.adminOwn }, admin)).body.message).toBe('分组删除成功');
  });
});

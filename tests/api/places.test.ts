import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer } from './harness';

const HOME = '/system/t-sys-user-home';
const ROOM = '/biz/t-sys-user-room';
const LINK = '/biz/t-sys-user-room-device';

describe.each(backends)('places, rooms and room devices on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let user: string;
  let agentId: number;
  let userId: number;
  let agentDevices: number[];
  let otherDevice: number;
  const id: Record<string, number> = {};
  const homes = async (token = admin, condition = {}) => (await s.call(`${HOME}/homes`, { current: 1, size: 10, condition }, token)).body.data;
  const rooms = async (condition: object, token = admin) => (await s.call(`${ROOM}/rooms`, { current: 1, size: 10, condition }, token)).body.data;

  beforeAll(async () => {
    s = await startServer(backend);
    [admin, agent, user] = [await s.login(ADMIN), await s.login(AGENT), await s.login(USER)];
    agentId = (await s.sql(`select f_id from t_sys_user where f_phone = '13800000001'`))[0].fId;
    userId = (await s.sql(`select f_id from t_sys_user where f_phone = '13800000002'`))[0].fId;
    agentDevices = (await s.sql(`select f_id from t_device where f_user_id = ${agentId} order by f_id`)).map((r) => r.fId);
    // Every demo device is the agent's: one more that is not.
    otherDevice = (await s.sql(`insert into t_device (f_number, f_name, f_product_id, f_type_id) select 'OTHER0001', '他人设备', f_id, f_device_type from t_product order by f_id limit 1 returning f_id`))[0].fId;
  }, 60_000);
  afterAll(() => s?.close());

  it('saves places with their messages, owner and counts', async () => {
    const empty = await s.call(`${HOME}/addorupdate`, { isAdd: true, fName: '' }, agent);
    expect(empty.body).toMatchObject({ success: false, message: '场所名称不能为空' });
    const mine = await s.call(`${HOME}/addorupdate`, { isAdd: true, fName: '阳光公寓', fCityCode: '440305', fCityName: '南山区', fUserId: 999 }, agent);
    expect(mine.body).toMatchObject({ success: true, message: '场所保存成功' });
    expect(mine.body.data).toMatchObject({ fName: '阳光公寓', fUserId: agentId, fCityName: '南山区', roomCount: 0, deviceCount: 0 });
    id.place = mine.body.data.fId;
    // The district comes from the area tree: an unknown code is refused, and the name is the tree's.
    expect((await s.call(`${HOME}/addorupdate`, { isAdd: true, fName: 'x', fCityCode: '999999', fCityName: '某区' }, agent)).body).toMatchObject({ success: false, message: '所属区域不存在' });
    const named = await s.call(`${HOME}/addorupdate`, { isAdd: true, fName: '天河之家', fCityCode: '440106', fCityName: '随便写' }, agent);
    expect(named.body.data).toMatchObject({ fCityCode: '440106', fCityName: '天河区' });
    await s.call(`${HOME}/del`, { fId: named.body.data.fId }, agent);
    const forUser = await s.call(`${HOME}/addorupdate`, { isAdd: true, fName: '用户之家', fUserId: userId }, admin);
    expect(forUser.body).toMatchObject({ success: true, data: { fUserId: userId, ownerName: '演示用户' } });
    id.userPlace = forUser.body.data.fId;
    const own = await s.call(`${HOME}/addorupdate`, { isAdd: true, fName: '管理员场所' }, admin);
    id.adminPlace = own.body.data.fId;
    expect((await s.call(`${HOME}/addorupdate`, { isAdd: true, fName: 'x', fUserId: 987654 }, admin)).body.message).toBe('所属用户不存在');
    const edited = await s.call(`${HOME}/addorupdate`, { isAdd: false, fId: id.place, fName: '阳光公寓A座', fCityName: '南山区' }, agent);
    expect(edited.body).toMatchObject({ success: true, message: '场所保存成功', data: { fName: '阳光公寓A座', fUserId: agentId } });
  });

  it('scopes places: admin all, the agent and the user their own; codes checked', async () => {
    // The demo seeds places for a few tenants (fUserType 2): three more than those.
    const [{ n: demo }] = await s.sql(`select count(*)::int as n from t_sys_user_home h join t_sys_user u on u.f_id = h.f_user_id where u.f_user_type = 2`);
    expect((await homes()).total).toBe(demo + 3);
    expect((await homes(agent)).records.map((p: any) => p.fId)).toEqual([id.place]);
    expect((await homes(user)).records.map((p: any) => p.fId)).toEqual([id.userPlace]);
    expect((await homes(admin, { name: '阳光' })).records.map((p: any) => p.fName)).toEqual(['阳光公寓A座']);
    expect((await homes()).size).toBe(10);
    const foreign = await s.call(`${HOME}/addorupdate`, { fId: id.adminPlace, fName: 'x' }, agent);
    expect(foreign.body.success).toBe(false);
    expect((await s.call(`${HOME}/del`, { fId: id.adminPlace }, agent)).body.success).toBe(false);
    expect((await s.call(`${ROOM}/addorupdate`, { isAdd: true, fName: 'x', fHomeId: id.adminPlace }, agent)).body.message).toBe('所属场所不存在或无权操作');

    // A token without the codes: a fresh role-less account.
    await s.sql(`insert into t_sys_user (f_chinese_name, f_phone, f_password, f_admin, f_user_type, f_status) select '无权限', '13900000009', f_password, 0, 1, 1 from t_sys_user where f_phone = '13800000002'`);
    const none = await s.login({ phone: '13900000009', password: USER.password });
    for (const path of [`${HOME}/homes`, `${HOME}/addorupdate`, `${HOME}/del`, `${ROOM}/rooms`, `${ROOM}/addorupdate`, `${ROOM}/del`, `${ROOM}/userrooms`, `${LINK}/selected-devices`, `${LINK}/unselected-devices`, `${LINK}/bindDevices`, `${LINK}/unbindRoomDevices`, `${LINK}/pageList`]) {
      const r = await s.call(path, { fName: 'x', fId: id.place }, none);
      expect(r.status, path).toBe(401);
      expect(r.body).toMatchObject({ code: 401, message: '没有操作权限' });
    }
  });

  it('saves rooms with their messages, type and search', async () => {
    const empty = await s.call(`${ROOM}/addorupdate`, { isAdd: true, fName: '', fHomeId: id.place }, agent);
    expect(empty.body).toMatchObject({ success: false, message: '房间名称不能为空' });
    const bedroom = (await s.sql(`select f_id from t_sys_dic where f_key = 'Room_Type' and f_content = '卧室'`))[0].fId;
    const r1 = await s.call(`${ROOM}/addorupdate`, { isAdd: true, fName: '101', fHomeId: id.place, fType: bedroom }, agent);
    expect(r1.body).toMatchObject({ success: true, message: '房间保存成功', data: { fName: '101', fHomeId: id.place, fUserId: agentId, deviceCount: 0 } });
    expect(r1.body.data.type.fContent).toBe('卧室');
    id.room1 = r1.body.data.fId;
    id.room2 = (await s.call(`${ROOM}/addorupdate`, { isAdd: true, fName: '102', fHomeId: id.place }, agent)).body.data.fId;
    expect((await s.call(`${ROOM}/addorupdate`, { isAdd: true, fName: 'x', fHomeId: id.place, fType: 999999 }, agent)).body.message).toBe('房间类型不正确');
    const renamed = await s.call(`${ROOM}/addorupdate`, { isAdd: false, fId: id.room2, fName: '102室', fHomeId: id.place }, agent);
    expect(renamed.body).toMatchObject({ success: true, message: '房间保存成功', data: { fName: '102室' } });
    expect((await rooms({ fHomeId: id.place }, agent)).total).toBe(2);
    expect((await rooms({ fHomeId: id.place, fName: '102' }, agent)).records.map((r: any) => r.fId)).toEqual([id.room2]);
    expect((await rooms({ fHomeId: id.place, fType: bedroom }, agent)).records.map((r: any) => r.fId)).toEqual([id.room1]);
    expect((await rooms({}, user)).total).toBe(0);
    expect((await homes(agent)).records[0].roomCount).toBe(2);
    const mine = await s.call(`${ROOM}/userrooms`, { fUserId: agentId }, admin);
    expect(mine.body.data.map((r: any) => [r.fName, r.homeName])).toEqual([['101', '阳光公寓A座'], ['102室', '阳光公寓A座']]);
  });

  it('binds and unbinds devices the caller sees, with counts and the pickers', async () => {
    const none = await s.call(`${LINK}/bindDevices`, [], agent);
    expect(none.body).toMatchObject({ success: false, message: '请选择需要绑定的设备' });
    const unselected = async (roomId: number, keyword = '', token = agent) => (await s.call(`${LINK}/unselected-devices`, { current: 1, size: 10, condition: { keyword, fHomeId: id.place, fRoomId: roomId } }, token)).body.data;
    const before = await unselected(id.room1);
    expect(before).toMatchObject({ total: agentDevices.length, size: 10 });
    // Only devices the agent sees are offered, and only those can be bound.
    const all = await s.call(`${LINK}/unselected-devices`, { current: 1, size: 100, condition: { fRoomId: id.room1 } }, agent);
    expect(all.body.data.records.every((d: any) => agentDevices.includes(d.fId))).toBe(true);
    const foreign = await s.call(`${LINK}/bindDevices`, [{ fId: otherDevice, fHomeId: id.place, fRoomId: id.room1 }], agent);
    expect(foreign.body).toMatchObject({ success: false, message: '设备不存在或无权操作' });

    const [a, b, c] = agentDevices;
    const bind = await s.call(`${LINK}/bindDevices`, [a, b, c].map((d) => ({ fId: d, fHomeId: id.place, fRoomId: id.room1 })), agent);
    expect(bind.body).toMatchObject({ success: true, message: '设备绑定完成', data: { added: 3 } });
    expect((await unselected(id.room2)).total).toBe(agentDevices.length - 3);
    const number = (await s.sql(`select f_number from t_device where f_id = ${a}`))[0].fNumber;
    expect((await unselected(id.room1, number)).total).toBe(0);

    const selected = await s.call(`${LINK}/selected-devices`, { current: 1, size: 10, condition: { fHomeId: id.place, fRoomId: id.room1 } }, agent);
    expect(selected.body.data.total).toBe(3);
    expect(selected.body.data.records[0]).toMatchObject({ fHomeId: id.place, fRoomId: id.room1 });
    expect(selected.body.data.records[0].device.tProduct.fName).toBeTruthy();
    const byKeyword = await s.call(`${LINK}/selected-devices`, { current: 1, size: 10, condition: { keyword: number, fRoomId: id.room1 } }, agent);
    expect(byKeyword.body.data.records.map((r: any) => r.fDeviceId)).toEqual([a]);

    // Binding to another room of the place moves the device.
    const move = await s.call(`${LINK}/bindDevices`, [{ fId: c, fHomeId: id.place, fRoomId: id.room2 }], agent);
    expect(move.body.data).toMatchObject({ added: 0, moved: 1 });
    expect((await rooms({ fHomeId: id.place }, agent)).records.map((r: any) => r.deviceCount)).toEqual([2, 1]);
    expect((await homes(agent)).records[0]).toMatchObject({ roomCount: 2, deviceCount: 3 });

    const list = await s.call(`${LINK}/pageList`, { current: 1, size: 10, condition: { roomId: id.room1 } }, agent);
    expect(list.body.data.total).toBe(2);
    expect((await s.call(`${LINK}/pageList`, { current: 1, size: 10, condition: { userId: agentId } }, admin)).body.data.total).toBe(3);
    expect((await s.call(`${LINK}/pageList`, { current: 1, size: 10, condition: { deviceId: c } }, agent)).body.data.records[0].fRoomId).toBe(id.room2);
    expect((await s.call(`${LINK}/pageList`, { current: 1, size: 10, condition: {} }, user)).body.data.total).toBe(0);

    const noneUnbind = await s.call(`${LINK}/unbindRoomDevices`, [], agent);
    expect(noneUnbind.body).toMatchObject({ success: false, message: '请选择需要解绑的设备' });
    const link = selected.body.data.records.find((r: any) => r.fDeviceId === b);
    const unbind = await s.call(`${LINK}/unbindRoomDevices`, [{ ...link, fRoomId: null }], agent);
    expect(unbind.body).toMatchObject({ success: true, message: '设备解绑绑完成', data: { removed: 1 } });
    expect((await homes(agent)).records[0].deviceCount).toBe(2);
    // Someone else's binding is not theirs to remove.
    const userLink = await s.call(`${LINK}/unbindRoomDevices`, [{ ...link, fRoomId: null }], user);
    expect(userLink.body.success).toBe(false);
  });

  it('refuses to delete a room with devices or a place with rooms', async () => {
    const busy = await s.call(`${ROOM}/del`, { fId: id.room1 }, agent);
    expect(busy.body).toMatchObject({ success: false, message: '房间删除失败：请先解绑房间下的设备' });
    const full = await s.call(`${HOME}/del`, { fId: id.place }, agent);
    expect(full.body).toMatchObject({ success: false, message: '场所删除失败：请先删除场所下的房间' });

    const links = (await s.call(`${LINK}/pageList`, { current: 1, size: 10, condition: {} }, agent)).body.data.records;
    await s.call(`${LINK}/unbindRoomDevices`, links.map((l: any) => ({ ...l, fRoomId: null })), agent);
    for (const r of [id.room1, id.room2]) expect((await s.call(`${ROOM}/del`, { fId: r }, agent)).body).toMatchObject({ success: true, message: '房间删除成功' });
    expect((await s.call(`${HOME}/del`, { fId: id.place }, agent)).body).toMatchObject({ success: true, message: '场所删除成功' });
    expect((await homes(agent)).total).toBe(0);
  });
});

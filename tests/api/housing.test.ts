import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer } from './harness';

const USERS = '/system/t-sys-user';
const HOUSE = '/biz/t-house-info';
const ROOM = '/biz/t-rental-room';

describe.each(backends)('address lookups, rental houses and tenants on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let user: string;
  const id: Record<string, number> = {};
  const data = async (path: string, body: object, token = admin) => {
    const r = await s.call(path, body, token);
    expect(r.status, path).toBe(200);
    expect(r.body.success, `${path}: ${r.body.message}`).toBe(true);
    return r.body.data;
  };
  const rows = (d: any) => (Array.isArray(d) ? d : d.records);

  beforeAll(async () => {
    s = await startServer(backend);
    [admin, agent, user] = [await s.login(ADMIN), await s.login(AGENT), await s.login(USER)];
    const [b] = await s.sql(`select b.id, b.f_communityid, c.f_street from t_build_info b join t_community c on c.id = b.f_communityid order by b.id limit 1`);
    Object.assign(id, { building: b.id, community: b.fCommunityid, street: b.fStreet });
    id.house = (await s.sql(`select f_house_id from t_house_info where f_build_id = ${b.id} order by f_house_id limit 1`))[0].fHouseId;
  }, 120_000);
  afterAll(() => s?.close());

  it('answers every lookup of the cascading picker with its condition, to agents too; houses and people only within a jurisdiction', async () => {
    for (const token of [admin, agent]) {
      const provinces = await data('/system/t-area-info/childrenlist', { fAreaId: 0 }, token);
      expect(provinces.map((a: any) => a.fAreaId)).toContain(440000);
      const districts = await data('/system/t-area-info/childrenlist', { fAreaId: 440100 }, token);
      expect(districts.every((a: any) => a.fHighAreaId === 440100)).toBe(true);
      expect(districts.map((a: any) => a.fAreaName)).toContain('天河区');
    }
    const streets = rows(await data('/system/t-street-info/list', { fAreaId: 440106 }, agent));
    expect(streets.length).toBe(3);
    expect(streets.every((x: any) => x.fAreaId === 440106)).toBe(true);
    expect(rows(await data('/system/t-street-info/list', { current: 1, size: 100, condition: { fAreaId: 440104 } }))).toHaveLength(2);
    expect(await data('/system/t-street-info/allStreeList', { fAreaId: 440104 })).toHaveLength(2);
    expect(await data('/system/t-street-info/allStreeList', {})).toHaveLength(5);
    const communities = rows(await data('/system/t-community/list', { fStreet: id.street }, agent));
    expect(communities).toHaveLength(2);
    expect(communities.every((c: any) => c.fStreet === id.street)).toBe(true);
    for (const path of ['/biz/t-build-info/list', '/system/t-build-info/list']) {
      const b = rows(await data(path, { fCommunityid: id.community }, agent));
      expect(b).toHaveLength(2);
      expect(b.every((x: any) => x.fCommunityid === id.community)).toBe(true);
    }
    for (const path of [`${HOUSE}/list`, '/system/t-house-info/list']) {
      const h = rows(await data(path, { fBuildId: id.building }));
      expect(h).toHaveLength(2);
      expect(h.every((x: any) => x.fBuildId === id.building && x.roomCount > 0)).toBe(true);
      // The agent has no jurisdiction: its houses are none (scopes fail closed).
      expect(rows(await data(path, { fBuildId: id.building }, agent))).toHaveLength(0);
    }
    for (const path of ['/biz/t-person-info/list', '/system/t-person-info/list']) {
      const p = rows(await data(path, { fHouseId: id.house }));
      expect(p.length).toBeGreaterThan(0);
      expect(p.every((x: any) => x.fHouseId === id.house)).toBe(true);
      // ID numbers and phones leave the server masked: no code shows a person's in full.
      expect(p.every((x: any) => !x.fIdcard || /^\d{6}\*{8}[\dX]{4}$/.test(x.fIdcard))).toBe(true);
      expect(p.every((x: any) => !x.fPhonenum || /^\d{3}\*{4}\d{4}$/.test(x.fPhonenum))).toBe(true);
      expect(rows(await data(path, { fHouseId: id.house }, agent))).toHaveLength(0);
    }
    const schools = await data('/system/t-school/schoolall', { areaid: 440106 }, agent);
    expect(schools).toHaveLength(2);
    expect(await data('/system/t-school/schoolall', { areaid: 440104 })).toHaveLength(1);
    const stations = rows(await data('/system/t-police-sta-info/list', { fAreaId: 440104 }, agent));
    expect(stations).toHaveLength(2);
    expect(stations.every((x: any) => x.fAreaId === 440104)).toBe(true);
    // An ordinary user holds no address:list.
    expect((await s.call('/system/t-community/list', { fStreet: id.street }, user)).status).toBe(401);
  });

  it('keeps rental houses with their messages, derives the address from the building', async () => {
    const msg = async (b: object) => (await s.call(`${HOUSE}/addOrUpdateHouse`, b, admin)).body.message;
    const good = { fHouseName: '测试出租屋', fAddress: '测试路1号', fBuildId: id.building, fLandlordName: '王房东', fLandlordPhone: '13912345678' };
    expect(await msg({ ...good, fHouseName: '' })).toBe('房屋名称不能为空');
    expect(await msg({ ...good, fAddress: '' })).toBe('出租屋地址不能为空');
    expect(await msg({ ...good, fBuildId: undefined })).toBe('所属楼栋不能为空');
    expect(await msg({ ...good, fBuildId: 999999 })).toBe('所属楼栋不存在');
    expect(await msg({ ...good, fLandlordPhone: '12345' })).toBe('房东电话格式不正确');
    const made = await s.call(`${HOUSE}/addOrUpdateHouse`, good, admin);
    expect(made.body).toMatchObject({ success: true, message: '出租屋保存成功' });
    expect(made.body.data).toMatchObject({ fCommunityId: id.community, fStreetId: id.street, fRental: 1, roomCount: 0 });
    id.mine = made.body.data.fHouseId;
    const listed = rows(await data(`${HOUSE}/list`, { current: 1, size: 10, condition: { fCommunityId: id.community, fRental: 1, keyword: '测试出租屋' } }));
    expect(listed.map((h: any) => h.fHouseId)).toEqual([id.mine]);
    const edited = await s.call(`${HOUSE}/addOrUpdateHouse`, { ...good, fId: id.mine, fHouseId: id.mine, fHouseName: '测试出租屋二' }, admin);
    expect(edited.body).toMatchObject({ success: true, data: { fHouseName: '测试出租屋二' } });
    // Permissions: agents look up, but do not keep houses.
    expect((await s.call(`${HOUSE}/addOrUpdateHouse`, good, agent)).status).toBe(401);
    expect((await s.call(`${HOUSE}/removeHouse`, { fId: id.mine }, agent)).status).toBe(401);
  });

  it('keeps the rooms of a rental house: messages, status from leases, tenants', async () => {
    const msg = async (b: object) => (await s.call(`${ROOM}/addOrUpdateRoom`, b, admin)).body.message;
    expect(await msg({ fHouseId: id.mine, fRoom: '' })).toBe('房间号不能为空');
    expect(await msg({ fRoom: '101' })).toBe('出租屋不能为空');
    expect(await msg({ fHouseId: 999999, fRoom: '101' })).toBe('出租屋不存在');
    expect(await msg({ fHouseId: id.mine, fRoom: '101', fCapacity: 0 })).toBe('核定人数必须在1到20之间');
    expect(await msg({ fHouseId: id.mine, fRoom: '101', fCapacity: 21 })).toBe('核定人数必须在1到20之间');
    const made = await s.call(`${ROOM}/addOrUpdateRoom`, { fHouseId: id.mine, fRoom: '101', fCapacity: 2 }, admin);
    expect(made.body).toMatchObject({ success: true, message: '房间保存成功', data: { fRoom: '101', fStatus: 1, tenants: '' } });
    id.room = made.body.data.fId;
    expect(await msg({ fHouseId: id.mine, fRoom: '101' })).toBe('该出租屋已有此房间号');
    expect((await s.call(`${ROOM}/addOrUpdateRoom`, { fHouseId: id.mine, fRoom: '102' }, agent)).status).toBe(401);
    expect((await s.call(`${HOUSE}/removeHouse`, { fId: id.mine }, admin)).body.message).toBe('出租屋删除失败：请先删除出租屋下的房间');

    const [tenant] = await s.sql(`select f_id, f_chinese_name, f_phone from t_sys_user where f_user_type = 2 order by f_id desc limit 1`);
    await s.sql(`insert into t_tenant_house (f_user_id, f_house_id, f_room_id, f_short_term, f_start_time, f_end_time, f_status) values (${tenant.fId}, ${id.mine}, ${id.room}, 0, now(), now() + interval '30 days', 2)`);
    const [room] = rows(await data(`${ROOM}/list`, { current: 1, size: 10, condition: { fHouseId: id.mine } }));
    expect(room).toMatchObject({ fStatus: 2, tenants: `${tenant.fChineseName} (${tenant.fPhone.slice(0, 3)}****${tenant.fPhone.slice(7)})` });
    expect((await s.call(`${ROOM}/removeRoom`, { fId: id.room }, admin)).body.message).toBe('房间删除失败：房间仍有在租租客');
    await s.sql(`update t_tenant_house set f_status = 3 where f_room_id = ${id.room}`);
    expect(rows(await data(`${ROOM}/list`, { condition: { fHouseId: id.mine } }))[0].fStatus).toBe(3);
    expect((await s.call(`${ROOM}/removeRoom`, { fId: id.room }, admin)).body).toMatchObject({ success: true, message: '房间删除成功' });
    expect((await s.call(`${HOUSE}/removeHouse`, { fId: id.mine }, admin)).body).toMatchObject({ success: true, message: '出租屋删除成功' });
  });

  it('lists tenants by keyword and status with the tenant row, and changes their status', async () => {
    const page = await data(`${USERS}/pageList`, { current: 1, pageSize: 10, condition: { userType: 2 } });
    expect(page.total).toBeGreaterThan(1000);
    expect(page.records).toHaveLength(10);
    const first = page.records[0];
    expect(first).toMatchObject({ fUserType: 2 });
    expect(first).not.toHaveProperty('fPassword');
    expect(first.fIdcard).toMatch(/^\d{6}\*{8}[\dX]{4}$/);
    for (const k of ['fGender', 'fWorkUnit', 'fEmail', 'lease', 'fLastloginDate', 'fCreateTime']) expect(first).toHaveProperty(k);
    const leased = (await data(`${USERS}/pageList`, { current: 1, pageSize: 50, condition: { userType: 2 } })).records.find((r: any) => r.lease);
    expect(leased.lease).toMatchObject({ fHouseName: expect.any(String), fRoom: expect.any(String) });

    const byPhone = await data(`${USERS}/pageList`, { current: 1, pageSize: 10, condition: { userType: 2, keyword: first.fPhone } });
    expect(byPhone.records.map((r: any) => r.fId)).toEqual([first.fId]);
    const byName = await data(`${USERS}/pageList`, { current: 1, pageSize: 100, condition: { userType: 2, keyword: first.fChineseName } });
    expect(byName.records.every((r: any) => r.fChineseName.includes(first.fChineseName))).toBe(true);
    const disabled = await data(`${USERS}/pageList`, { current: 1, pageSize: 100, condition: { userType: 2, status: 0 } });
    expect(disabled.total).toBeGreaterThan(0);
    expect(disabled.records.every((r: any) => r.fStatus === 0 && r.fUserType === 2)).toBe(true);
    // The system-user list never shows tenants.
    const system = await data(`${USERS}/pageList`, { current: 1, pageSize: 100, condition: {} });
    expect(system.records.every((r: any) => r.fUserType === 1)).toBe(true);
    expect(system.total).toBeLessThan(100);

    const off = await s.call(`${USERS}/statusUser`, { ...first, fStatus: 0 }, admin);
    expect(off.body).toMatchObject({ success: true, message: '用户状态修改成功' });
    expect((await s.sql(`select f_status from t_sys_user where f_id = ${first.fId}`))[0].fStatus).toBe(0);
    expect((await s.call(`${USERS}/statusUser`, { fId: first.fId, fUserType: 2, fStatus: 1 }, admin)).body.success).toBe(true);
    expect((await s.call(`${USERS}/statusUser`, { fId: first.fId, fUserType: 2, fStatus: 5 }, admin)).body.message).toBe('状态不能为空');
  });

  it('splits the user calls by user type: user:list for system users, tenant:list for tenants', async () => {
    const tenants = { current: 1, pageSize: 10, condition: { userType: 2 } };
    const system = { current: 1, pageSize: 10, condition: { userType: 1 } };
    // Neither code yet.
    expect((await s.call(`${USERS}/pageList`, tenants, user)).status).toBe(401);
    await s.grant('user', ['tenant:list', 'tenant:status']);
    await s.grant('agent', ['user:list']);
    expect((await s.call(`${USERS}/pageList`, tenants, user)).body.success).toBe(true);
    expect((await s.call(`${USERS}/pageList`, system, user)).status).toBe(401);
    expect((await s.call(`${USERS}/pageList`, { current: 1 }, user)).status).toBe(401);
    expect((await s.call(`${USERS}/pageList`, system, agent)).body.success).toBe(true);
    expect((await s.call(`${USERS}/pageList`, tenants, agent)).status).toBe(401);

    // A renting tenant, and the street of the house rented: the user's jurisdiction from now on.
    const [tenant] = await s.sql(`select u.f_id, h.f_street_id from t_sys_user u join t_tenant_house l on l.f_user_id = u.f_id and l.f_status = 2 join t_house_info h on h.f_house_id = l.f_house_id where u.f_user_type = 2 order by u.f_id limit 1`);
    const [sys] = await s.sql(`select f_id from t_sys_user where f_phone = '13800000001'`);
    const [me] = await s.sql(`select f_id from t_sys_user where f_phone = '13800000002'`);
    // Without a jurisdiction the tenant is nobody this user may see or change.
    expect((await s.call(`${USERS}/pageList`, tenants, user)).body.data.total).toBe(0);
    expect((await s.call(`${USERS}/statusUser`, { fId: tenant.fId, fStatus: 0 }, user)).body.success).toBe(false);
    await s.sql(`update t_sys_user set streets = '${tenant.fStreetId}' where f_id = ${me.fId}`);
    await expect.poll(async () => (await s.call(`${USERS}/pageList`, tenants, user)).body.data.total).toBeGreaterThan(0);
    expect((await s.call(`${USERS}/statusUser`, { fId: tenant.fId, fUserType: 2, fStatus: 0 }, user)).body.success).toBe(true);
    expect((await s.call(`${USERS}/statusUser`, { fId: tenant.fId, fStatus: 1 }, user)).body.success).toBe(true);
    // tenant:status does not reach a system user, whatever the body claims: the stored row decides.
    expect((await s.call(`${USERS}/statusUser`, { fId: sys.fId, fStatus: 0 }, user)).status).toBe(401);
    expect((await s.call(`${USERS}/statusUser`, { fId: sys.fId, fUserType: 2, fStatus: 0 }, user)).status).toBe(401);
    expect((await s.call(`${USERS}/statusUser`, { fId: sys.fId, fStatus: 0, condition: { userType: 2 } }, user)).status).toBe(401);
    expect((await s.sql(`select f_status from t_sys_user where f_id = ${sys.fId}`))[0].fStatus).toBe(1);
    // The deciding value of the list claimed twice, at the top level or under its other name: refused.
    expect((await s.call(`${USERS}/pageList`, { current: 1, size: 10, userType: 2, condition: {} }, user)).status).toBe(401);
    expect((await s.call(`${USERS}/pageList`, { current: 1, size: 10, userType: 2, condition: { userType: 2 } }, user)).status).toBe(401);
    expect((await s.call(`${USERS}/pageList`, { current: 1, size: 10, condition: { fUserType: 2 } }, user)).status).toBe(401);
    // The profile's and the user page's keys together, or the user page's moved into the condition: refused.
    expect((await s.call(`${USERS}/getUserData`, { condition: { userId: sys.fId } }, admin)).status).toBe(401);
    expect((await s.call(`${USERS}/getUserData`, { fId: sys.fId, userId: sys.fId }, admin)).status).toBe(401);
    await s.sql(`update t_sys_user set streets = null where f_id = ${me.fId}`);
  });

  it('answers a tenant assets: rooms and the devices in them', async () => {
    const [t] = await s.sql(`select h.f_user_id from t_sys_user_home h join t_sys_user u on u.f_id = h.f_user_id where u.f_user_type = 2 order by h.f_id limit 1`);
    expect(t, 'the demo gives some tenants places').toBeTruthy();
    const rooms = await data('/biz/t-sys-user-room/userrooms', { fUserId: t.fUserId });
    expect(rooms.length).toBeGreaterThan(0);
    expect(rooms[0]).toHaveProperty('homeName');
    const devices = await data('/biz/t-sys-user-room-device/pageList', { current: 1, size: 10, condition: { userId: t.fUserId } });
    expect(devices.total).toBeGreaterThan(0);
    const d = devices.records[0];
    expect(d.device).toMatchObject({ fName: expect.any(String), fNumber: expect.any(String) });
    expect(d.device.tProduct ?? d.device.product).toBeTruthy();
    const inRoom = await data('/biz/t-sys-user-room-device/pageList', { current: 1, size: 10, condition: { userId: t.fUserId, roomId: d.fRoomId } });
    expect(inRoom.records.every((r: any) => r.fRoomId === d.fRoomId)).toBe(true);
    const byName = await data('/biz/t-sys-user-room-device/pageList', { current: 1, size: 10, condition: { userId: t.fUserId, deviceName: d.device.fName } });
    expect(byName.records.some((r: any) => r.fDeviceId === d.fDeviceId)).toBe(true);
    const byId = await data('/biz/t-sys-user-room-device/pageList', { current: 1, size: 10, condition: { userId: t.fUserId, deviceId: d.fDeviceId } });
    expect(byId.records.map((r: any) => r.fDeviceId)).toEqual([d.fDeviceId]);
  });
});

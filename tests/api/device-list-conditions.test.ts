/**
 * The device list's conditions the legacy console sends beside its filters (spec 000 §7): `isList` (0: a
 * picker's light rows), `isRefresh` (the automatic refresh asks the page's online devices for fresh
 * values) and `area` (the devices installed in places of an area or the areas under it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, backends, startServer, until, type TestServer } from './harness';

const LIST = '/biz/t-device/devices';

describe.each(backends)('the device list on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  beforeAll(async () => {
    s = await startServer(backend);
    [admin, agent] = [await s.login(ADMIN), await s.login(AGENT)];
  });
  afterAll(() => s?.close());

  it('answers a picker only the fields it shows with isList 0, and the full rows with isList 1 or without it', async () => {
    const body = { current: 1, size: 5, orders: [{ column: 'fId', asc: true }] };
    const full = await s.call(LIST, body, admin);
    const listed = await s.call(LIST, { ...body, condition: { isList: 1 } }, admin);
    const picker = await s.call(LIST, { ...body, condition: { isList: 0 } }, admin);
    expect(full.body.data.records[0].tProduct.fName).toBeTruthy();
    expect(listed.body.data).toEqual(full.body.data);
    expect(picker.body.data.total).toBe(full.body.data.total);
    for (const [i, row] of picker.body.data.records.entries()) {
      expect(Object.keys(row).sort()).toEqual(['fId', 'fName', 'fNumber', 'fProductId', 'fStatus', 'fTypeId', 'tOnline']);
      expect(row.fNumber).toBe(full.body.data.records[i].fNumber);
    }
    // The legacy console sends it as a string too.
    expect(Object.keys((await s.call(LIST, { ...body, condition: { isList: '0' } }, admin)).body.data.records[0])).not.toContain('tProduct');
  });

  it('asks the online devices of the answered page for fresh values with isRefresh, and none without it', async () => {
    const page = await s.call(LIST, { current: 1, size: 4, orders: [{ column: 'fId', asc: true }] }, admin);
    const ids: number[] = page.body.data.records.map((r: { fId: number }) => r.fId);
    await s.sql(`update t_device set t_online = case when f_id in (${ids[0]}, ${ids[2]}) then 1 else 0 end where f_id in (${ids.join(',')})`);
    const asked = () => s.sql<{ fDeviceId: number }>(`select f_device_id from t_device_command where f_source = 'refresh' and f_device_id in (${ids.join(',')}) order by f_device_id`);
    await s.call(LIST, { current: 1, size: 4, orders: [{ column: 'fId', asc: true }], condition: { isRefresh: 0 } }, admin);
    await s.call(LIST, { current: 1, size: 4, orders: [{ column: 'fId', asc: true }] }, admin);
    expect(await asked()).toEqual([]);
    const refreshed = await s.call(LIST, { current: 1, size: 4, orders: [{ column: 'fId', asc: true }], condition: { isRefresh: 1 } }, admin);
    expect(refreshed.body.data.records.map((r: { fId: number }) => r.fId)).toEqual(ids);
    const rows = await until(async () => ((await asked()).length === 2 ? asked() : undefined));
    expect(rows.map((r) => r.fDeviceId)).toEqual([ids[0], ids[2]]);
  });

  it('lists the devices installed in places of an area or of the areas under it', async () => {
    const [{ fId: parent }] = await s.sql(`insert into t_area_info (f_area_id, f_area_name, f_high_area_id) values (990100, '测试市', 0) returning f_id`);
    expect(parent).toBeTruthy();
    await s.sql(`insert into t_area_info (f_area_id, f_area_name, f_high_area_id) values (990101, '测试区', 990100), (990200, '别的市', 0)`);
    const devices = await s.sql<{ fId: number }>(`select f_id from t_device order by f_id limit 3`);
    const [{ fId: inDistrict }] = await s.sql(`insert into t_sys_user_home (f_name, f_city_code, f_city_name) values ('区里的场所', '990101', '测试区') returning f_id`);
    const [{ fId: inCity }] = await s.sql(`insert into t_sys_user_home (f_name, f_city_code, f_city_name) values ('市里的场所', '990100', '测试市') returning f_id`);
    await s.sql(`insert into t_sys_user_room_device (f_home_id, f_device_id) values (${inDistrict}, ${devices[0].fId}), (${inCity}, ${devices[1].fId})`);
    const inArea = async (area: unknown, token = admin) => {
      const answer = await s.call(LIST, { current: 1, size: 50, condition: { area } }, token);
      return answer.body.data?.records?.map((r: { fId: number }) => r.fId).sort((a: number, b: number) => a - b);
    };
    expect(await inArea(990100)).toEqual([devices[0].fId, devices[1].fId]);
    expect(await inArea('990101')).toEqual([devices[0].fId]);
    expect(await inArea(990200)).toEqual([]);
    // The area narrows what the caller sees, never widens it: the agent sees only its own devices there.
    await s.sql(`update t_device set f_user_id = case when f_id = ${devices[1].fId} then (select f_id from t_sys_user where f_phone = '${AGENT.phone}') else null end where f_id in (${devices[0].fId}, ${devices[1].fId})`);
    expect(await inArea(990100, agent)).toEqual([devices[1].fId]);
    const bad = await s.call(LIST, { current: 1, size: 5, condition: { area: 'north' } }, admin);
    expect(bad.body.success).toBe(false);
    expect(bad.body.message).toBe('地区编号只能为数字');
  });
});

/**
 * The generated foreign keys and CHECKs on a live server: a write the database refuses by one is answered
 * as a refusal with the reason (never a 500), a delete the specs refuse in their own words still gets
 * those words, and a delete the specs cascade takes the dependent rows with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, backends, startServer, type TestServer } from './harness';
import { refusalFor } from '../../server/db/errors';

describe.each(backends)('constraints on %s', (backend) => {
  let s: TestServer;
  let admin: string;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login(ADMIN);
  }, 120_000);
  afterAll(() => s?.close());

  it('a device of a product that does not exist gets the spec words first; a missing row the database finds is a refusal too', async () => {
    const r = await s.call('/biz/t-device/addorupdate', { fNumber: 'FK-ORPHAN-1', fProductId: 987654 }, admin);
    expect(r.body).toMatchObject({ code: 400, success: false, message: '所属产品不存在' });
    const error = await s.sql(`insert into t_device (f_number, f_product_id) values ('FK-ORPHAN-2', 987654)`).catch((e) => e);
    expect(error.code).toBe('23503');
    expect(refusalFor(error)).toMatchObject({ code: 400, message: '关联的数据不存在（t_device_f_product_id_fkey）' });
    expect(await s.sql(`select f_id from t_device where f_number like 'FK-ORPHAN-%'`)).toEqual([]);
  });

  it('saving a row written before its CHECK, still breaking it, is answered as a refusal, not a 500', async () => {
    const [device] = await s.sql(`select f_id, f_name from t_device order by f_id limit 1`);
    // As a migration leaves an old row: the CHECK added NOT VALID over a value it does not allow.
    await s.sql(`alter table t_device drop constraint t_device_f_verify_check`);
    await s.sql(`update t_device set f_verify = 5 where f_id = ${device.fId}`);
    await s.sql(`alter table t_device add constraint t_device_f_verify_check check (f_verify = ANY (ARRAY[0, 1])) not valid`);
    const r = await s.call('/biz/t-device/addorupdate', { fId: device.fId, fName: 'renamed' }, admin);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 400, success: false, message: '数据不符合取值要求（t_device_f_verify_check）' });
    expect(await s.sql(`select f_name from t_device where f_id = ${device.fId}`)).toEqual([{ fName: device.fName }]);
    await s.sql(`update t_device set f_verify = 0 where f_id = ${device.fId}`);
    await s.sql(`alter table t_device validate constraint t_device_f_verify_check`);
  });

  it('a product with devices keeps the spec message; the constraint refuses a delete that skips the check', async () => {
    const [product] = await s.sql(`select p.f_id from t_product p where exists (select 1 from t_device d where d.f_product_id = p.f_id) order by p.f_id limit 1`);
    expect((await s.call('/biz/t-product/del', { fId: product.fId }, admin)).body).toMatchObject({ success: false, message: '该产品下存在设备，无法删除' });
    const error = await s.sql(`delete from t_product where f_id = ${product.fId}`).catch((e) => e);
    expect(['23503', '23001']).toContain(error.code);
    expect(refusalFor(error)).toMatchObject({ code: 409, message: '该数据仍被其他数据引用，无法删除' });
  });

  it('a value outside the declared options is refused by the CHECK with a clear reason', async () => {
    const error = await s.sql(`update t_device set f_status = 7 where f_id = (select min(f_id) from t_device)`).catch((e) => e);
    expect(error.code).toBe('23514');
    expect(refusalFor(error)).toMatchObject({ code: 400, message: '数据不符合取值要求（t_device_f_status_check）' });
    expect(refusalFor(new Error('other'))).toBeNull();
  });

  it('deleting a device takes its group bindings and timers with it', async () => {
    const [product] = await s.sql(`select f_id from t_product limit 1`);
    const saved = await s.call('/biz/t-device/addorupdate', { fNumber: 'FK-CASCADE-1', fProductId: product.fId }, admin);
    expect(saved.body.success).toBe(true);
    const device = saved.body.data.fId;
    const [group] = await s.sql(`insert into t_group (f_name) values ('级联分组') returning f_id`);
    await s.sql(`insert into t_group_device (f_group_id, f_device_id) values (${group.fId}, ${device})`);
    await s.sql(`insert into t_device_timing (f_device_id, f_time) values (${device}, '08:00')`);
    expect((await s.call('/biz/t-device/del', { fId: device }, admin)).body.success).toBe(true);
    expect(await s.sql(`select f_id from t_group_device where f_device_id = ${device} union all select f_id from t_device_timing where f_device_id = ${device}`)).toEqual([]);
  });
});

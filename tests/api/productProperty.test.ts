import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, USER, backends, startServer, type TestServer } from './harness';

describe.each(backends)('product properties on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let productId: number;
  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login(ADMIN);
    [{ fId: productId }] = await s.sql(`select f_id from t_product where f_number = 'P-RG-MCCB'`);
  });
  afterAll(() => s?.close());

  const list = async (token = admin) => (await s.call('/biz/t-product-property/propertys', { fProductId: productId }, token)).body;

  it('saves a product’s properties as one list and lists them back in order', async () => {
    expect((await list()).data.records).toEqual([]);
    const saved = await s.call('/biz/t-product-property/addorupdate', [
      { fProductId: productId, fName: '品牌', fValue: '正泰' },
      { fProductId: productId, fName: '额定电压', fValue: '220V' },
    ], admin);
    expect(saved.body).toMatchObject({ success: true, message: '产品属性保存成功' });
    expect((await list()).data.records.map((r: any) => [r.fName, r.fValue])).toEqual([['品牌', '正泰'], ['额定电压', '220V']]);
    // Another product's list is untouched by this one's.
    const [{ fId: other }] = await s.sql(`select f_id from t_product where f_number = 'P-SW-485'`);
    expect((await s.call('/biz/t-product-property/propertys', { fProductId: other }, admin)).body.data.total).toBe(0);
  });

  it('replaces the whole list: a row left out is removed, an empty list clears', async () => {
    await s.call('/biz/t-product-property/addorupdate', [{ fProductId: productId, fName: '型号', fValue: 'NM1-125' }], admin);
    expect((await list()).data.records.map((r: any) => r.fName)).toEqual(['型号']);
    const cleared = await s.call('/biz/t-product-property/addorupdate', { fProductId: productId, list: [] }, admin);
    expect(cleared.body.success).toBe(true);
    expect((await list()).data.total).toBe(0);
  });

  it('refuses bad rows with clear messages and keeps what was stored', async () => {
    await s.call('/biz/t-product-property/addorupdate', [{ fProductId: productId, fName: '品牌', fValue: '正泰' }], admin);
    const cases: [unknown, string][] = [
      [[{ fProductId: productId, fName: '', fValue: 'x' }], '属性名称不能为空'],
      [[{ fProductId: productId, fName: '型号', fValue: '' }], '属性值不能为空'],
      [[{ fProductId: productId, fName: 'x'.repeat(51), fValue: 'x' }], '属性名称最多50个字符'],
      [[{ fProductId: productId, fName: '型号', fValue: 'a' }, { fProductId: productId, fName: '型号', fValue: 'b' }], '属性名称重复：型号'],
      [[{ fProductId: 999999, fName: '型号', fValue: 'a' }], '产品不存在'],
      [[{ fName: '型号', fValue: 'a' }], '所属产品不能为空'],
      [{ fProductId: productId, list: 'x' }, '产品属性格式不正确'],
    ];
    for (const [body, message] of cases) {
      const { body: answer } = await s.call('/biz/t-product-property/addorupdate', body, admin);
      expect(answer, message).toMatchObject({ success: false, message });
    }
    expect((await list()).data.records.map((r: any) => r.fValue)).toEqual(['正泰']);
  });

  it('needs product:edit to save (enforced by the server) and logs the save by name', async () => {
    const user = await s.login(USER);
    const refused = await s.call('/biz/t-product-property/addorupdate', [{ fProductId: productId, fName: '型号', fValue: 'x' }], user);
    expect(refused.status).toBe(401);
    expect((await list()).data.records.map((r: any) => r.fName)).toEqual(['品牌']);
    const [log] = await s.sql(`select logname from t_sys_log where logname = 'productProperty.saveAll' limit 1`);
    expect(log).toBeDefined();
  });
});

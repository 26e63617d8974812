/**
 * Product functions, the description library tree, library fields with their child rows, and the
 * description import (spec 001 §2.10, §2.11, §3, §5, §8, §9).
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer } from './harness';

const FN = '/biz/t-product-function';
const JSON_ = '/biz/t-product-json';
const CONF = '/biz/t-product-json-conf';

async function workbook(rows: unknown[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('字段');
  sheet.addRow(['标识符', '功能点名称', '读取标识符', '数据类型', '值类型', '默认值', '下级描述库', '说明']);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await book.xlsx.writeBuffer());
}

describe.each(backends)('functions and description libraries on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let none: string;
  const id: Record<string, number> = {};
  const libs = async (condition: object = {}, token = admin) => (await s.call(`${JSON_}/pagelist`, { current: 1, size: 9999, condition }, token)).body.data;
  const confs = async (condition: object, size = 10, token = admin) => (await s.call(`${CONF}/pagelist`, { current: 1, size, condition }, token)).body.data;
  const upload = async (data: Buffer | Blob, name: string, libraryId: number, token = admin) => {
    const form = new FormData();
    form.append('file', data instanceof Blob ? data : new Blob([new Uint8Array(data)]), name);
    const res = await fetch(`${s.url}${CONF}/import?fProductJsonId=${libraryId}`, { method: 'POST', headers: { authorization: token }, body: form });
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    s = await startServer(backend);
    [admin, agent] = [await s.login(ADMIN), await s.login(AGENT)];
    await s.sql(`insert into t_sys_user (f_chinese_name, f_phone, f_password, f_admin, f_user_type, f_status) select '无权限', '13900000009', f_password, 0, 1, 1 from t_sys_user where f_phone = '13800000002'`);
    none = await s.login({ phone: '13900000009', password: USER.password });
  }, 300_000);
  afterAll(() => s?.close());

  it('lists the demo functions with their library names, searched by name', async () => {
    const all = (await s.call(`${FN}/functions`, { current: 1, size: 999, condition: {} }, admin)).body.data;
    expect(all.total).toBeGreaterThanOrEqual(5);
    const sw = all.records.find((f: any) => f.fName === '开关控制');
    expect(sw).toMatchObject({ fType: 9, productJsonName: '开关控制' });
    const found = (await s.call(`${FN}/functions`, { current: 1, size: 10, condition: { fName: '漏保' } }, admin)).body.data;
    expect(found.records.map((f: any) => f.fName)).toEqual(['漏保主动上报']);
    expect(found.records[0].productJsonName).toBe('WiFi漏保主动上报');
  });

  it('saves and deletes functions with every message', async () => {
    const [{ fId: lib }] = await s.sql(`select f_id from t_product_json where f_bid = 'switch' order by f_id limit 1`);
    id.switchLib = lib;
    expect((await s.call(`${FN}/addorupdate`, { fName: '', fType: 1, fProductJsonId: lib }, admin)).body).toMatchObject({ success: false, message: '功能名称不能为空' });
    expect((await s.call(`${FN}/addorupdate`, { fName: '测试功能', fType: '', fProductJsonId: lib }, admin)).body.message).toBe('类型不能为空');
    expect((await s.call(`${FN}/addorupdate`, { fName: '测试功能', fType: 'abc', fProductJsonId: lib }, admin)).body.message).toBe('类型不能为空');
    expect((await s.call(`${FN}/addorupdate`, { fName: '测试功能', fType: 1 }, admin)).body.message).toBe('描述库不能为空');
    expect((await s.call(`${FN}/addorupdate`, { fName: '测试功能', fType: 1, fProductJsonId: 987654 }, admin)).body.message).toBe('描述库不存在');
    // The type is required; the form starts at 9 (all).
    expect((await s.call(`${FN}/addorupdate`, { fName: '测试功能', fProductJsonId: lib }, admin)).body.message).toBe('类型不能为空');
    const saved = await s.call(`${FN}/addorupdate`, { fName: '测试功能', fType: 9, fProductJsonId: lib, fRemark: '备注' }, admin);
    expect(saved.body).toMatchObject({ success: true, message: '功能保存成功', data: { fName: '测试功能', fType: 9, productJsonName: '开关控制' } });
    id.fn = saved.body.data.fId;
    const edited = await s.call(`${FN}/addorupdate`, { fId: id.fn, fName: '测试功能2', fType: 2, fProductJsonId: lib }, admin);
    expect(edited.body).toMatchObject({ success: true, data: { fName: '测试功能2', fType: 2 } });
    // A library a function uses stays.
    expect((await s.call(`${JSON_}/del`, { fId: lib }, admin)).body.success).toBe(false);
    const free = await s.call(`${JSON_}/addorupdate`, { fName: '空库', fType: 1, fBid: '103' }, admin);
    expect(free.body.success).toBe(true);
    await s.call(`${FN}/addorupdate`, { fId: id.fn, fProductJsonId: free.body.data.fId }, admin);
    expect((await s.call(`${JSON_}/del`, { fId: free.body.data.fId }, admin)).body.message).toBe('该描述库已被功能「测试功能2」使用，无法删除');
    expect((await s.call(`${FN}/del`, { fId: id.fn }, admin)).body).toMatchObject({ success: true, message: '功能删除成功' });
    expect((await s.call(`${JSON_}/del`, { fId: free.body.data.fId }, admin)).body).toMatchObject({ success: true, message: '描述库删除成功' });
  });

  it('refuses callers without the codes with HTTP 401', async () => {
    for (const token of [agent, none]) {
      for (const [path, body] of [
        [`${FN}/functions`, { current: 1, size: 10 }],
        [`${FN}/addorupdate`, { fName: 'x', fType: 9, fProductJsonId: id.switchLib }],
        [`${FN}/addorupdate`, { fId: 1, fName: 'x' }],
        [`${FN}/del`, { fId: 1 }],
        [`${JSON_}/pagelist`, { current: 1, size: 10 }],
        [`${JSON_}/addorupdate`, { fName: 'x', fType: 1, fBid: '101' }],
        [`${JSON_}/del`, { fId: 1 }],
        [`${CONF}/pagelist`, { current: 1, size: 10 }],
        [`${CONF}/addorupdate`, { fProductJsonId: 1 }],
        [`${CONF}/del`, { fId: 1 }],
      ] as const) {
        const r = await s.call(path, body, token);
        expect(r.status, path).toBe(401);
        expect(r.body).toMatchObject({ code: 401, message: '没有操作权限' });
      }
    }
    expect((await upload(await workbook([]), 'a.xlsx', id.switchLib, none)).status).toBe(401);
  });

  it('lists libraries as a tree with name/remark, type and Bid filters', async () => {
    const all = await libs();
    const gateway = all.records.find((l: any) => l.fBid === '412');
    const child = all.records.find((l: any) => l.fBid === '413');
    expect(child.fJsonParentId).toBe(gateway.fId);
    expect(all.records.filter((l: any) => l.fJsonParentId === all.records.find((x: any) => x.fBid === '201').fId).map((l: any) => l.fBid)).toEqual(['202', '203']);
    expect(all.size).toBe(9999);
    const telemetry = all.records.find((l: any) => l.fBid === 'telemetry');
    expect(telemetry.productNames).toContain('485智能开关');
    // A list written by other means, with blanks and stray items, still names its product on the libraries it holds.
    const gatewayLib = all.records.find((l: any) => l.fBid === '412');
    await s.sql(`insert into t_product (f_number, f_name, f_send_json_ids, f_receive_json_ids) values
      ('LEGACY1', '旧产品一', ' ${gatewayLib.fId} , x,', null), ('LEGACY2', '旧产品二', null, E'9999,\t${telemetry.fId} ')`);
    const named = (await libs()).records;
    expect(named.find((l: any) => l.fId === gatewayLib.fId).productNames.split(',')).toContain('旧产品一');
    expect(named.find((l: any) => l.fId === telemetry.fId).productNames.split(',')).toContain('旧产品二');
    await s.sql(`delete from t_product where f_number in ('LEGACY1', 'LEGACY2')`);
    expect((await libs({ fName: '漏保' })).records.map((l: any) => l.fBid)).toEqual(['201', '202', '203']);
    // Remark too: "告警字节" is only in 202's remark.
    expect((await libs({ fName: '告警字节' })).records.map((l: any) => l.fBid)).toEqual(['202']);
    expect((await libs({ fType: 2 })).records.every((l: any) => l.fType === 2)).toBe(true);
    expect((await libs({ fBid: '203' })).records.map((l: any) => l.fName)).toEqual(['漏保自检结果']);
    const ordered = (await s.call(`${JSON_}/pagelist`, { current: 1, size: 9999, condition: { fType: 1 }, orders: [{ column: 'fBid', asc: false }] }, admin)).body.data.records;
    expect(ordered[0].fBid >= ordered[ordered.length - 1].fBid).toBe(true);
    const list = (await s.call(`${JSON_}/list`, {}, admin)).body.data;
    expect(list.length).toBe(all.total);
  });

  it('saves libraries: name, type and Bid required, query library for send only', async () => {
    expect((await s.call(`${JSON_}/addorupdate`, { fName: '', fType: 1, fBid: '101' }, admin)).body.message).toBe('描述库名称不能为空');
    expect((await s.call(`${JSON_}/addorupdate`, { fName: '库', fType: 1, fBid: '' }, admin)).body.message).toBe('Bid不能为空');
    expect((await s.call(`${JSON_}/addorupdate`, { fName: '库', fType: '', fBid: '101' }, admin)).body.message).toBe('类型不能为空');
    const recv = await s.call(`${JSON_}/addorupdate`, { fName: '接收库', fType: 1, fBid: '301', fSearchJsonId: id.switchLib }, admin);
    expect(recv.body).toMatchObject({ success: true, message: '描述库保存成功', data: { fType: 1, fBid: '301', fSearchJsonId: null } });
    id.recv = recv.body.data.fId;
    const send = await s.call(`${JSON_}/addorupdate`, { fName: '发送库', fType: 2, fBid: '302', fSearchJsonId: id.recv, fJsonParentId: id.recv }, admin);
    expect(send.body.data).toMatchObject({ fType: 2, fSearchJsonId: id.recv, fJsonParentId: id.recv });
    id.send = send.body.data.fId;
    expect((await s.call(`${JSON_}/addorupdate`, { fName: 'x', fType: 2, fBid: '303', fSearchJsonId: id.send }, admin)).body.message).toBe('查询描述库必须是接收类型');
    expect((await s.call(`${JSON_}/del`, { fId: id.recv }, admin)).body.message).toBe('该描述库下存在下级描述库，无法删除');
  });

  it('saves fields: required rules, the entity rule, switch defaults, hardware alarms, 1000 characters', async () => {
    const base = { fProductJsonId: id.recv, fJsonKey: 'temp', fJsonName: '温度', fDataType: 2, fValueType: 'reading' };
    for (const [key, message] of [
      ['fJsonKey', '标识符不能为空'],
      ['fJsonName', '功能点名称不能为空'],
      ['fDataType', '数据类型不能为空'],
      ['fValueType', '值类型不能为空'],
    ]) {
      expect((await s.call(`${CONF}/addorupdate`, { ...base, [key]: '' }, admin)).body.message, key).toBe(message);
    }
    for (const type of [7, 8]) {
      expect((await s.call(`${CONF}/addorupdate`, { ...base, fDataType: type }, admin)).body.message).toBe('数据类型为实体/实体数组时，下级描述库不能为空');
    }
    const entity = await s.call(`${CONF}/addorupdate`, { ...base, fJsonKey: 'items', fDataType: 8, fJsonSubId: id.send }, admin);
    expect(entity.body).toMatchObject({ success: true, message: '字段保存成功', data: { jsonSubName: '发送库' } });
    expect((await s.call(`${CONF}/addorupdate`, { ...base, fJsonDes: 'x'.repeat(1001) }, admin)).body.message).toBe('说明不能超过1000个字符');

    const long = '长'.repeat(1000);
    const sw = await s.call(`${CONF}/addorupdate`, { ...base, fJsonKey: 'power', fJsonName: '电源', fDataType: 1, fFunctionType: 'switch', fJsonDes: long, productJsonConfSwitches: [{ fName: '电源' }] }, admin);
    expect(sw.body.success).toBe(true);
    expect(sw.body.data.fJsonDes).toBe(long);
    expect(sw.body.data.productJsonConfSwitches).toEqual([{ fName: '电源', fOpenValue: '1', fCloseValue: '0', fOpenReadValue: null, fCloseReadValue: null, fProductJsonConfId: sw.body.data.fId }]);
    id.switchConf = sw.body.data.fId;
    // No longer a switch: the options go.
    const plain = await s.call(`${CONF}/addorupdate`, { fId: id.switchConf, fFunctionType: '' }, admin);
    expect(plain.body.data.productJsonConfSwitches).toEqual([]);

    const warn = { ...base, fJsonKey: 'fault', fJsonName: '故障', fDataType: 1, fIsWarn: 1, fWarnType: 2 };
    expect((await s.call(`${CONF}/addorupdate`, { ...warn, productJsonHardwareWarns: [{ fByteIndex: 'a', fName: '过压' }] }, admin)).body.message).toBe('硬件告警字节序号必须是不小于0的整数');
    expect((await s.call(`${CONF}/addorupdate`, { ...warn, productJsonHardwareWarns: [{ fByteIndex: 0, fName: '' }] }, admin)).body.message).toBe('硬件告警名称不能为空');
    const hw = await s.call(`${CONF}/addorupdate`, { ...warn, productJsonHardwareWarns: [{ fByteIndex: 0, fName: '过压', fDes: '第0字节' }, { fByteIndex: '3', fName: '欠压' }, {}] }, admin);
    expect(hw.body.data.productJsonHardwareWarns).toEqual([
      { fByteIndex: 0, fName: '过压', fDes: '第0字节', fProductJsonConfId: hw.body.data.fId },
      { fByteIndex: 3, fName: '欠压', fDes: null, fProductJsonConfId: hw.body.data.fId },
    ]);
    // A system alarm has no hardware bytes.
    const system = await s.call(`${CONF}/addorupdate`, { fId: hw.body.data.fId, fWarnType: 1 }, admin);
    expect(system.body.data.productJsonHardwareWarns).toEqual([]);
    expect((await s.call(`${CONF}/addorupdate`, { ...base, fJsonKey: 'power' }, admin)).body.message).toBe('该描述库中已存在相同标识符');

    const page = await confs({ fProductJsonId: id.recv }, 2);
    expect(page.total).toBe(3);
    expect(page.records.length).toBe(2);
    expect((await confs({ fProductJsonId: id.recv, keyword: '电源' })).records.map((r: any) => r.fJsonKey)).toEqual(['power']);
    expect((await s.call(`${CONF}/del`, { fId: id.switchConf }, admin)).body).toMatchObject({ success: true, message: '字段删除成功' });
  });

  it('imports a whole sheet or nothing, naming each bad row; xls/xlsx only', async () => {
    const before = (await confs({ fProductJsonId: id.send })).total;
    const bad = await workbook([
      ['volt', '电压', '', '浮点数', 'reading', '', '', 'V'],
      ['', '无标识', '', '1', 'reading', '', '', ''],
      ['arr', '数组', '', '8', 'reading', '', '', ''],
      ['volt', '重复', '', '1', 'reading', '', '', ''],
    ]);
    const refused = await upload(bad, 'fields.xlsx', id.send);
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toContain('第3行：标识符不能为空');
    expect(refused.body.message).toContain('第4行：数据类型为实体/实体数组时，下级描述库不能为空');
    expect(refused.body.message).toContain('第5行：标识符在文件中重复');
    expect(refused.body.message).not.toContain('第2行');
    expect((await confs({ fProductJsonId: id.send })).total).toBe(before);

    const good = await workbook([
      ['volt', '电压', '', '浮点数', '实时数据', '', '', 'V'],
      ['sub', '子项', '', '7', 'reading', '', '接收库', ''],
    ]);
    const imported = await upload(good, 'fields.xlsx', id.send);
    expect(imported.body).toMatchObject({ success: true, data: { imported: 2 } });
    const rows = (await confs({ fProductJsonId: id.send })).records;
    expect(rows.find((r: any) => r.fJsonKey === 'volt')).toMatchObject({ fDataType: 2, fValueType: 'reading' });
    expect(rows.find((r: any) => r.fJsonKey === 'sub')).toMatchObject({ fDataType: 7, fJsonSubId: id.recv });

    expect((await upload(good, 'fields.csv', id.send)).body).toMatchObject({ success: false, message: '文件格式错误' });
    expect((await upload(Buffer.from('not a workbook'), 'fields.xls', id.send)).body).toMatchObject({ success: false, message: '文件格式错误' });
    const template = await fetch(`${s.url}${CONF}/template`, { method: 'POST', headers: { authorization: admin } });
    expect(template.headers.get('content-type')).toContain('spreadsheetml');
  });
});

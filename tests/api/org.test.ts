import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, USER, backends, startServer, type TestServer } from './harness';

const DEPT = '/system/t-department-info';
const AREA = '/system/t-area-info';
const TPL = '/system/t-message-model';

type Node = { id: number; title: string; parentId: number; children: Node[] };
/** The legacy node fields only (nodes also carry their row). */
const shape = (nodes: Node[]): Node[] => nodes.map(({ id, title, parentId, children }) => ({ id, title, parentId, children: shape(children) }));

describe.each(backends)('departments, areas and message templates on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let user: string;
  const call = (path: string, body: unknown = {}, token = admin) => s.call(path, body, token);

  beforeAll(async () => {
    s = await startServer(backend);
    [admin, user] = [await s.login(ADMIN), await s.login(USER)];
  }, 60_000);
  afterAll(() => s?.close());

  it('validates departments with the spec messages', async () => {
    const save = (body: unknown) => call(`${DEPT}/addOrEditDepartmentInfo`, body);
    expect((await save({ fDepartmentId: 100 })).body).toMatchObject({ success: false, message: '部门名称不能为空' });
    expect((await save({ fDepartmentId: 100, fDepartmentName: '  ' })).body.message).toBe('部门名称不能为空');
    expect((await save({ fDepartmentName: '总部' })).body).toMatchObject({ success: false, message: '部门编号不能为空' });
    expect((await save({ fDepartmentId: 'abc', fDepartmentName: '总部' })).body.message).toBe('部门编号必须是数字');
    expect((await save({ fDepartmentId: 101, fDepartmentName: '孤儿', fHighDepartmentId: 999 })).body.message).toBe('上级部门不存在');
    expect((await save({ fDepartmentId: 102, fDepartmentName: '自己', fHighDepartmentId: 102 })).body.message).toBe('上级部门不能是当前部门');
  });

  it('adds, edits by number, builds the tree and refuses deleting a parent', async () => {
    const save = (body: unknown) => call(`${DEPT}/addOrEditDepartmentInfo`, body);
    const top = await save({ fDepartmentId: 1, fDepartmentName: '总部', fHighDepartmentId: 0 });
    expect(top.body).toMatchObject({ code: 200, success: true, message: '部门保存成功' });
    expect(top.body.data).toMatchObject({ fDepartmentId: 1, fDepartmentName: '总部', fHighDepartmentId: 0 });
    expect((await save({ fDepartmentId: 11, fDepartmentName: '研发部', fHighDepartmentId: 1 })).body.success).toBe(true);
    expect((await save({ fDepartmentId: 12, fDepartmentName: '市场部', fHighDepartmentId: 1 })).body.success).toBe(true);
    expect((await save({ fDepartmentId: 111, fDepartmentName: '前端组', fHighDepartmentId: 11 })).body.success).toBe(true);
    expect((await save({ fDepartmentId: 2, fDepartmentName: '分公司' })).body.data.fHighDepartmentId).toBe(0);

    // The same number again is an edit, not a second row.
    const renamed = await save({ fDepartmentId: 12, fDepartmentName: '市场营销部', fHighDepartmentId: 1 });
    expect(renamed.body.data).toMatchObject({ fId: expect.any(Number), fDepartmentId: 12, fDepartmentName: '市场营销部' });
    expect((await s.sql(`select count(*)::int as n from t_department_info where f_department_id = 12`))[0].n).toBe(1);
    // Editing by fId keeps the number: the children point at it.
    const kept = await save({ fId: renamed.body.data.fId, fDepartmentId: 99, fDepartmentName: '市场部', fHighDepartmentId: 1 });
    expect(kept.body.data).toMatchObject({ fDepartmentId: 12, fDepartmentName: '市场部' });
    expect((await save({ fDepartmentId: 1, fDepartmentName: '总部', fHighDepartmentId: 111 })).body.message).toBe('上级部门不能是当前部门的下级部门');

    const tree = await call(`${DEPT}/treeList`);
    expect(tree.body).toMatchObject({ code: 200, success: true });
    expect(tree.body.data[0]).toMatchObject({ fId: expect.any(Number), fDepartmentId: 1, fDepartmentName: '总部', fHighDepartmentId: 0 });
    // The demo departments (numbers from 9100) sit beside the ones this test makes.
    expect(shape(tree.body.data).filter((n) => n.id < 9000)).toEqual([
      {
        id: 1, title: '总部', parentId: 0,
        children: [
          { id: 11, title: '研发部', parentId: 1, children: [{ id: 111, title: '前端组', parentId: 11, children: [] }] },
          { id: 12, title: '市场部', parentId: 1, children: [] },
        ],
      },
      { id: 2, title: '分公司', parentId: 0, children: [] },
    ]);

    const remove = (body: unknown) => call(`${DEPT}/removeDepartmentInfo`, body);
    expect((await remove({ fDepartmentId: 1 })).body).toMatchObject({ success: false, message: '请先删除子部门' });
    expect((await remove({ fDepartmentId: 11 })).body.message).toBe('请先删除子部门');
    expect((await remove({ fDepartmentId: 111 })).body).toMatchObject({ code: 200, success: true, message: '部门删除成功' });
    expect((await remove({ fDepartmentId: 11 })).body.success).toBe(true);
    expect((await remove({ fDepartmentId: 11 })).body.success).toBe(false);
    expect((await remove({})).body.message).toBe('部门编号不能为空');
    expect((await call(`${DEPT}/treeList`)).body.data[0].children.map((n: any) => n.id)).toEqual([12]);
  });

  it('serves the seeded region tree, its children and the paged list', async () => {
    const tree = (await call(`${AREA}/treeList`)).body.data;
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ id: 440000, title: '广东省', parentId: 0 });
    expect(tree[0].children.map((c: any) => c.title)).toEqual(['广州市', '深圳市']);
    expect(tree[0].children[0].children.map((c: any) => c.id)).toEqual([440103, 440104, 440106]);

    const children = await call(`${AREA}/childrenlist`, { fAreaId: 440300 });
    expect(children.body.data.map((a: any) => a.fAreaName)).toEqual(['福田区', '南山区']);
    expect((await call(`${AREA}/childrenlist`, { fAreaId: 0 })).body.data.map((a: any) => a.fAreaId)).toEqual([440000]);

    const list = await call(`${AREA}/list`, { current: 1, size: 5, condition: {} });
    expect(list.body.data).toMatchObject({ total: 8, size: 5 });
    expect(list.body.data.records).toHaveLength(5);
    const found = await call(`${AREA}/list`, { current: 1, size: 20, condition: { name: '天河' } });
    expect(found.body.data.records.map((a: any) => a.fAreaId)).toEqual([440106]);
    const byParent = await call(`${AREA}/list`, { current: 1, size: 20, condition: { highAreaId: 440000 } });
    expect(byParent.body.data.total).toBe(2);
  });

  it('refuses an add whose number is taken, leaving the node holding it as it was', async () => {
    const dept = (body: unknown) => call(`${DEPT}/addOrEditDepartmentInfo`, body);
    const area = (body: unknown) => call(`${AREA}/addOrEditAreaInfo`, body);
    // The console's add forms mark their call: the demo's 运营中心 (9100) and 广东省 (440000) stay.
    expect((await dept({ isAdd: true, fDepartmentId: 9100, fDepartmentName: '新部门', fHighDepartmentId: 0 })).body).toMatchObject({ success: false, message: '部门编号已存在' });
    expect((await area({ isAdd: true, fAreaId: 440000, fAreaName: '新地区', fHighAreaId: 0 })).body).toMatchObject({ success: false, message: '地区编号已存在' });
    expect((await s.sql(`select f_department_name as name from t_department_info where f_department_id = 9100`))[0].name).toBe('运营中心');
    expect((await s.sql(`select f_area_name as name from t_area_info where f_area_id = 440000`))[0].name).toBe('广东省');
    // A new number is added as before.
    expect((await dept({ isAdd: true, fDepartmentId: 9900, fDepartmentName: '新部门', fHighDepartmentId: 0 })).body).toMatchObject({ success: true, message: '部门保存成功' });
    expect((await call(`${DEPT}/removeDepartmentInfo`, { fDepartmentId: 9900 })).body.success).toBe(true);
  });

  it('validates areas, keeps the number numeric and refuses deleting a parent', async () => {
    const save = (body: unknown) => call(`${AREA}/addOrEditAreaInfo`, body);
    expect((await save({ fAreaId: 440307 })).body).toMatchObject({ success: false, message: '地区名称不能为空' });
    expect((await save({ fAreaName: '龙岗区' })).body.message).toBe('地区编号不能为空');
    expect((await save({ fAreaId: '', fAreaName: '龙岗区' })).body.message).toBe('地区编号不能为空');
    expect((await save({ fAreaId: '44a', fAreaName: '龙岗区' })).body.message).toBe('地区编号必须是数字');
    expect((await save({ fAreaId: 4403.5, fAreaName: '龙岗区' })).body.message).toBe('地区编号必须是数字');

    const created = await save({ fAreaId: '440307', fAreaName: '龙岗区', fAreaPinyin: 'longgangqu', fAreaPinyinAcr: 'lgq', fHighAreaId: 440300 });
    expect(created.body).toMatchObject({ code: 200, success: true, message: '地区保存成功' });
    expect(created.body.data).toMatchObject({ fAreaId: 440307, fAreaName: '龙岗区', fHighAreaId: 440300 });
    const edited = await save({ fAreaId: 440307, fAreaName: '龙岗', fHighAreaId: 440300 });
    expect(edited.body.data).toMatchObject({ fId: created.body.data.fId, fAreaName: '龙岗', fAreaPinyin: 'longgangqu' });
    expect((await save({ fAreaId: 440308, fAreaName: 'x', fHighAreaId: 1 })).body.message).toBe('上级地区不存在');

    const remove = (body: unknown) => call(`${AREA}/removeAreaInfo`, body);
    expect((await remove({ fAreaId: 440300 })).body).toMatchObject({ success: false, message: '请先删除子地区' });
    expect((await remove({ fAreaId: 440000 })).body.message).toBe('请先删除子地区');
    expect((await remove({ fAreaId: 440307 })).body).toMatchObject({ success: true, message: '地区删除成功' });
    expect((await call(`${AREA}/childrenlist`, { fAreaId: 440300 })).body.data).toHaveLength(2);
  });

  it('keeps message templates: list with filters, add, edit, delete', async () => {
    const save = (body: unknown) => call(`${TPL}/addoredit`, body);
    expect((await save({ fMessage: '内容' })).body).toMatchObject({ success: false, message: '模板名称不能为空' });
    expect((await save({ fName: 'x', fStatus: 3 })).body.message).toBe('状态不正确');
    const sms = await save({ fName: '告警短信', fTypeId: 1, fMessage: '设备{device}发生告警', fStatus: 1 });
    expect(sms.body).toMatchObject({ code: 200, success: true, message: '消息模板保存成功' });
    const inbox = await save({ fName: '到期提醒', fTypeId: 2, fMessage: '您的设备即将到期' });
    expect(inbox.body.data.fStatus).toBe(1);
    const edited = await save({ fId: inbox.body.data.fId, fStatus: 0 });
    expect(edited.body.data).toMatchObject({ fName: '到期提醒', fStatus: 0 });

    const list = async (condition: object) => (await call(`${TPL}/list`, { current: 1, size: 10, condition })).body.data;
    // Two demo templates and one per message-centre kind are seeded; the newest come first.
    expect((await list({})).total).toBe(9);
    expect((await list({ name: '告警短信' })).records.map((r: any) => r.fName)).toEqual(['告警短信']);
    expect((await list({ type: 2 })).records.map((r: any) => r.fName)).toEqual(['到期提醒', '设备消息接收告警', '反馈答复通知', '固件升级结果', '导入完成通知', '新报警提醒', '设备到期提醒']);
    expect((await list({ type: 2 })).records[2]).toMatchObject({ fCode: 'feedback', fStatus: 1 });
    expect((await save({ fName: 'x', fCode: 'sms' })).body.message).toBe('消息用途不正确');
    expect((await call(`${TPL}/delete`, { fId: sms.body.data.fId })).body).toMatchObject({ success: true, message: '消息模板删除成功' });
    expect((await list({})).total).toBe(8);
  });

  it('answers HTTP 401 to an ordinary user on every call', async () => {
    const calls: [string, object][] = [
      [`${DEPT}/treeList`, {}],
      [`${DEPT}/addOrEditDepartmentInfo`, { fDepartmentId: 5, fDepartmentName: 'x' }],
      [`${DEPT}/removeDepartmentInfo`, { fDepartmentId: 2 }],
      [`${AREA}/list`, { current: 1, size: 10 }],
      [`${AREA}/treeList`, {}],
      [`${AREA}/childrenlist`, { fAreaId: 440000 }],
      [`${AREA}/addOrEditAreaInfo`, { fAreaId: 5, fAreaName: 'x' }],
      [`${AREA}/removeAreaInfo`, { fAreaId: 440305 }],
      [`${TPL}/list`, { current: 1, size: 10 }],
      [`${TPL}/addoredit`, { fName: 'x' }],
      [`${TPL}/delete`, { fId: 1 }],
    ];
    for (const [path, body] of calls) {
      const res = await call(path, body, user);
      expect(res.status, path).toBe(401);
      expect(res.body).toMatchObject({ code: 401, success: false });
    }
    expect((await call(`${DEPT}/treeList`, {}, '')).status).toBe(700);
  });
});

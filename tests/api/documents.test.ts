import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer } from './harness';

const HELP = '/biz/t-help-manual';
const RENTAL = '/biz/t-rental-file';
const PLATFORM = '/biz/t-platform';

/** A document as an attacker would write it: a script, an event attribute, a javascript: link, a frame, a style beyond the editor's. */
const HOSTILE =
  '<h2 onclick="steal()">标题</h2><p><strong>加粗</strong><script>alert(1)</script>' +
  '<img src="/api/upload/abc123.png" onerror="alert(2)" alt="图">' +
  '<img src="javascript:alert(3)"><a href="javascript:alert(4)">链接</a>' +
  '<span style="color: #d32f2f; position: fixed; background-image: url(x)">红色</span>' +
  '<iframe src="https://evil.example"></iframe><video src="https://cdn.example/v.mp4" onplay="x()"></video></p>';

function expectClean(html: string) {
  expect(html).not.toMatch(/<script|onerror|onclick|onplay|javascript:|<iframe|position|background-image/i);
}

describe.each(backends)('help manuals and documents on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;

  beforeAll(async () => {
    s = await startServer(backend);
    [admin, agent] = [await s.login(ADMIN), await s.login(AGENT)];
  }, 180_000);
  afterAll(() => s?.close());

  const list = (type: number, token = admin, condition: object = {}) => s.call(`${HELP}/pageList`, { current: 1, size: 50, condition: { type, ...condition } }, token);

  it('lists each document type by its fixed type, with the seeded documents and their status names', async () => {
    for (const type of [5, 4, 3, 2]) {
      const res = await list(type);
      expect(res.body.success).toBe(true);
      expect(res.body.data.total).toBeGreaterThan(0);
      for (const r of res.body.data.records) expect(r.fType).toBe(type);
    }
    const help = (await list(5)).body.data.records;
    expect(help.map((r: { fSort: number }) => r.fSort)).toEqual([...help.map((r: { fSort: number }) => r.fSort)].sort((a, b) => a - b));
    expect(help.find((r: { fStatus: number }) => r.fStatus === 2)).toMatchObject({ statusName: '禁用' });
    expect(help[0]).toMatchObject({ statusName: '启用' });
    const byTitle = await list(5, admin, { title: '签收' });
    expect(byTitle.body.data.records.map((r: { fTitle: string }) => r.fTitle)).toEqual(['报警签收流程']);
  });

  it('creates, edits, switches and deletes a help manual, with the spec messages', async () => {
    const save = (body: object) => s.call(`${HELP}/addOrUpdateHelpManual`, body, admin);
    expect((await save({ fType: 5, fTitle: '', fStatus: 1 })).body).toMatchObject({ success: false, message: '标题名称不能为空' });
    expect((await save({ fType: 5, fTitle: '  ', fStatus: 1 })).body.message).toBe('标题名称不能为空');
    expect((await save({ fType: 5, fTitle: '手册', fStatus: '' })).body.message).toBe('状态不能为空');
    expect((await save({ fType: 5, fTitle: '手册', fStatus: 'abc' })).body.message).toBe('状态不能为空');
    expect((await save({ fType: 5, fTitle: '手册', fStatus: 3 })).body.message).toBe('状态不能为空');
    expect((await save({ fType: 5, fTitle: 'x'.repeat(101), fStatus: 1 })).body.message).toBe('标题名称不能超过100个字符');
    expect((await save({ fType: 7, fTitle: '手册', fStatus: 1 })).body.message).toBe('文档类型不正确');

    const created = await save({ fType: 5, fTitle: '门锁使用说明', fStatus: 1, fSort: 9, fContent: '<h2>开锁</h2><p><strong>刷卡</strong>或输入密码</p>' });
    expect(created.body).toMatchObject({ success: true, message: '操作成功', data: { fTitle: '门锁使用说明', fType: 5, fStatus: 1, statusName: '启用' } });
    expect(created.body.data.fContent).toBe('<h2>开锁</h2><p><strong>刷卡</strong>或输入密码</p>');
    const id = created.body.data.fId;

    const edited = await save({ fId: id, fTitle: '门锁使用说明（新版）', fStatus: 1 });
    expect(edited.body.data).toMatchObject({ fTitle: '门锁使用说明（新版）', fSort: 9 });
    expect(edited.body.data.fContent).toContain('<strong>刷卡</strong>');
    expect((await save({ fId: id, fTitle: '', fStatus: 1 })).body.message).toBe('标题名称不能为空');

    // The table switch: one call, saved at once.
    const off = await s.call(`${HELP}/updateStatus`, { fId: id, fStatus: 2 }, admin);
    expect(off.body).toMatchObject({ success: true, message: '操作成功' });
    expect((await s.call(`${HELP}/detail`, { fId: id }, admin)).body.data).toMatchObject({ fStatus: 2, statusName: '禁用' });
    expect((await s.call(`${HELP}/updateStatus`, { fId: id, fStatus: '' }, admin)).body.message).toBe('状态不能为空');

    const removed = await s.call(`${HELP}/removeHelpManual`, { fId: id }, admin);
    expect(removed.body.success).toBe(true);
    expect((await s.call(`${HELP}/detail`, { fId: id }, admin)).body.success).toBe(false);

    // Every write is in the operation log under its name.
    const logged = await s.sql(`select logname, succeed from t_sys_log where logname like 'document.%' order by id`);
    expect(logged.map((l) => l.logname)).toEqual(expect.arrayContaining(['document.save', 'document.status', 'document.delete']));
  });

  it('keeps types 4, 3 and 2 to their own lists', async () => {
    for (const type of [4, 3, 2]) {
      const made = await s.call(`${HELP}/addOrUpdateHelpManual`, { fType: type, fTitle: `类型${type}文档`, fStatus: 1, fContent: '<p>正文</p>' }, admin);
      expect(made.body.data.fType).toBe(type);
      const titles = (await list(type)).body.data.records.map((r: { fTitle: string }) => r.fTitle);
      expect(titles).toContain(`类型${type}文档`);
      expect((await list(5)).body.data.records.map((r: { fTitle: string }) => r.fTitle)).not.toContain(`类型${type}文档`);
      expect((await s.call(`${HELP}/removeHelpManual`, { fId: made.body.data.fId }, admin)).body.success).toBe(true);
    }
  });

  it('refuses without the codes, and gives type-4 articles to programHelpManual codes only', async () => {
    // The agent holds none of the document codes.
    expect((await list(5, agent)).status).toBe(401);
    expect((await s.call(`${HELP}/addOrUpdateHelpManual`, { fType: 5, fTitle: 'x', fStatus: 1 }, agent)).status).toBe(401);
    expect((await s.call(`${RENTAL}/pageList`, { current: 1 }, agent)).status).toBe(401);
    expect((await s.call(`${PLATFORM}/addOrUpdatePlatform`, { fTitle: 'x', fStatus: 1 }, agent)).status).toBe(401);
    expect((await s.call('/biz/t-platform-feedback/pageList', { current: 1 }, agent)).status).toBe(401);
    expect((await s.call('/biz/t-reminder-record/updateRecordStatus', { fId: 1, fStatus: 1 }, agent)).status).toBe(401);

    await s.grant('agent', ['programHelpManual:list', 'programHelpManual:edit', 'programHelpManual:del']);
    const type4 = (await list(4, agent)).body.data.records[0];
    expect(type4.fType).toBe(4);
    const type5 = (await list(5)).body.data.records[0];
    // The type-4 codes do not open the type-5 list, nor write a type-5 row, nor move a row to type 5.
    expect((await list(5, agent)).status).toBe(401);
    expect((await s.call(`${HELP}/pageList`, { current: 1 }, agent)).status).toBe(401);
    expect((await s.call(`${HELP}/detail`, { fId: type5.fId }, agent)).status).toBe(401);
    expect((await s.call(`${HELP}/detail`, { fId: type4.fId }, agent)).body.data.fTitle).toBe(type4.fTitle);
    expect((await s.call(`${HELP}/updateStatus`, { fId: type5.fId, fStatus: 2 }, agent)).status).toBe(401);
    expect((await s.call(`${HELP}/removeHelpManual`, { fId: type5.fId }, agent)).status).toBe(401);
    expect((await s.call(`${HELP}/addOrUpdateHelpManual`, { fType: 5, fTitle: '越权', fStatus: 1 }, agent)).status).toBe(401);
    expect((await s.call(`${HELP}/addOrUpdateHelpManual`, { fId: type4.fId, fType: 5, fTitle: type4.fTitle, fStatus: 1 }, agent)).status).toBe(401);
    expect((await list(5)).body.data.records[0]).toMatchObject({ fId: type5.fId, fStatus: type5.fStatus });
    // …but they do write type-4 rows.
    expect((await s.call(`${HELP}/updateStatus`, { fId: type4.fId, fStatus: 2 }, agent)).body.success).toBe(true);
    const made = await s.call(`${HELP}/addOrUpdateHelpManual`, { fType: 4, fTitle: 'App 常见问题', fStatus: 1 }, agent);
    expect(made.body.success).toBe(true);
    expect((await s.call(`${HELP}/removeHelpManual`, { fId: made.body.data.fId }, agent)).body.success).toBe(true);
    // And the help-manual codes alone do not reach type 4.
    const user = await s.login(USER);
    await s.grant('user', ['helpManual:list', 'helpManual:edit']);
    expect((await s.call(`${HELP}/updateStatus`, { fId: type4.fId, fStatus: 1 }, user)).status).toBe(401);
    expect((await list(4, user)).status).toBe(401);
    expect((await s.call(`${HELP}/updateStatus`, { fId: type5.fId, fStatus: type5.fStatus }, user)).body.success).toBe(true);
    expect((await s.call(`${HELP}/removeHelpManual`, { fId: type5.fId }, user)).status).toBe(401);
  });

  it('stores and serves rich text without scripts or event attributes', async () => {
    const made = await s.call(`${HELP}/addOrUpdateHelpManual`, { fType: 5, fTitle: '清洗测试', fStatus: 1, fContent: HOSTILE }, admin);
    expect(made.body.success).toBe(true);
    const [stored] = await s.sql(`select f_content from t_document where f_id = ${made.body.data.fId}`);
    expectClean(stored.fContent);
    // What the editor makes survives: heading, bold, colour, an uploaded picture, an https video.
    expect(stored.fContent).toContain('<h2>标题</h2>');
    expect(stored.fContent).toContain('<strong>加粗</strong>');
    expect(stored.fContent).toContain('<span style="color:#d32f2f">红色</span>');
    expect(stored.fContent).toContain('<img src="/api/upload/abc123.png" alt="图" />');
    expect(stored.fContent).toContain('<video src="https://cdn.example/v.mp4" controls="controls"></video>');
    expect(stored.fContent).toContain('<a target="_blank" rel="noopener noreferrer nofollow">链接</a>');
    expectClean(made.body.data.fContent);

    // A row put into the table around the API is served clean all the same, in lists and in detail.
    await s.sql(`update t_document set f_content = '${HOSTILE.replace(/'/g, "''")}' where f_id = ${made.body.data.fId}`);
    const detail = await s.call(`${HELP}/detail`, { fId: made.body.data.fId }, admin);
    expectClean(detail.body.data.fContent);
    expect(detail.body.data.fContent).toContain('<strong>加粗</strong>');
    const listed = (await list(5, admin, { title: '清洗测试' })).body.data.records[0];
    expectClean(listed.fContent);

    // Content that is nothing but a script is empty once cleaned.
    const scriptOnly = await s.call(`${RENTAL}/addOrUpdateFile`, { fTitle: '仅脚本', fStatus: 1, fContent: '<script>alert(1)</script>' }, admin);
    expect(scriptOnly.body.data.fContent ?? '').toBe('');
  });

  it('rental files and platform documents: CRUD on their own paths, switch through save, sanitised', async () => {
    for (const [base, save, remove] of [
      [RENTAL, 'addOrUpdateFile', 'removeFile'],
      [PLATFORM, 'addOrUpdatePlatform', 'removeUpdatePlatform'],
    ]) {
      expect((await s.call(`${base}/${save}`, { fTitle: '', fStatus: 1 }, admin)).body.message).toBe('标题名称不能为空');
      expect((await s.call(`${base}/${save}`, { fTitle: '须知', fStatus: null }, admin)).body.message).toBe('状态不能为空');
      const made = await s.call(`${base}/${save}`, { fTitle: '须知', fStatus: 1, fContent: '<p onmouseover="x()"><u>重要</u></p><script>1</script>' }, admin);
      expect(made.body).toMatchObject({ success: true, data: { fTitle: '须知', fContent: '<p><u>重要</u></p>' } });
      const off = await s.call(`${base}/${save}`, { fId: made.body.data.fId, fStatus: 2 }, admin);
      expect(off.body.data).toMatchObject({ fStatus: 2, fTitle: '须知', fContent: '<p><u>重要</u></p>' });
      const page = await s.call(`${base}/pageList`, { current: 1, size: 10, condition: { title: '须知' } }, admin);
      expect(page.body.data.records.map((r: { fId: number }) => r.fId)).toContain(made.body.data.fId);
      expect((await s.call(`${base}/${remove}`, { fId: made.body.data.fId }, admin)).body.success).toBe(true);
    }
  });

  it('platform feedback lists with user names; reminder records change status', async () => {
    const fb = await s.call('/biz/t-platform-feedback/pageList', { current: 1, size: 10, condition: { content: '帮助手册' } }, admin);
    expect(fb.body.data.total).toBeGreaterThan(0);
    expect(fb.body.data.records[0].userName).toBeTruthy();
    const reminders = (await s.call('/biz/t-reminder-record/pageList', { current: 1, size: 10, condition: { status: 0 } }, admin)).body.data.records;
    expect(reminders.length).toBeGreaterThan(0);
    const changed = await s.call('/biz/t-reminder-record/updateRecordStatus', { fId: reminders[0].fId, fStatus: 1 }, admin);
    expect(changed.body).toMatchObject({ success: true, message: '操作成功' });
    expect((await s.call('/biz/t-reminder-record/updateRecordStatus', { fId: reminders[0].fId, fStatus: 5 }, admin)).body.message).toBe('状态不能为空');
    const [row] = await s.sql(`select f_status from t_reminder_record where f_id = ${reminders[0].fId}`);
    expect(row.fStatus).toBe(1);
    const [log] = await s.sql(`select logname from t_sys_log where logname = 'reminderRecord.status' limit 1`);
    expect(log).toBeTruthy();
  });
});

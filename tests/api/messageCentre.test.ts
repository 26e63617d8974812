import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer, until } from './harness';
import { loadConfig } from '../../server/config';
import { startRelay } from '../../server/relay';
import type { MessageEvent } from '../../server/platform/messageCentre';
import { openDatabase } from '../../server/db';

const MSG = '/message';
type Item = { msg_id: number; title: string; create_time: string; kind: string };

describe.each(backends)('message centre on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let agent: string;
  let user: string;
  let userId: number;

  /** The contract's GET calls, with the query string. */
  const get = async (path: string, token: string, query = '') => {
    const res = await fetch(`${s.url}${MSG}/${path}${query}`, { headers: { authorization: token } });
    return { status: res.status, body: await res.json() };
  };
  const init = async (token: string) => (await get('init', token)).body.data as { unread: Item[]; readed: Item[]; trash: Item[]; unreadCount: number; readedCount: number; trashCount: number };
  const post = (path: string, body: object, token: string) => s.call(`${MSG}/${path}`, body, token);

  /** Reads the event stream of a user until `stop` or the timeout; answers the events seen. */
  const listen = async (token: string) => {
    const ticket = (await s.call('/api/events/ticket', {}, token)).body.data.ticket;
    const abort = new AbortController();
    const res = await fetch(`${s.url}/api/events?ticket=${ticket}`, { signal: abort.signal });
    const events: { event: string; data: any }[] = [];
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const pump = (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += decoder.decode(value, { stream: true });
          let at;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data) events.push({ event, data: JSON.parse(data) });
          }
        }
      } catch {
        // Aborted.
      }
    })();
    return {
      events,
      close: async () => {
        abort.abort();
        await pump;
      },
    };
  };

  beforeAll(async () => {
    s = await startServer(backend, { simulate: true, telemetryMs: 5000 });
    [admin, agent, user] = [await s.login(ADMIN), await s.login(AGENT), await s.login(USER)];
    [{ fId: userId }] = await s.sql(`select f_id from t_sys_user where f_phone = '${USER.phone}'`);
  }, 90_000);
  afterAll(() => s?.close());

  it('seeds one enabled template for each kind of message', async () => {
    const rows = await s.sql(`select f_code, f_status, f_type_id from t_message_model where f_code is not null order by f_code`);
    expect(rows.map((r) => r.fCode)).toEqual(['alarm', 'feedback', 'firmware', 'import', 'intake']);
    expect(rows.every((r) => r.fStatus === 1 && r.fTypeId === 2)).toBe(true);
  });

  it('a door lock alarm over MQTT reaches the administrators live, no one else; read, trash and restore', async () => {
    const before = await init(admin);
    const [agentBefore, userBefore] = [await init(agent), await init(user)];
    const adminStream = await listen(admin);
    const userStream = await listen(user);
    const sim = s.devices.security!;
    const lock = sim.devices.find((d) => d.kind === 2)!;
    await sim.raise(lock.deviceNumber, { type: 3, remark: '门未锁超过5分钟' });
    const live = await until(async () => adminStream.events.find((e) => e.event === 'message'));
    const [house] = await s.sql(`select h.f_house_name from t_house_device b join t_device d on d.f_id = b.f_device_id join t_house_info h on h.f_house_id = b.f_house_id where d.f_number = '${lock.deviceNumber}'`);

    const after = await init(admin);
    expect(after.unreadCount).toBe(before.unreadCount + 1);
    const item = after.unread[0];
    expect(item).toMatchObject({ msg_id: live.data.msg_id, title: '新报警提醒', kind: 'alarm' });
    expect(item.create_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    // Newest first.
    expect(after.unread.map((m) => m.msg_id)).toEqual([...after.unread.map((m) => m.msg_id)].sort((a, b) => b - a));
    const content = await get('content', admin, `?msg_id=${item.msg_id}`);
    expect(content.body.data).toBe(`${house.fHouseName}于${content.body.data.match(/于(.+?)发生/)[1]}发生门未锁：门未锁超过5分钟。请及时处理。`);

    // The agent (no alarm list) and the ordinary user hear nothing and get nothing.
    await new Promise((r) => setTimeout(r, 300));
    expect(userStream.events.some((e) => e.event === 'message')).toBe(false);
    await adminStream.close();
    await userStream.close();
    expect((await init(agent)).unreadCount).toBe(agentBefore.unreadCount);
    expect((await init(user)).unreadCount).toBe(userBefore.unreadCount);

    // Others may neither read nor move it: to them it does not exist.
    expect((await get('content', user, `?msg_id=${item.msg_id}`)).body).toMatchObject({ success: false, message: '消息不存在' });
    for (const path of ['has_read', 'remove_readed', 'restore']) {
      expect((await post(path, { msg_id: item.msg_id }, agent)).body, path).toMatchObject({ success: false, message: '消息不存在' });
    }
    expect((await s.sql(`select f_status from t_message where f_id = ${item.msg_id}`))[0].fStatus).toBe(0);

    // Unread → read: the count drops by one.
    expect((await post('remove_readed', { msg_id: item.msg_id }, admin)).body).toMatchObject({ success: false, message: '只有已读消息可以删除' });
    expect((await post('has_read', { msg_id: item.msg_id }, admin)).body).toMatchObject({ success: true });
    const read = await init(admin);
    expect(read.unreadCount).toBe(after.unreadCount - 1);
    expect(read.readed[0].msg_id).toBe(item.msg_id);
    expect((await post('has_read', { msg_id: item.msg_id }, admin)).body).toMatchObject({ success: false, message: '消息已读' });

    // Read → trash → read.
    expect((await post('restore', { msg_id: item.msg_id }, admin)).body).toMatchObject({ success: false, message: '只有回收站中的消息可以还原' });
    expect((await post('remove_readed', { msg_id: item.msg_id }, admin)).body).toMatchObject({ success: true });
    const trashed = await init(admin);
    expect(trashed.trash[0].msg_id).toBe(item.msg_id);
    expect(trashed.readed.some((m) => m.msg_id === item.msg_id)).toBe(false);
    expect(trashed.trashCount).toBe(read.trashCount + 1);
    expect((await post('restore', { msg_id: item.msg_id }, admin)).body).toMatchObject({ success: true });
    const restored = await init(admin);
    expect(restored.readed[0].msg_id).toBe(item.msg_id);
    expect(restored.trash.some((m) => m.msg_id === item.msg_id)).toBe(false);

    // Every move is in the operation log under its name.
    const logs = await s.sql(`select logname, succeed from t_sys_log where logname like 'message.%' order by id`);
    expect(logs.map((l) => l.logname)).toEqual(expect.arrayContaining(['message.hasRead', 'message.removeReaded', 'message.restore']));
  }, 60_000);

  it('validates the message id and needs a login', async () => {
    expect((await post('has_read', {}, admin)).body).toMatchObject({ success: false, message: '消息编号不能为空' });
    expect((await get('content', admin)).body).toMatchObject({ success: false, message: '消息编号不能为空' });
    expect((await post('restore', { msg_id: 'abc' }, admin)).body).toMatchObject({ success: false, message: '消息不存在' });
    expect((await post('remove_readed', { msg_id: 99999999 }, admin)).body).toMatchObject({ success: false, message: '消息不存在' });
    expect((await get('init', 'Bearer nonsense')).status).toBe(700);
    expect((await s.call(`${MSG}/has_read`, { msg_id: 1 })).status).toBe(700);
  });

  it('an alarm without a description leaves no stray colon; a template written with {remark} still fills it', async () => {
    const sim = s.devices.security!;
    const lock = sim.devices.find((d) => d.kind === 2)!;
    const newest = async () => {
      const item = (await init(admin)).unread[0];
      return (await get('content', admin, `?msg_id=${item.msg_id}`)).body.data as string;
    };
    const raise = async (remark?: string) => {
      const before = (await init(admin)).unreadCount;
      await sim.raise(lock.deviceNumber, { type: 3, ...(remark ? { remark } : {}) });
      await until(async () => (await init(admin)).unreadCount > before);
      return newest();
    };
    const bare = await raise();
    expect(bare).toMatch(/发生门未锁。请及时处理。$/);
    expect(bare).not.toContain('：');
    expect(await raise('门未锁超过5分钟')).toMatch(/发生门未锁：门未锁超过5分钟。请及时处理。$/);
    // An administrator's own wording with the bare description is filled as written.
    const [{ fMessage }] = await s.sql(`select f_message from t_message_model where f_code = 'alarm'`);
    expect(fMessage).toBe('{house}于{time}发生{alarm}{detail}。请及时处理。');
    await s.sql(`update t_message_model set f_message = '{alarm}（{remark}）' where f_code = 'alarm'`);
    try {
      expect(await raise('门未锁超过9分钟')).toBe('门未锁（门未锁超过9分钟）');
    } finally {
      await s.sql(`update t_message_model set f_message = '${fMessage}' where f_code = 'alarm'`);
    }
  });

  it('a feedback reply reaches its author; an empty reply is refused and sends nothing', async () => {
    const [row] = await s.sql(`insert into t_feedback (f_user_id, f_phone, f_type, f_feedback_content, f_status) values (${userId}, '${USER.phone}', '2', '夜间门禁识别太慢', 0) returning f_id`);
    const before = await init(user);
    const adminBefore = await init(admin);
    expect((await s.call('/biz/t-feedback/answer', { fId: row.fId, fAnswerContent: '   ' }, admin)).body).toMatchObject({ success: false, message: '答复内容不能为空' });
    expect((await s.call('/biz/t-feedback/answer', { fId: row.fId, fAnswerContent: '已升级识别算法' }, agent)).status).toBe(401);
    expect((await init(user)).unreadCount).toBe(before.unreadCount);

    const listed = await s.call('/biz/t-feedback/pagelist', { current: 1, size: 10, condition: { content: '夜间门禁' } }, admin);
    expect(listed.body.data.records[0]).toMatchObject({ fId: row.fId, fType: '2', fContent: '夜间门禁识别太慢' });
    const answered = await s.call('/biz/t-feedback/answer', { fId: row.fId, fAnswerContent: '已升级识别算法' }, admin);
    expect(answered.body).toMatchObject({ success: true, message: '反馈答复成功', data: { fStatus: 1 } });
    const after = await init(user);
    expect(after.unreadCount).toBe(before.unreadCount + 1);
    expect(after.unread[0]).toMatchObject({ title: '反馈答复通知', kind: 'feedback' });
    const content = (await get('content', user, `?msg_id=${after.unread[0].msg_id}`)).body.data;
    expect(content).toContain('“夜间门禁识别太慢”已答复：已升级识别算法');
    expect((await init(admin)).unreadCount).toBe(adminBefore.unreadCount);
    // The ordinary user reads it too: the message centre needs no permission code.
    expect((await post('has_read', { msg_id: after.unread[0].msg_id }, user)).body.success).toBe(true);
    expect((await init(user)).unreadCount).toBe(before.unreadCount);
  });

  it('the template decides the words; a disabled template sends nothing', async () => {
    const [row] = await s.sql(`insert into t_feedback (f_user_id, f_feedback_content, f_status) values (${userId}, '模板测试', 0) returning f_id`);
    await s.sql(`update t_message_model set f_name = '您的反馈有回复了', f_message = '回复：{answer}' where f_code = 'feedback'`);
    await s.call('/biz/t-feedback/answer', { fId: row.fId, fAnswerContent: '第一次' }, admin);
    const first = (await init(user)).unread[0];
    expect(first.title).toBe('您的反馈有回复了');
    expect((await get('content', user, `?msg_id=${first.msg_id}`)).body.data).toBe('回复：第一次');
    await s.sql(`update t_message_model set f_status = 0 where f_code = 'feedback'`);
    const count = (await init(user)).unreadCount;
    expect((await s.call('/biz/t-feedback/answer', { fId: row.fId, fAnswerContent: '第二次' }, admin)).body.success).toBe(true);
    expect((await init(user)).unreadCount).toBe(count);
    await s.sql(`update t_message_model set f_status = 1 where f_code = 'feedback'`);
  });

  it('a firmware upgrade result tells whoever pushed it and the device owner', async () => {
    const [dev] = await s.sql(`select f_id, f_product_id, f_user_id from t_device where f_number = 'DEV000009'`);
    const [{ fId: agentId }] = await s.sql(`select f_id from t_sys_user where f_phone = '${AGENT.phone}'`);
    expect(dev.fUserId).toBe(agentId);
    await until(async () => (await s.sql(`select t_online from t_device where f_id = ${dev.fId}`))[0].tOnline === 1, 20_000);
    // The simulated device refuses a firmware whose signature is not an MD5.
    const fw = await s.call('/biz/t-firmware/addorupdate', { fProductId: dev.fProductId, fName: '消息固件', fVersion: '9.0.0', fVersionCode: '900', fMd5Sign: 'not-an-md5', fRemark: 'r' }, admin);
    await s.call('/biz/t-firmware-update-device/addorupdate', [{ fDeviceId: dev.fId, fFirmwareId: fw.body.data.fId }], admin);
    const [a0, g0, u0] = [await init(admin), await init(agent), await init(user)];
    expect((await s.call('/biz/t-firmware-update-device/push', { fFirmwareId: fw.body.data.fId }, admin)).body.data.sent).toBe(1);
    const a1 = await until(async () => {
      const lists = await init(admin);
      return lists.unreadCount > a0.unreadCount ? lists : undefined;
    }, 15_000);
    expect(a1.unreadCount).toBe(a0.unreadCount + 1);
    expect(a1.unread[0]).toMatchObject({ title: '固件升级结果', kind: 'firmware' });
    const text = (await get('content', admin, `?msg_id=${a1.unread[0].msg_id}`)).body.data;
    expect(text).toMatch(/^设备DEV000009升级固件9\.0\.0失败（.+）。原因：固件签名校验失败$/);
    expect((await init(agent)).unreadCount).toBe(g0.unreadCount + 1);
    expect((await init(user)).unreadCount).toBe(u0.unreadCount);
  }, 40_000);

  it('a finished import tells the importer', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('布控人员');
    sheet.addRow(['人员名称', '身份证号', '布控类型', '布控人', '布控开始时间', '布控结束时间', '布控状态', '手机号']);
    sheet.addRow(['消息甲', '110101199003079999', '1', '民警', '2026-12-01 00:00:00', '2027-12-01 00:00:00', '1', '13800138009']);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(Buffer.from(await book.xlsx.writeBuffer()))]), 'people.xlsx');
    const before = await init(admin);
    const res = await fetch(`${s.url}/biz/t-control-person/importExcel`, { method: 'POST', headers: { authorization: admin }, body: form });
    expect((await res.json()).success).toBe(true);
    const after = await init(admin);
    expect(after.unreadCount).toBe(before.unreadCount + 1);
    expect(after.unread[0]).toMatchObject({ title: '导入完成通知', kind: 'import' });
    expect((await get('content', admin, `?msg_id=${after.unread[0].msg_id}`)).body.data).toMatch(/^布控人员导入完成，共导入1条数据/);
  });

  it('an agent holding the alarm list hears of the alarms of its own devices only', async () => {
    const [{ fId: agentId }] = await s.sql(`select f_id from t_sys_user where f_phone = '${AGENT.phone}'`);
    const sim = s.devices.security!;
    const owners = new Map((await s.sql(`select f_number, f_user_id from t_device`)).map((r) => [r.fNumber, r.fUserId]));
    const [own, foreign] = sim.devices.filter((d) => owners.get(d.deviceNumber) === agentId);
    // The demo's door locks are all the agent's: one of them is nobody's for this check.
    await s.sql(`update t_device set f_user_id = null where f_number = '${foreign.deviceNumber}'`);
    await s.sql(`insert into t_sys_role_menu (role_id, menu_id) select r.id, m.id from t_sys_role r, t_sys_permission_menu m where r.alias = 'agent' and m.permissions = 'alarm:list'`);
    const relogged = await s.login(AGENT);
    const [a0, g0] = [await init(admin), await init(relogged)];
    await sim.raise(foreign.deviceNumber, { type: 4 });
    await until(async () => (await init(admin)).unreadCount === a0.unreadCount + 1);
    expect((await init(relogged)).unreadCount).toBe(g0.unreadCount);
    await sim.raise(own.deviceNumber, { type: 4 });
    await until(async () => (await init(admin)).unreadCount === a0.unreadCount + 2);
    const mine = await until(async () => {
      const lists = await init(relogged);
      return lists.unreadCount === g0.unreadCount + 1 ? lists : undefined;
    });
    expect(mine.unread[0]).toMatchObject({ title: '新报警提醒', kind: 'alarm' });
    await s.sql(`update t_device set f_user_id = ${agentId} where f_number = '${foreign.deviceNumber}'`);
  }, 40_000);

  it.runIf(backend === 'postgres')('another replica hears of a new message through the database', async () => {
    // A second connection to the same database, as another replica's relay holds.
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(s.db);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${rows[0].name}`;
    const other = await openDatabase({ ...loadConfig({ DATABASE_URL: url.toString() }) });
    const relay = await startRelay(other);
    const heard: MessageEvent[] = [];
    relay.on('message', (e) => heard.push(e));
    try {
      const [row] = await s.sql(`insert into t_feedback (f_user_id, f_feedback_content, f_status) values (${userId}, '跨副本', 0) returning f_id`);
      await s.call('/biz/t-feedback/answer', { fId: row.fId, fAnswerContent: '收到' }, admin);
      const notice = await until(async () => heard[0]);
      const newest = (await init(user)).unread[0];
      expect(notice).toEqual({ userId, msg_id: newest.msg_id, title: newest.title });
    } finally {
      await relay.stop();
      await other.close();
    }
  });
});

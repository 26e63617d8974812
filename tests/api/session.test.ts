import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer } from './harness';

describe.each(backends)('session on %s', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(backend);
  });
  afterAll(() => s?.close());

  it('logs in with the phone and answers token, user, menus and permission codes', async () => {
    const { status, body } = await s.call('/login', { userName: ` ${ADMIN.phone} `, password: ADMIN.password });
    expect(status).toBe(200);
    expect(body.code).toBe(200);
    expect(body.data.token).toMatch(/^ey/);
    expect(body.data.user).toMatchObject({ fPhone: ADMIN.phone, fAdmin: 1 });
    expect(body.data.permissions).toContain('product:del');
    const section = body.data.menus.find((m: any) => m.component === 'Main');
    expect(section.children.map((c: any) => c.component).slice(0, 2)).toEqual(['product', 'device']);
  });

  it('refuses empty and wrong credentials with the spec messages', async () => {
    expect((await s.call('/login', { userName: '', password: 'x' })).body).toMatchObject({ success: false, message: '账号不能为空' });
    expect((await s.call('/login', { userName: ADMIN.phone, password: '' })).body).toMatchObject({ success: false, message: '密码不能为空' });
    const wrong = await s.call('/login', { userName: ADMIN.phone, password: 'nope' });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toMatchObject({ success: false, message: '账号或密码错误' });
  });

  it('stores the password as argon2id', async () => {
    const [row] = await s.sql(`select f_password from t_sys_user where f_phone = '${ADMIN.phone}'`);
    expect(row.fPassword).toMatch(/^\$argon2id\$/);
  });

  it('answers HTTP 700 for a missing, bad or forged token', async () => {
    expect((await s.call('/get_info')).status).toBe(700);
    expect((await s.call('/get_info', {}, 'garbage')).status).toBe(700);
    const token = await s.login(ADMIN);
    const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    const r = await s.call('/biz/t-device/devices', {}, forged);
    expect(r.status).toBe(700);
    expect(r.body.code).toBe(700);
  });

  it('gives the ordinary user fewer permissions and the same menu section', async () => {
    const token = await s.login(USER);
    const { body } = await s.call('/get_info', {}, token);
    expect(body.data.user.fAdmin).toBe(0);
    expect(body.data.permissions).toContain('device:list');
    expect(body.data.permissions).not.toContain('product:del');
  });

  it('checks the login password before sensitive commands', async () => {
    const token = await s.login(ADMIN);
    expect((await s.call('/check-password', { password: '' }, token)).body.message).toBe('登录密码不能为空');
    expect((await s.call('/check-password', { password: 'wrong' }, token)).body).toMatchObject({ success: false, message: '密码校验失败' });
    expect((await s.call('/check-password', { password: ADMIN.password }, token)).body.success).toBe(true);
  });

  it('registers a user with the spec rules and gives it the default role', async () => {
    const base = { fChineseName: '张三', fPhone: '13912345678', fPassword: 'secret1', passwordCheck: 'secret1' };
    const msg = async (patch: object) => (await s.call('/register', { ...base, ...patch })).body.message;
    expect(await msg({ fChineseName: '' })).toBe('姓名不能为空');
    expect(await msg({ fPhone: '' })).toBe('手机号码不能为空');
    expect(await msg({ fPhone: '12345678901' })).toBe('手机号码格式错误');
    expect(await msg({ fPassword: '', passwordCheck: '' })).toBe('密码不能为空');
    expect(await msg({ fPassword: '12345', passwordCheck: '12345' })).toBe('密码长度必须大于6位');
    expect(await msg({ passwordCheck: '' })).toBe('密码确认不能为空');
    expect(await msg({ passwordCheck: 'other12' })).toBe('密码不一致!');
    const ok = await s.call('/register', base);
    expect(ok.body).toMatchObject({ success: true, message: '用户注册成功' });
    expect((await s.call('/register', base)).body.success).toBe(false);
    const token = await s.login({ phone: base.fPhone, password: base.fPassword });
    const info = await s.call('/get_info', {}, token);
    expect(info.body.data.permissions).toContain('device:list');
  });

  it('changes the own password, after which only the new one logs in', async () => {
    await s.call('/register', { fChineseName: '李四', fPhone: '13712345678', fPassword: 'first12', passwordCheck: 'first12' });
    const token = await s.login({ phone: '13712345678', password: 'first12' });
    expect((await s.call('/system/t-sys-user/updateUserPwd', { fPassword: '123' }, token)).body.message).toBe('密码长度必须大于6位');
    expect((await s.call('/system/t-sys-user/updateUserPwd', { fPassword: 'second12' }, token)).body.success).toBe(true);
    expect((await s.call('/login', { userName: '13712345678', password: 'first12' })).body.success).toBe(false);
    await s.login({ phone: '13712345678', password: 'second12' });
  });

  it('refuses a logout with a body it does not take, and the session goes on', async () => {
    const token = await s.login(ADMIN);
    const send = (body: string, query = '') => fetch(`${s.url}/logout${query}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: token }, body });
    for (const [body, query, field] of [['{"id":"abc"}', '', 'id'], ['{"current":-1,"size":0}', '', 'current'], ['{"orders":{"nested":1}}', '', 'orders'], ['null', '', ''], ['{}', '?fId=1e308', 'fId']]) {
      const r = await send(body, query);
      expect(r.status, body + query).toBe(200);
      const answer = await r.json();
      expect(answer, body + query).toMatchObject({ success: false, message: field ? `请求格式错误：${field}` : '请求格式错误' });
      expect(answer.code).not.toBe(200);
      expect((await s.call('/get_info', {}, token)).status, body + query).toBe(200);
    }
    // The event stream's ticket, the other call that takes nothing and acts at once, is refused alike.
    expect((await s.call('/api/events/ticket', { userId: 1 }, token)).body).toMatchObject({ success: false, message: '请求格式错误：userId' });
    expect((await s.call('/logout', {}, token)).body.success).toBe(true);
    expect((await s.call('/get_info', {}, token)).status).toBe(700);
  });

  it('ends a session at logout, and every session at a password change', async () => {
    const [first, second] = [await s.login(ADMIN), await s.login(ADMIN)];
    expect((await s.call('/logout', {}, first)).body.success).toBe(true);
    expect((await s.call('/get_info', {}, first)).status).toBe(700);
    expect((await s.call('/get_info', {}, second)).status).toBe(200);

    await s.call('/register', { fChineseName: '王五', fPhone: '13512345678', fPassword: 'first12', passwordCheck: 'first12' });
    const [a, b] = [await s.login({ phone: '13512345678', password: 'first12' }), await s.login({ phone: '13512345678', password: 'first12' })];
    await new Promise((r) => setTimeout(r, 1100));
    expect((await s.call('/system/t-sys-user/updateUserPwd', { fPassword: 'second12' }, a)).body.success).toBe(true);
    expect((await s.call('/get_info', {}, a)).status).toBe(700);
    expect((await s.call('/get_info', {}, b)).status).toBe(700);
    const fresh = await s.login({ phone: '13512345678', password: 'second12' });
    expect((await s.call('/get_info', {}, fresh)).status).toBe(200);
  });

  it('limits login attempts per address and account', async () => {
    let last;
    for (let i = 0; i < 21; i++) last = await s.call('/login', { userName: '13900000000', password: 'guess' + i });
    expect(last!.body).toMatchObject({ success: false, code: 429 });
    // Another account from the same address is not held back by it.
    expect((await s.call('/login', { userName: USER.phone, password: USER.password })).body.success).toBe(true);
  });

  it('limits login attempts per account from all addresses together, on every replica', async () => {
    const replica = await s.replica();
    // Each attempt from its own loopback address (127.0.0.0/8), as an attacker rotating addresses would.
    const attempt = (i: number, userName: string, password: string) =>
      new Promise<any>((resolve, reject) => {
        const body = JSON.stringify({ userName, password });
        const target = new URL('/login', i % 2 ? replica.url : s.url);
        const req = request(target, { method: 'POST', localAddress: `127.0.${1 + (i >> 8)}.${1 + (i & 255)}`, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(JSON.parse(text)));
        });
        req.on('error', reject);
        req.end(body);
      });
    const answers = [];
    // Padded names are the same account.
    for (let i = 0; i < 60; i++) answers.push(await attempt(i, i % 3 ? AGENT.phone : ` ${AGENT.phone} `, 'guess' + i));
    expect(answers.every((a) => a.message === '账号或密码错误')).toBe(true);
    // The 61st, from yet another address, is refused even with the right password; other accounts are not held back.
    expect(await attempt(61, AGENT.phone, AGENT.password)).toMatchObject({ success: false, code: 429, message: '操作过于频繁，请稍后再试' });
    expect(await attempt(62, USER.phone, USER.password)).toMatchObject({ success: true, code: 200 });
  });

  it('records logins and writes in the operation log, without the password', async () => {
    const rows = await s.sql(`select logname, message, succeed from t_sys_log where logname = 'session.login' order by id`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.succeed === 0)).toBe(true);
    expect(rows.every((r) => !String(r.message).includes(ADMIN.password))).toBe(true);
  });

  it('serves health and the OpenAPI document', async () => {
    expect((await fetch(s.url + '/healthz')).status).toBe(200);
    // The document lists the calls the caller's token opens; without one, only the public calls.
    const anonymous = await (await fetch(s.url + '/openapi.json')).json();
    expect(anonymous.paths['/login']).toBeDefined();
    expect(anonymous.paths['/biz/t-device/devices']).toBeUndefined();
    const doc = await (await fetch(s.url + '/openapi.json', { headers: { authorization: await s.login(ADMIN) } })).json();
    expect(doc.paths['/biz/t-device/devices']).toBeDefined();
  });
});

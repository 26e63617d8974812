/**
 * A refusal says why by code beside the spec's words: `message` stays the zh-CN text whatever the
 * caller, and `reason` carries the code, its parameters and its text in the language the request's
 * Accept-Language asks for (docs/api.md, "Refusals and notices").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, USER, startServer, type TestServer } from './harness';

describe('refusals by code', () => {
  let s: TestServer;
  let admin: string;
  let user: string;
  /** POST with a language; answers the HTTP status and the envelope. */
  const ask = async (path: string, body: unknown, language?: string, token = admin) => {
    const response = await fetch(`${s.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: token } : {}), ...(language ? { 'accept-language': language } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };

  beforeAll(async () => {
    s = await startServer('pglite');
    admin = await s.login(ADMIN);
    user = await s.login(USER);
  }, 120_000);
  afterAll(() => s?.close());

  it('keeps the zh-CN message and words the reason in the language asked', async () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 40; i++) deep = { nested: deep };
    const en = await ask('/biz/t-device/devices', deep, 'en-US,en;q=0.9');
    expect(en.body).toMatchObject({ success: false, code: 400, message: '请求格式错误：嵌套层级过深', reason: { code: 'request.tooDeep', params: {}, text: 'The request is malformed: nested too deeply' } });
    const tw = await ask('/biz/t-device/devices', deep, 'zh-TW');
    expect(tw.body.reason.text).toBe('請求格式錯誤：嵌套層級過深');
    expect(tw.body.message).toBe('请求格式错误：嵌套层级过深');
    const none = await ask('/biz/t-device/devices', deep);
    expect(none.body.reason.text).toBe(none.body.message);
  });

  it('fills the parameters, a field’s label in the language asked', async () => {
    const long = await ask('/biz/t-device/devices', { condition: { keyword: 'x'.repeat(101) } }, 'en-US');
    expect(long.body.reason).toMatchObject({ code: 'query.fieldTooLong', params: { max: 100, label: { 'en-US': 'Device number' } }, text: 'The condition Device number is too long; at most 100 characters' });
    expect(long.body.message).toBe('查询条件设备编号过长，最多100个字符');
    const bad = await ask('/biz/t-firmware/firmwares', { current: 1, size: 10, condition: { beginTime: 'abc' } }, 'en-US');
    expect(bad.body.reason.code).toBe('query.fieldInvalid');
    expect(bad.body.reason.params.label).toMatchObject({ 'zh-CN': expect.any(String), 'en-US': expect.any(String) });
    expect(bad.body.reason.text).toContain(bad.body.reason.params.label['en-US']);
  });

  it('answers a field’s own message by its schema’s code, naming the field', async () => {
    const [product] = await s.sql<{ fId: number }>('select f_id from t_product order by f_id limit 1');
    const [device] = await s.sql<{ fNumber: string }>('select f_number from t_device order by f_id limit 1');
    const dup = await ask('/biz/t-device/addorupdate', { fNumber: device.fNumber, fProductId: product.fId, fName: 'again' }, 'en-US');
    expect(dup.body).toMatchObject({ code: 409, message: '设备编号已存在', data: { field: 'fNumber', rule: 'unique' }, reason: { code: 'device.fNumber.unique', text: expect.stringMatching(/already exists/i) } });
  });

  it('words the access refusals by code too', async () => {
    const forbidden = await ask('/system/t-sys-user/pageList', { current: 1, size: 10 }, 'en-US', user);
    expect(forbidden.status).toBe(401);
    expect(forbidden.body).toMatchObject({ message: '没有操作权限', reason: { code: 'access.forbidden', text: 'You do not have permission to do this' } });
    const expired = await ask('/biz/t-device/devices', {}, 'zh-TW', 'not-a-token');
    expect(expired.status).toBe(700);
    expect(expired.body.reason).toMatchObject({ code: 'access.loginExpired', text: '登錄已過期或無權訪問，請重新登錄' });
  });

  it('lists every code in the API document', async () => {
    const doc = await (await fetch(`${s.url}/openapi.json`)).json();
    const codes: string[] = doc.components.schemas.Reason.properties.code.enum;
    expect(codes).toEqual(expect.arrayContaining(['access.forbidden', 'request.tooDeep', 'device.fNumber.unique']));
    expect(doc.components.schemas.Refusal.properties.reason).toEqual({ $ref: '#/components/schemas/Reason' });
    // Each call lists the codes it may answer beyond every call's: a command its device's refusals.
    const full = await (await fetch(`${s.url}/openapi.json`, { headers: { authorization: admin } })).json();
    expect(full.paths['/app/device/send-switch'].post['x-reasons']).toEqual(expect.arrayContaining(['command.offline', 'command.device.locked']));
    expect(full.components.schemas.Reason['x-common']).toEqual(expect.arrayContaining(['access.forbidden', 'request.tooDeep']));
  });
});

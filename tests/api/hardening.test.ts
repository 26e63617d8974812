/**
 * Malformed input of the kinds seen in the wild answers a refusal in the envelope (HTTP 200, code ≠ 200)
 * before any query: wrong types, out-of-range integers, NUL characters, huge arrays, deep nesting, long
 * search patterns; ids are integers and nothing else; racing unique saves get the field's message; the
 * login limit believes no X-Forwarded-For from an unconfigured proxy.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, USER, backends, startServer, type TestServer } from './harness';

describe.each(backends)('bad input on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  const call = (path: string, body: unknown = {}, token = admin) => s.call(path, body, token);
  /** A refusal: the envelope with a message, never a server error. */
  const refused = async (path: string, body: unknown) => {
    const r = await call(path, body);
    expect(r.status, `${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(200);
    expect(r.body.success).toBe(false);
    expect(r.body.code).not.toBe(200);
    expect(r.body.message).toBeTruthy();
    return r.body.message as string;
  };

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login(ADMIN);
  }, 120_000);
  afterAll(() => s?.close());

  it('sends the security headers with every answer: a call, a refusal, an unknown path', async () => {
    const answers = [
      (await call('/biz/t-device/devices', { current: 1, size: 10 })).headers,
      (await call('/biz/t-device/devices', { condition: { product_id: 'abc' } })).headers,
      (await fetch(`${s.url}/no/such/path`)).headers,
      (await fetch(`${s.url}/healthz`)).headers,
    ];
    for (const h of answers) {
      expect(h.get('content-security-policy')).toContain("default-src 'self'");
      expect(h.get('content-security-policy')).toContain("style-src 'self' 'unsafe-inline'");
      expect(h.get('x-content-type-options')).toBe('nosniff');
      expect(h.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(h.get('strict-transport-security')).toBeNull();
    }
  });

  it('checks condition values against their columns', async () => {
    await refused('/biz/t-device/devices', { current: 1, size: 10, condition: { product_id: 'abc' } });
    await refused('/biz/t-device/devices', { current: 1, size: 10, condition: { product_id: 2147483648 } });
    await refused('/biz/t-firmware/firmwares', { current: 1, size: 10, condition: { beginTime: 'abc' } });
    await refused('/biz/t-product-json/pagelist', { current: 1, size: 10, condition: { fBid: [1, 2] } });
    await refused('/biz/t-device/devices', { condition: { keyword: 'x'.repeat(101) } });
    // Still answered: a digit string for an integer filter, and absurd paging is clamped.
    const ok = await call('/biz/t-device/devices', { current: 1e308, size: 9007199254740992, condition: { product_id: '1' } });
    expect(ok.body).toMatchObject({ code: 200, success: true });
    expect((await call('/biz/t-firmware/firmwares', { current: 9007199254740992 })).body.success).toBe(true);
  });

  it('refuses ids that are not integers of the column', async () => {
    for (const fId of [true, '1', 1.5, 2147483648, -1, [1], { a: 1 }]) {
      await refused('/biz/t-firmware/firmware', { fId });
    }
    // The administrator's password stays as it was: `true` is not id 1.
    await refused('/system/t-sys-user/resetUserPwd', { fId: true });
    expect(await s.login(ADMIN)).toBeTruthy();
    await refused('/app/device/device-total', { deviceIds: [2147483648], stime: '2026-01-01', etime: '2026-01-02' });
    const body = await call('/system/t-area-info/addOrEditAreaInfo', { fAreaId: 2147483648, fAreaName: 'x' });
    expect(body.status).toBe(200);
    expect(body.body.success).toBe(false);
  });

  it('refuses a list of ids with any bad item whole, and applies none of it', async () => {
    const [{ fId: user }] = await s.sql(`select f_id from t_sys_user where f_phone = '${USER.phone}'`);
    const [{ fId: device }] = await s.sql(`select f_id from t_device where f_id not in (select f_device_id from t_user_device where f_user_id = ${user}) order by f_id limit 1`);
    const shares = async () => (await s.sql(`select count(*)::int as n from t_user_device where f_user_id = ${user}`))[0].n;
    const before = await shares();
    for (const bad of ['abc', '', 0, -3, 1.5, true, null, '1e3', 2147483648, '2147483648', [1]]) {
      expect(await refused('/app/device/device-share-more', { deviceIds: [device, bad], user: USER.phone })).toMatch(/^请求格式错误：deviceIds/);
    }
    for (const bad of ['abc', '', '0', '-3', '1.5', '1e3', '2147483648']) {
      expect(await refused('/app/device/device-share-more', { deviceIds: `${device},${bad}`, user: USER.phone })).toBe('请求格式错误：deviceIds');
    }
    // The message names the list, and the item where the call's declaration catches it (deviceIds.1).
    expect(await refused('/biz/t-device/send', { fIds: [device, 'x'], fCmdType: 1 })).toMatch(/^请求格式错误：fIds/);
    expect(await refused('/app/device/device-total', { deviceIds: [device, 'x'], stime: '2026-01-01', etime: '2026-01-02' })).toMatch(/^请求格式错误：deviceIds/);
    expect(await shares()).toBe(before);
    // Ids as the legacy console sends them still count: digits in a string, a comma list, repeats.
    expect((await call('/app/device/device-share-more', { deviceIds: ` ${device},${device}`, user: USER.phone })).body.success).toBe(true);
    expect(await shares()).toBe(before + 1);
  });

  it('refuses NUL characters, huge arrays and deep nesting, and stays up', async () => {
    expect(await refused('/biz/t-firmware/firmwares', { condition: { name: 'a\u0000b' } })).toContain('空字符');
    expect(await refused('/biz/t-device/send', { fIds: Array.from({ length: 5001 }, (_, i) => i + 1), cmd: 1 })).toContain('5000');
    // Written by hand: JSON.stringify itself cannot nest this deep.
    const nested = '{"a":'.repeat(5000) + '{}' + '}'.repeat(5000);
    const r = await fetch(`${s.url}/logout`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: admin }, body: nested });
    expect(r.status).toBe(200);
    expect((await r.json()).success).toBe(false);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });

  it('answers a long search pattern at once instead of scanning', async () => {
    const started = Date.now();
    expect(await refused('/system/log/pageList', { current: 1, size: 10, condition: { keyword: 'x'.repeat(10_000) } })).toContain('过长');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses a body past its call\'s limit before reading it, and documents the limit', async () => {
    const doc = await (await fetch(`${s.url}/openapi.json`, { headers: { authorization: admin } })).json();
    const limit = doc.paths['/system/log/pageList'].post['x-body-limit'];
    expect(limit).toBeGreaterThanOrEqual(64 * 1024);
    expect(limit).toBeLessThan(1024 * 1024);
    // A rich-text save takes more than a list call; an upload its file's size.
    expect(doc.paths['/biz/t-help-manual/addOrUpdateHelpManual'].post['x-body-limit']).toBeGreaterThan(limit);
    expect(doc.paths['/api/upload'].post['x-body-limit']).toBeGreaterThan(2 * 1024 * 1024);
    const r = await call('/system/log/pageList', { condition: { keyword: 'x'.repeat(limit) } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 413, success: false });
    expect(r.body.message).toMatch(/请求内容过大，最多\d+ KB/);
    // Refused from the declared length, so an upload larger than its limit is not read either.
    const big = await fetch(`${s.url}/api/upload`, { method: 'POST', headers: { authorization: admin, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(50 * 1024 * 1024) }, body: Buffer.alloc(1024) as unknown as BodyInit }).catch(() => null);
    if (big) expect((await big.json()).code).toBe(413);
    expect((await call('/system/log/pageList', { current: 1, size: 10 })).body.success).toBe(true);
  });

  it('answers the unique message to saves that race each other', async () => {
    const saves = Array.from({ length: 8 }, () => call('/biz/t-product/addorupdate', { fNumber: 'RACE-1', fName: '竞态产品', fCategoryId: 1, fProtocol: 1, fDeviceType: 1 }));
    const answers = await Promise.all(saves);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.body.success).length).toBe(1);
    const messages = new Set(answers.filter((a) => !a.body.success).map((a) => a.body.message));
    expect(messages.size).toBe(1);
    expect([...messages][0]).toMatch(/已存在/);
  });

  it('believes no X-Forwarded-For and counts padded account names as the same account', async () => {
    const attempt = (i: number, name = '13900000009') =>
      fetch(`${s.url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.${i >> 8}.${i & 255}` },
        body: JSON.stringify({ userName: i % 2 ? ` ${name} ` : name, password: 'wrong-password' }),
      }).then((r) => r.json());
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push(await attempt(i));
    expect(answers.slice(20).every((a) => a.code === 429)).toBe(true);
  });

  it('opens the event stream with a single-use ticket, never with the token in the URL', async () => {
    expect((await fetch(`${s.url}/api/events?token=${encodeURIComponent(admin)}`)).status).toBe(700);
    const { ticket } = (await call('/api/events/ticket')).body.data;
    const controller = new AbortController();
    const stream = await fetch(`${s.url}/api/events?ticket=${ticket}`, { signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    expect(stream.headers.get('x-content-type-options')).toBe('nosniff');
    controller.abort();
    expect((await fetch(`${s.url}/api/events?ticket=${ticket}`)).status).toBe(700);
    expect((await s.call('/api/events/ticket', {})).status).toBe(700);
  });

  it('compresses JSON answers for a client that accepts it, and only those', async () => {
    /** The call's answer as it crossed the wire (fetch would undo the encoding). */
    const raw = (path: string, body: unknown, acceptEncoding?: string) =>
      new Promise<{ headers: Record<string, string | string[] | undefined>; bytes: Buffer }>((resolve, reject) => {
        const payload = body === undefined ? '' : JSON.stringify(body);
        const method = body === undefined ? 'GET' : 'POST';
        const req = request(`${s.url}${path}`, { method, headers: { authorization: admin, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}), ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end(payload);
      });
    const page = { current: 1, size: 50 };
    const plain = await raw('/biz/t-device/devices', page);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    const answer = JSON.parse(plain.bytes.toString());
    expect(answer.data.records.length).toBeGreaterThan(1);

    const br = await raw('/biz/t-device/devices', page, 'gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.bytes.length).toBeLessThan(plain.bytes.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.bytes).toString())).toEqual(answer);

    const gzip = await raw('/biz/t-device/devices', page, 'gzip;q=1, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.bytes).toString())).toEqual(answer);

    expect((await raw('/biz/t-device/devices', page, 'identity')).headers['content-encoding']).toBeUndefined();
    // A big answer (the API document, megabytes) is compressed off the event loop, to the same effect.
    const document = await raw('/openapi.json', undefined);
    expect(document.bytes.length).toBeGreaterThan(64 * 1024);
    for (const encoding of ['br', 'gzip']) {
      const packed = await raw('/openapi.json', undefined, encoding);
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(packed.bytes.length).toBeLessThan(document.bytes.length / 5);
      expect((encoding === 'br' ? brotliDecompressSync(packed.bytes) : gunzipSync(packed.bytes)).equals(document.bytes)).toBe(true);
    }
    // A script no build compressed (the API viewer's) is compressed as it streams out, whole and intact;
    // a range of it is sent as asked.
    const bundle = readFileSync(join(dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')), 'swagger-ui-bundle.js'));
    const plainFile = await raw('/api-docs/assets/swagger-ui-bundle.js', undefined);
    expect(plainFile.headers['content-encoding']).toBeUndefined();
    expect(plainFile.bytes.equals(bundle)).toBe(true);
    const packedFile = await raw('/api-docs/assets/swagger-ui-bundle.js', undefined, 'gzip, deflate, br');
    expect(packedFile.headers['content-encoding']).toBe('br');
    expect(packedFile.bytes.length).toBeLessThan(bundle.length / 3);
    expect(brotliDecompressSync(packedFile.bytes).equals(bundle)).toBe(true);
    // A short answer goes as it is: compressing a packet's worth saves nothing.
    const short = await raw('/biz/t-device/device', { fId: answer.data.records[0].fId + 1e6 }, 'br');
    expect(short.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(short.bytes.toString()).success).toBe(false);
  });
});

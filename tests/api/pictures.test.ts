/**
 * Picture fields (`"format": "picture"` / `"pictures"`, contract/picture.ts) keep only what the upload
 * answered or an http(s) address: a path or a script address is refused with the field's message, naming
 * field and rule, on every kind of save that writes one — the generated saves (watch-list photo, document,
 * platform and rental-file covers, product picture), the hand-written user save (avatar) — and the
 * alarm sign-off stores a photo it is sent only when it is a picture.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, backends, startServer, type TestServer } from './harness';
import { solidPng } from '../../server/administration/feedback';
import { entity } from '../../server/crud/engine';
import { validateBody } from '../../server/crud/validate';
import type { User } from '../../server/crud/types';

const BAD = ['../../etc/passwd', 'javascript:alert(1)'];
const REFUSED = '文件格式不正确';

describe.each(backends)('picture fields on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  let uploaded: string;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login(ADMIN);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(solidPng(4, 4, [10, 20, 30]))]), 'face.png');
    const res = await fetch(`${s.url}/api/upload`, { method: 'POST', headers: { authorization: admin }, body: form });
    uploaded = (await res.json()).data;
    expect(uploaded).toMatch(/^[0-9a-f]{32}\.png$/);
  }, 120_000);
  afterAll(() => s?.close());

  /** The save of one stored row, changing only the picture field. */
  const kinds: { what: string; table: string; key: string; path: string; field: string; column: string }[] = [
    { what: 'watch-list photo', table: 't_control_person', key: 'f_id', path: '/biz/t-control-person/addOrUpdateControlPerson', field: 'fFace', column: 'f_face' },
    { what: 'help-manual cover', table: 't_document', key: 'f_id', path: '/biz/t-help-manual/addOrUpdateHelpManual', field: 'fImage', column: 'f_image' },
    { what: 'platform document cover', table: 't_platform', key: 'f_id', path: '/biz/t-platform/addOrUpdatePlatform', field: 'fImage', column: 'f_image' },
    { what: 'rental file cover', table: 't_rental_file', key: 'f_id', path: '/biz/t-rental-file/addOrUpdateFile', field: 'fImage', column: 'f_image' },
    { what: 'product picture', table: 't_product', key: 'f_id', path: '/biz/t-product/addorupdate', field: 'fImageName', column: 'f_image_name' },
  ];

  it.each(kinds)('the $what takes an uploaded name or an https address, and refuses a path or a script address', async ({ table, key, path, field, column }) => {
    const [row] = await s.sql(`select ${key} as id, ${column} as before from ${table} order by ${key} limit 1`);
    expect(row, `a stored row of ${table}`).toBeTruthy();
    for (const value of BAD) {
      const r = await s.call(path, { fId: row.id, [field]: value }, admin);
      expect(r.status).toBe(200);
      expect(r.body, value).toEqual({ code: 400, success: false, message: REFUSED, data: { field, rule: 'format' }, reason: expect.objectContaining({ code: expect.stringMatching(new RegExp(`\\.${field}\\.format$|^field\\.invalid$`)) }) });
    }
    expect(await s.sql(`select ${column} as v from ${table} where ${key} = ${row.id}`)).toEqual([{ v: row.before }]);
    for (const value of [uploaded, 'https://img.example.com/watch/face-01.jpg?size=large']) {
      const r = await s.call(path, { fId: row.id, [field]: value }, admin);
      expect(r.body.success, `${value}: ${r.body.message}`).toBe(true);
      expect(await s.sql(`select ${column} as v from ${table} where ${key} = ${row.id}`)).toEqual([{ v: value }]);
    }
  });

  it('the user avatar (a hand-written save) keeps the same rule and words', async () => {
    const [role] = await s.sql(`select id from t_sys_role where alias = 'user'`);
    const user = (fPhone: string, fPic: string) => ({ fAdmin: 0, fChineseName: '头像', fPhone, roles: [role.id], fPassword: 'Avatar@1', passwordCheck: 'Avatar@1', fPic });
    for (const value of BAD) {
      const r = await s.call('/system/t-sys-user/addOrUpdateSysUser', user('13455550001', value), admin);
      expect(r.body, value).toEqual({ code: 400, success: false, message: REFUSED, data: { field: 'fPic', rule: 'format' }, reason: expect.objectContaining({ code: 'user.fPic.format' }) });
    }
    const byName = await s.call('/system/t-sys-user/addOrUpdateSysUser', user('13455550001', uploaded), admin);
    expect(byName.body.data.fPic).toBe(uploaded);
    const byAddress = await s.call('/system/t-sys-user/addOrUpdateSysUser', user('13455550002', 'https://img.example.com/a.png'), admin);
    expect(byAddress.body.data.fPic).toBe('https://img.example.com/a.png');
  });

  it('feedback photos, a comma list, are held to the rule item by item', () => {
    const feedback = entity('feedback');
    const admin = { fId: 1, fAdmin: 1, permissions: new Set<string>() } as unknown as User;
    const check = (fPhotos: string) => validateBody(feedback, { fPhotos }, 'update', admin);
    expect(check(`${uploaded},https://img.example.com/b.jpg`)).toEqual({ fPhotos: `${uploaded},https://img.example.com/b.jpg` });
    for (const value of BAD) {
      expect(() => check(`${uploaded},${value}`)).toThrow(REFUSED);
      expect(() => check(value)).toThrow(REFUSED);
    }
    expect(() => check(`${uploaded},,${uploaded}`)).toThrow(REFUSED);
  });

  it('an alarm sign-off stores a photo it is sent only when it is a picture', async () => {
    const alarms = await s.sql(`select f_id, f_photo_url from t_alarm where f_status = 0 order by f_id limit 3`);
    expect(alarms).toHaveLength(3);
    const sign = (fId: number, fPhotoUrl: string) => s.call('/biz/t-alarm/signing', { fId, fHandleContent: '已核查', fRemark: '', fPhotoUrl }, admin);
    expect((await sign(alarms[0].fId, 'javascript:alert(1)')).body.success).toBe(true);
    expect((await sign(alarms[1].fId, '../../etc/passwd')).body.success).toBe(true);
    expect((await sign(alarms[2].fId, 'https://cam.example.com/snap/1.jpg')).body.success).toBe(true);
    const after = await s.sql(`select f_id, f_photo_url from t_alarm where f_id in (${alarms.map((a) => a.fId).join(',')}) order by f_id`);
    expect(after.map((a) => a.fPhotoUrl)).toEqual([alarms[0].fPhotoUrl, alarms[1].fPhotoUrl, 'https://cam.example.com/snap/1.jpg']);
  });
});

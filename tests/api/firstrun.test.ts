/** What a new user meets first: the root address, readable operation-log names, a menu tree without orphans. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, backends, startServer, type TestServer } from './harness';
import { syncMenus } from '../../server/db/menus';
import { unnamedWrites } from '../../server/oplog';

describe.each(backends)('first run on %s', (backend) => {
  let s: TestServer;
  let admin: string;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login(ADMIN);
  }, 60_000);
  afterAll(() => s?.close());

  it('redirects / to the console\'s home under its base path, whatever the Accept header', async () => {
    for (const headers of [{}, { accept: 'text/html,application/xhtml+xml' }, { accept: '*/*' }] as Record<string, string>[]) {
      const res = await fetch(s.url + '/', { headers, redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/homeschool/home');
    }
    // API calls are untouched.
    expect((await s.call('/biz/t-group/addorupdate', { fName: '' }, admin)).status).toBe(200);
    const unknown = await fetch(s.url + '/no-such-call', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unknown.status).toBe(404);
  });

  it('seeds every dictionary entry with the words schemas/dictionaries.json translates', async () => {
    // The console shows a seeded entry in its language only while its words are the seeded ones.
    const declared = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'schemas', 'dictionaries.json'), 'utf8')) as Record<string, Record<string, { 'zh-CN': string }> | string>;
    const seeded = await s.sql(`select f_key, f_value, f_content from t_sys_dic order by f_key, f_value`);
    const translated = Object.entries(declared).filter(([k]) => k !== '$comment').flatMap(([key, values]) => Object.entries(values as object).map(([value, words]) => ({ fKey: key, fValue: value, fContent: words['zh-CN'] })));
    expect(translated.length).toBeGreaterThan(20);
    for (const entry of seeded) expect(translated).toContainEqual(entry);
    expect(seeded.length).toBe(translated.length);
  });

  const LOG = '/system/log/pageList';
  const newest = async () => (await s.call(LOG, { current: 1, size: 1, condition: {} }, admin)).body.data.records[0];

  it('names a standard write by the entity and its verb in three languages', async () => {
    const saved = await s.call('/biz/t-group/addorupdate', { fName: '日志分组' }, admin);
    expect(saved.body.success).toBe(true);
    const row = await newest();
    expect(row).toMatchObject({ logname: 'group.save', succeed: 1, lognames: { key: 'group.save', 'zh-CN': '分组保存', 'zh-TW': '分組儲存', 'en-US': 'Save group' } });
  });

  it('names a declared handler write and a hand-written call', async () => {
    const [device] = await s.sql(`select f_id from t_device order by f_id limit 1`);
    await s.call('/biz/t-device/able-device', { fId: device.fId }, admin);
    expect(await newest()).toMatchObject({ logname: 'device.able', lognames: { 'en-US': 'Activate device' } });

    const role = await s.call('/system/t-sys-role/addOrUpdateSysRole', { name: '日志角色', alias: 'log-role' }, admin);
    const row = await newest();
    expect(row.logname).toBe('role.save');
    expect(row.succeed).toBe(role.body.success ? 1 : 0);
    expect(row.lognames).toMatchObject({ 'zh-CN': '保存角色', 'zh-TW': '儲存角色', 'en-US': 'Save role' });
  });

  it('still names rows written before keys were stored (a path, or the zh-CN words)', async () => {
    await s.sql(`insert into t_sys_log (message, logtype, logname, succeed) values ('{}', 'POST', '/biz/t-group/del', 1)`);
    expect(await newest()).toMatchObject({ logname: '/biz/t-group/del', lognames: { 'zh-CN': '分组删除', 'en-US': 'Delete group' } });
    await s.sql(`insert into t_sys_log (message, logtype, logname, succeed) values ('{}', 'POST', '登录', 1)`);
    expect(await newest()).toMatchObject({ logname: '登录', lognames: { key: 'session.login', 'en-US': 'Sign in' } });
    await s.sql(`insert into t_sys_log (message, logtype, logname, succeed) values ('{}', 'POST', '/gone/call', 1)`);
    expect(await newest()).toMatchObject({ logname: '/gone/call', lognames: null });
  });

  it('has a name for every registered write', () => {
    expect([...unnamedWrites]).toEqual([]);
  });

  const orphans = () =>
    s.sql(`select b.permissions, b.menu_name from t_sys_permission_menu b
           left join t_sys_permission_menu p on p.id = b.parent_id
           where b.f_permission_type = 2 and (b.parent_id is null or b.parent_id = 0 or p.id is null or p.f_permission_type <> 1)`);

  it('puts every button permission under a menu', async () => {
    expect(await orphans()).toEqual([]);
    const [timer] = await s.sql(`select p.menu_uri from t_sys_permission_menu b join t_sys_permission_menu p on p.id = b.parent_id where b.permissions = 'deviceAlarmCabinet:list'`);
    expect(timer.menuUri).toBe('/device');
    const [share] = await s.sql(`select p.menu_uri from t_sys_permission_menu b join t_sys_permission_menu p on p.id = b.parent_id where b.permissions = 'device:share-del'`);
    expect(share.menuUri).toBe('/device');
    // A code two entities declare stays under the page of the entity that owns it.
    const [edit] = await s.sql(`select p.menu_uri from t_sys_permission_menu b join t_sys_permission_menu p on p.id = b.parent_id where b.permissions = 'group:edit'`);
    expect(edit.menuUri).toBe('/group');
  });

  it('re-parents the buttons of an older database on the next start', async () => {
    await s.sql(`update t_sys_permission_menu set parent_id = 0 where f_permission_type = 2`);
    expect((await orphans()).length).toBeGreaterThan(19);
    await syncMenus(s.db);
    expect(await orphans()).toEqual([]);
  });

  it('rewrites on a restart only the menu rows that differ from the resource files', async () => {
    await s.sql(`update t_sys_permission_menu set menu_name = 'renamed by hand' where permissions = 'device:list'`);
    const versions = () => s.sql(`select permissions, xmin::text as version from t_sys_permission_menu order by id`);
    const before = await versions();
    await syncMenus(s.db);
    const after = await versions();
    // One row put back as the resource files have it; every other row untouched (same row version).
    expect(after.filter((r, i) => r.version !== before[i].version).map((r) => r.permissions)).toEqual(['device:list']);
    expect((await s.sql(`select menu_name from t_sys_permission_menu where permissions = 'device:list'`))[0].menuName).not.toBe('renamed by hand');
  });

  it('seeds firmware, groups with devices and a department tree', async () => {
        const firmware = await s.call('/biz/t-firmware/firmwares', { current: 1, size: 10, condition: {} }, admin);
    expect(firmware.body.data.total).toBeGreaterThanOrEqual(3);
    const agent = await s.login(AGENT);
    const groups = await s.call('/biz/t-group/groups', { current: 1, size: 10, condition: {} }, agent);
    expect(groups.body.success).toBe(true);
    const [bound] = await s.sql(`select count(*)::int as n from t_group_device`);
    expect(bound.n).toBeGreaterThan(0);
    const tree = await s.call('/system/t-department-info/treeList', {}, admin);
    expect(JSON.stringify(tree.body.data)).toContain('天河运维组');
  });

  it('tells the console the server time zone at login and in the session', async () => {
    const login = await s.call('/login', { userName: ADMIN.phone, password: ADMIN.password });
    expect(login.body.data.timeZone).toBeTruthy();
    expect((await s.call('/get_info', {}, login.body.data.token)).body.data.timeZone).toBe(login.body.data.timeZone);
  });
});

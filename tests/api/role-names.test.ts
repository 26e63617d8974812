/**
 * The roles the product brings read in the caller's language wherever a role's name is answered: the
 * role list, the user form's role choice, the user list and a user's details. A role's own name, or a
 * built-in one renamed, reads as written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, backends, startServer, type TestServer } from './harness';

const NAMES = {
  'zh-CN': { admin: '超级管理员', agent: '代理商', user: '普通用户', officer: '民警' },
  'zh-TW': { admin: '超級管理員', agent: '代理商', user: '一般使用者', officer: '民警' },
  'en-US': { admin: 'Administrator', agent: 'Agent', user: 'User', officer: 'Officer' },
} as const;
type Language = keyof typeof NAMES;

describe.each(backends)('role names on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  const call = async (path: string, body: unknown, language: Language) =>
    (await fetch(s.url + path, { method: 'POST', headers: { 'content-type': 'application/json', 'accept-language': language, authorization: admin }, body: JSON.stringify(body) })).json();
  const byAlias = (rows: { alias: string; name: string }[]) => Object.fromEntries(rows.filter((r) => r.alias in NAMES['zh-CN']).map((r) => [r.alias, r.name]));

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login(ADMIN);
  });
  afterAll(() => s?.close());

  it('stores the built-in names in zh-CN and answers them in each language', async () => {
    expect(byAlias(await s.sql(`select alias, name from t_sys_role`))).toEqual(NAMES['zh-CN']);
    for (const language of Object.keys(NAMES) as Language[]) {
      const list = await call('/system/t-sys-role/pageList', { current: 1, size: 50 }, language);
      expect(byAlias(list.data.records)).toEqual(NAMES[language]);
      const choice = await call('/system/t-sys-role/list', {}, language);
      expect(byAlias(choice.data)).toEqual(NAMES[language]);
      expect(Object.fromEntries(choice.data.filter((r: { alias: string }) => r.alias in NAMES[language]).map((r: { alias: string; fName: string }) => [r.alias, r.fName]))).toEqual(NAMES[language]);
    }
  });

  it("words a user's roles in the list and the details in the caller's language", async () => {
    const [{ fId }] = await s.sql(`select f_id from t_sys_user where f_phone = '${ADMIN.phone}'`);
    for (const language of Object.keys(NAMES) as Language[]) {
      const list = await call('/system/t-sys-user/pageList', { current: 1, size: 50, condition: { userType: 1 } }, language);
      const me = list.data.records.find((r: { fId: number }) => r.fId === fId);
      expect(me.roleNames).toBe(NAMES[language].admin);
      const info = await call('/system/t-sys-user/getUserInfo', { fId }, language);
      expect(info.data.roleids.map((r: { name: string }) => r.name)).toEqual([NAMES[language].admin]);
    }
  });

  it('keeps a role of its own, or a renamed built-in one, as written, and a save of the shown name keeps the catalogue name', async () => {
    const created = await call('/system/t-sys-role/addOrUpdateSysRole', { name: '巡查员', alias: 'patrol' }, 'en-US');
    expect(created.success).toBe(true);
    const [agent] = await s.sql(`select id from t_sys_role where alias = 'agent'`);
    // The English console shows "Agent" and saves it back unchanged: the stored name stays the catalogue's.
    expect((await call('/system/t-sys-role/addOrUpdateSysRole', { id: agent.id, name: 'Agent', alias: 'agent' }, 'en-US')).success).toBe(true);
    expect((await s.sql(`select name from t_sys_role where alias = 'agent'`))[0].name).toBe('代理商');
    expect((await call('/system/t-sys-role/addOrUpdateSysRole', { id: agent.id, name: '渠道商', alias: 'agent' }, 'zh-CN')).success).toBe(true);
    const list = await call('/system/t-sys-role/pageList', { current: 1, size: 50 }, 'en-US');
    const names = Object.fromEntries(list.data.records.map((r: { alias: string; name: string }) => [r.alias, r.name]));
    expect(names).toMatchObject({ patrol: '巡查员', agent: '渠道商', admin: 'Administrator' });
  });
});

/**
 * The scope matrix, generated from the declarations rather than listed by hand: every list and read call
 * of the route table (server/generated/routes.ts), asked by every demo role and by a user of a role built
 * for each single code those calls need, plainly and with the keys no declaration of the call names added
 * (at the top level and in the condition: claims of a user type, an owner, an administrator). Every row a
 * caller gets must be a row the administrator sees, and lie within the caller's scope as the entity
 * declares it (server/generated/entities.ts) — checked here with SQL of the test's own, from what is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, AGENT, OFFICER, USER, backends, startServer, type TestServer } from './harness';
import { routes } from '../../server/generated/routes';
import { entities } from '../../server/generated/entities';
import type { EntityModel, RouteSpec } from '../../server/crud/types';
import { codesOf } from '../../server/crud/access';

type Row = Record<string, any>;

const READS = new Set(['list', 'get', 'all']);
const isRead = (r: RouteSpec) => READS.has(r.as ?? r.action) || (Boolean(r.handler) && !r.notice);

/** Claims a request may carry that decide nothing unless a call's declaration names them. */
const CLAIMS: Record<string, unknown> = { userType: 2, fUserType: 2, fAdmin: 1, isAdmin: true, admin: true, userId: 1, fUserId: 1, ownerId: 1, all: true, scope: 'all', fAreaIds: '', streets: '' };

/** The keys a route's declaration names: its variant's, and its entity's filters. */
function declared(route: RouteSpec, model: EntityModel): Set<string> {
  const v = route.variantBy;
  return new Set([...(v?.key ? [v.key] : []), ...(v?.keys ?? []).flatMap((g) => g.keys), ...model.filters.map((f) => f.key), 'current', 'size', 'pageSize', 'condition', 'orders']);
}

function claimsFor(route: RouteSpec, model: EntityModel): Row {
  const named = declared(route, model);
  return Object.fromEntries(Object.entries(CLAIMS).filter(([k]) => !named.has(k) && !(route.variantBy?.aliases ?? []).includes(k)));
}

/** A row of a call answering other rows than its entity's, by its id (figures without one are not rows). */
const identity = (row: Row) => (row.fId ?? row.id) === undefined ? undefined : String(row.fId ?? row.id);

/** The rows of an answer: a page's records, a list, a tree (children included) or one object. */
function rowsOf(data: unknown): Row[] {
  const out: Row[] = [];
  const walk = (r: unknown) => {
    if (!r || typeof r !== 'object') return;
    if (Array.isArray(r)) return r.forEach(walk);
    const row = r as Row;
    out.push(row);
    if (Array.isArray(row.children)) row.children.forEach(walk);
  };
  const d = data as Row | null;
  walk(d && typeof d === 'object' && !Array.isArray(d) && Array.isArray(d.records) ? d.records : d);
  return out;
}

describe.each(backends)('every read, every role, within scope, on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  const callers: { name: string; token: string; id: number; codes?: string[] }[] = [];
  const reads = routes.filter(isRead);

  /** The caller's jurisdiction as the test reads it from the user row: region codes (with those under them) and streets. */
  async function jurisdictionOf(id: number): Promise<{ areas: number[]; streets: number[] }> {
    const [u] = await s.sql(`select f_area_ids, streets from t_sys_user where f_id = ${id}`);
    const list = (v: unknown) => String(v ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
    const chosen = list(u.fAreaIds);
    const areas = chosen.length
      ? (await s.sql(`with recursive under(code) as (select f_area_id from t_area_info where f_area_id = any(array[${chosen.join(',')}]::int[]) union select a.f_area_id from t_area_info a join under on a.f_high_area_id = under.code) select code from under`)).map((r) => Number(r.code))
      : [];
    return { areas, streets: list(u.streets) };
  }

  /** Of these stored rows, those in the caller's scope as their entity declares it. */
  async function inScope(model: EntityModel, pks: unknown[], caller: { id: number }): Promise<Set<string>> {
    const decl = model.scope;
    if (decl === 'everyone' || decl === 'hook') return new Set(pks.map(String));
    if (decl === 'administrator') return new Set();
    const j = await jurisdictionOf(caller.id);
    const within = (alias: string) => `(${alias}.f_area_id = any(array[${j.areas.join(',') || 'null'}]::int[]) or ${alias}.f_street_id = any(array[${j.streets.join(',') || 'null'}]::int[]))`;
    const col = (f: string) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const tests: string[] = [];
    if (decl.owner) tests.push(`t.${col(decl.owner)} = ${caller.id}`);
    if (decl.jurisdiction === 'self') tests.push(within('t'));
    else if (decl.jurisdiction) tests.push(`exists (select 1 from t_house_info h where h.f_house_id = t.${col(decl.jurisdiction)} and ${within('h')})`);
    if (decl.renting) tests.push(`exists (select 1 from t_tenant_house l join t_house_info h on h.f_house_id = l.f_house_id where l.f_user_id = t.${col(decl.renting)} and l.f_status = 2 and ${within('h')})`);
    const ids = pks.map(Number).filter(Number.isInteger);
    const rows = await s.sql(`select t.${col(model.primaryKey)} as pk from ${model.table} t where t.${col(model.primaryKey)} = any(array[${ids.join(',') || 'null'}]::int[]) and (${tests.join(' or ') || 'false'})`);
    return new Set(rows.map((r) => String(r.pk)));
  }

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login(ADMIN);
    for (const [name, account] of Object.entries({ agent: AGENT, user: USER, officer: OFFICER })) {
      const [u] = await s.sql(`select f_id from t_sys_user where f_phone = '${account.phone}'`);
      callers.push({ name, token: await s.login(account), id: u.fId });
    }
    // A role, and a staff user without a jurisdiction holding it, for each single code of the reads.
    const codes = [...new Set(reads.flatMap(codesOf))];
    for (const [i, code] of codes.entries()) {
      const alias = `only_${i}`;
      await s.sql(`insert into t_sys_role (name, alias) values ('${code}', '${alias}')`);
      await s.grant(alias, [code]);
      const [u] = await s.sql(`insert into t_sys_user (f_chinese_name, f_phone, f_password, f_admin, f_user_type, f_status) values ('${alias}', '170${String(10000000 + i)}', 'x', 0, 1, 1) returning f_id`);
      await s.sql(`insert into t_sys_user_role (user_id, role_id) select ${u.fId}, id from t_sys_role where alias = '${alias}'`);
      callers.push({ name: code, token: await s.token(u.fId), id: u.fId, codes: [code] });
    }
  }, 300_000);
  afterAll(() => s?.close());

  it('gives each caller only rows the administrator sees, within the caller’s declared scope', async () => {
    const leaks: string[] = [];
    let checked = 0;
    for (const route of reads) {
      const model = entities[route.entity] as EntityModel;
      const standard = route.as ?? route.action;
      const page = { current: 1, size: 1000, pageSize: 1000, condition: {} as Row };
      // A read of one row names it: the first rows of the administrator's list (and the administrator).
      let bodies: Row[] = [page];
      if (standard === 'get' || route.variantBy?.in === 'body' || route.variantBy?.in === 'row') {
        const listed = rowsOf((await s.call(routes.find((r) => r.entity === route.entity && (r.as ?? r.action) === 'list')?.path ?? route.path, page, admin)).body.data);
        const ids = [...new Set([1, ...listed.slice(0, 4).map((r) => r[model.primaryKey])])];
        bodies = ids.flatMap((id) => [{ [model.primaryKey]: id, fId: id }, ...(route.variantBy?.keys ?? []).map((g) => ({ [g.keys[0]]: id }))]);
      }
      for (const body of bodies) {
        const seen = await s.call(route.path, body, admin);
        const adminRows = rowsOf(seen.body?.success ? seen.body.data : null);
        const adminKeys = new Set(adminRows.map((r) => String(r[model.primaryKey])));
        const adminIds = new Set(adminRows.map(identity));
        const complete = !(seen.body?.data && typeof seen.body.data === 'object' && 'total' in (seen.body.data as Row) && (seen.body.data as Row).total > 1000);
        const claims = claimsFor(route, model);
        const asked = [body, { ...body, ...claims }, { ...body, condition: { ...(body.condition ?? {}), ...claims } }];
        for (const caller of callers) {
          // A single-code caller asks the calls of its code (the others answer 401: the permission matrix).
          if (caller.codes && !codesOf(route).some((c) => caller.codes!.includes(c))) continue;
          for (const request of asked) {
            const answer = await s.call(route.path, request, caller.token);
            checked++;
            if (answer.status !== 200 || !answer.body?.success) continue;
            const rows = rowsOf(answer.body.data);
            const where = `${route.path} as ${caller.name} ${JSON.stringify(request)}`;
            if (!READS.has(standard)) {
              // A call answering other rows than its entity's: those of the same call as the administrator's.
              for (const id of rows.map(identity)) if (id !== undefined && !adminIds.has(id)) leaks.push(`${where}: ${id} is not the administrator's`);
              continue;
            }
            const pks = rows.map((r) => r[model.primaryKey]).filter((pk) => pk !== undefined && pk !== null);
            const scoped = await inScope(model, pks, caller);
            for (const pk of pks) {
              if (complete && !adminKeys.has(String(pk))) leaks.push(`${where}: ${model.name} ${pk} is not the administrator's`);
              else if (!scoped.has(String(pk))) leaks.push(`${where}: ${model.name} ${pk} is outside the caller's scope`);
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(leaks.length, leaks.slice(0, 20).join('\n')).toBe(0);
  }, 600_000);

  it('closes the seven probed leaks: each answers 401 or only the rows in scope', async () => {
    const officer = callers.find((c) => c.name === 'officer')!;
    const agent = callers.find((c) => c.name === 'agent')!;
    const [adminUser] = await s.sql(`select f_id from t_sys_user where f_phone = '${ADMIN.phone}'`);
    // A clerk holding only the tenant codes, without a jurisdiction.
    await s.sql(`insert into t_sys_role (name, alias) values ('租客管理员', 'tenant_clerk')`);
    await s.grant('tenant_clerk', ['tenant:list', 'tenant:status']);
    const [clerkRow] = await s.sql(`insert into t_sys_user (f_chinese_name, f_phone, f_password, f_admin, f_user_type, f_status) values ('租客管理员', '17099999999', 'x', 0, 1, 1) returning f_id`);
    await s.sql(`insert into t_sys_user_role (user_id, role_id) select ${clerkRow.fId}, id from t_sys_role where alias = 'tenant_clerk'`);
    const clerk = await s.token(clerkRow.fId);
    const records = (r: { status: number; body: any }) => (r.status === 200 && r.body.success ? rowsOf(r.body.data) : []);

    // 1. The clerk cannot disable the administrator, wherever the body claims a tenant.
    for (const body of [{ fId: adminUser.fId, fStatus: 0, fUserType: 2, condition: { userType: 1 } }, { fId: adminUser.fId, fStatus: 0, userType: 2 }, { fId: adminUser.fId, fStatus: 0, condition: { userType: 2 } }]) {
      expect((await s.call('/system/t-sys-user/statusUser', body, clerk)).status).toBe(401);
    }
    expect((await s.sql(`select f_status from t_sys_user where f_id = ${adminUser.fId}`))[0].fStatus).toBe(1);
    // 2. No staff accounts for the officer, the deciding value moved or claimed false.
    for (const body of [{ current: 1, size: 1000, userType: 2, condition: {} }, { current: 1, size: 1000, condition: { userType: 1 } }, { current: 1, size: 1000, condition: { userType: 2, fUserType: 1 } }]) {
      const answer = await s.call('/system/t-sys-user/pageList', body, officer.token);
      expect(records(answer).filter((u) => u.fUserType !== 2)).toEqual([]);
    }
    // 3.–4. and 6. Persons, leases, house devices and rooms: only the officer's street; none for the agent.
    const officerStreets = (await jurisdictionOf(officer.id)).streets;
    for (const path of ['/biz/t-person-info/list', '/system/t-person-info/list', '/biz/t-tenant-house/pageList', '/biz/t-house-device/pageList', '/biz/t-rental-room/list']) {
      const mine = records(await s.call(path, { current: 1, size: 1000, condition: {} }, officer.token));
      const houses = [...new Set(mine.map((r) => r.fHouseId))];
      if (houses.length) {
        const streets = await s.sql(`select distinct f_street_id from t_house_info where f_house_id = any(array[${houses.join(',')}]::int[])`);
        expect(streets.every((r) => officerStreets.includes(Number(r.fStreetId))), path).toBe(true);
      }
      expect(records(await s.call(path, { current: 1, size: 1000, condition: {} }, agent.token)), `${path} as the agent`).toEqual([]);
    }
    // 5. The agent's devices are not the officer's to read, however the user is named.
    for (const body of [{ condition: { userId: agent.id } }, { userId: agent.id, fId: agent.id }, { fId: agent.id }]) {
      expect(records(await s.call('/system/t-sys-user/getUserData', body, officer.token)).filter((r) => r.fNumber)).toEqual([]);
    }
    // 7. A staff member without a jurisdiction sees no houses or tenants, and cannot profile the administrator.
    const tenantCodesOnly = callers.find((c) => c.name === 'tenant:list')!;
    expect(records(await s.call('/system/t-sys-user/pageList', { current: 1, size: 1000, condition: { userType: 2 } }, tenantCodesOnly.token))).toEqual([]);
    const houseReader = callers.find((c) => c.name === 'address:list')!;
    expect(records(await s.call('/biz/t-house-info/list', { current: 1, size: 1000, condition: {} }, houseReader.token))).toEqual([]);
    for (const body of [{ userId: adminUser.fId }, { phone: ADMIN.phone }]) {
      const answer = await s.call('/system/t-sys-user/getUserInfo', body, officer.token);
      expect(answer.body.success, JSON.stringify(body)).toBe(false);
    }
    expect((await s.call('/biz/hologram/search', { phone: ADMIN.phone }, officer.token)).body.success).toBe(false);
    // Tenants reach the officer with phones and ID numbers masked; the administrator, who may edit users, gets the phone in full.
    const tenants = records(await s.call('/system/t-sys-user/pageList', { current: 1, size: 1000, condition: { userType: 2 } }, officer.token));
    expect(tenants.length).toBeGreaterThan(0);
    expect(JSON.stringify(tenants)).not.toMatch(/1[3-9]\d{9}|\d{17}[\dX]/);
    const full = records(await s.call('/system/t-sys-user/pageList', { current: 1, size: 1000, condition: { userType: 2 } }, admin));
    expect(full.some((u) => /^1[3-9]\d{9}$/.test(u.fPhone))).toBe(true);
  });
});

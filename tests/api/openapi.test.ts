/**
 * The OpenAPI document describes every call the server answers: each route Fastify registered is in it
 * (with its permission and error answers), and the body schemas it documents accept the payloads the
 * console and the API tests really send (the same schemas check those requests on the server).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { ADMIN, AGENT, USER, backends, startServer, type TestServer } from './harness';
import { TIME_FORMATS } from '../../server/crud/format';
import { PICTURE_FORMATS } from '../../contract/picture';
import { UNDECLARED_BODY } from '../../server/http/catalog';

/** A validator of the document's schemas that checks their formats too (times as the server writes them). */
function documentAjv(components?: unknown): Ajv {
  const ajv = new Ajv({ strict: false });
  addFormats(ajv);
  for (const [name, pattern] of Object.entries(TIME_FORMATS)) ajv.addFormat(name, pattern);
  for (const [name, validate] of Object.entries(PICTURE_FORMATS)) ajv.addFormat(name, { type: 'string', validate });
  if (components) ajv.addSchema({ $id: 'doc', components });
  return ajv;
}

/**
 * A schema says something when it names a type (an object its properties, a list its items), refers
 * to an entity, or combines such schemas; `{ type: 'null' }` is a call that answers no data.
 */
function says(schema: any): boolean {
  if (!schema || typeof schema !== 'object') return false;
  if (schema.$ref || schema.const !== undefined || schema.enum) return true;
  const types = [schema.type].flat().filter(Boolean);
  // A typed schema may add alternatives of its own (`anyOf` of the keys one of which is required).
  const union = schema.oneOf ?? schema.anyOf ?? schema.allOf;
  if (union && !types.length) return union.length > 0 && union.every(says);
  if (!types.length) return false;
  if (types.includes('object') && !schema.properties && !schema.additionalProperties) return false;
  if (types.includes('array') && !says(schema.items)) return false;
  return true;
}

/** Fastify's own routes that are not calls: the console's files (the single-page app) and HEAD twins. */
const NOT_CALLS = new Set(['/*']);

/** The OpenAPI path of a Fastify route: `/a/:id` → `/a/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** Real bodies, one or more per call family, as the console and the API tests send them. */
const PAYLOADS: [string, unknown][] = [
  ['/login', { userName: '13800000000', password: 'Admin@123' }],
  ['/register', { fChineseName: '张三', fPhone: '13912345678', fPassword: 'abc123', passwordCheck: 'abc123', fUserType: 1, fAdmin: 0 }],
  ['/app/sys-user/loginwx', { openId: 'o6_bmjrPTlm6_2sgVt7hMZOPfL2M', nickName: '微信用户' }],
  ['/system/t-sys-dic/getdic', { key: 'Room_Type' }],
  ['/system/t-sys-user/pageList', { current: 1, pageSize: 10, condition: { keyword: '', status: '', userType: 1 } }],
  ['/system/t-sys-user/addOrUpdateSysUser', { fChineseName: '李四', fPhone: '13912345679', fPassword: 'abc123', passwordCheck: 'abc123', fAdmin: 0, roles: [3], fUserType: 1 }],
  ['/system/t-sys-user/statusUser', { fId: 3, fStatus: 0 }],
  ['/system/t-sys-role/addOrUpdateSysRole', { name: '巡查员', alias: 'patrol' }],
  ['/system/t-sys-role/updateRolePermission', { id: 2, treeNodes: [1, 2, 3] }],
  ['/system/t-sys-permission-menu/addOrUpdateSysMenu', { parentId: 0, menuName: '测试', fPermissionType: 1, menuUri: '/t', icon: 'Home', component: 'Main', sort: 1, permissions: 't:list' }],
  ['/app/device/send-switch', { deviceId: 1, onOff: 1 }],
  ['/biz/t-device/send', { fCmdType: 3, fIds: [1, 2] }],
  ['/system/t-area-info/addOrEditAreaInfo', { fAreaId: 440100, fAreaName: '广州市', fHighAreaId: 440000 }],
  ['/system/t-message-model/addoredit', { fName: '欢迎', fTypeId: 1, fStatus: 1, fMessage: '你好' }],
  ['/system/log/pageList', { current: 1, size: 10, condition: { keyword: '', succeed: 1 } }],
  ['/system/error-log/add', { fType: 'script', fCode: 0, fMessage: 'x is not defined', fUrl: 'http://localhost/home' }],
  ['/system/error-log/pageList', { current: 1, size: 20, condition: { type: 'api' } }],
  ['/monitor/system', {}],
  ['/druid/stat', {}],
  // Hand-written handlers of generated calls, as the console's dialogs and pickers send them.
  ['/biz/t-alarm/signing', { fId: 1, fRemark: '', fPhotoUrl: '', fHandleContent: '已处理' }],
  ['/biz/t-alarm/signingBatch', { ids: [1, 2], fHandleContent: '已处理' }],
  ['/biz/t-touch-alarm/updateStatus', { fId: 1, fHandleContent: '已到场处置' }],
  ['/biz/t-feedback/sign', { fId: 1, fHandleContent: '已转交物业' }],
  ['/biz/t-feedback/answer', { fId: 1, fAnswerContent: '已答复' }],
  ['/biz/t-device-timing/share-saves', { deviceIds: [1, 2], deviceTimingId: 3 }],
  ['/biz/t-firmware-update-device/undevices', { current: 1, size: 10, condition: { fFirmwareId: 1, fProductId: 2, keyword: '' } }],
  ['/biz/t-firmware-update-device/addall', { fFirmwareId: 1, fProductId: 2 }],
  ['/biz/t-firmware-update-device/addorupdate', [{ fDeviceId: 4, fFirmwareId: 1 }]],
  ['/biz/t-product-property/addorupdate', { fProductId: 1, list: [] }],
  ['/biz/t-group-device/undevicesbygroupid', { current: 1, size: 10, condition: { group_id: 2, keyword: 'DEV' } }],
  ['/biz/t-group-device/unbindDevices', [{ fId: 1, fGroupId: 2, fDeviceId: 3 }]],
  ['/biz/t-sys-user-room-device/unselected-devices', { current: 1, size: 10, condition: { fHomeId: 1, fRoomId: 2, keyword: '' } }],
  ['/biz/t-sys-user-room-device/bindDevices', [{ fId: 5, fDeviceId: 5, fHomeId: 1, fRoomId: 2 }]],
  ['/biz/t-sys-user-room-device/unbindRoomDevices', [{ fId: 3, fHomeId: 1, fDeviceId: 5, fRoomId: null }]],
  ['/biz/t-sys-user-room/userrooms', { fUserId: 3 }],
  ['/system/t-sys-user/resetUserPwd', { fId: 3 }],
  ['/system/t-sys-user/getUserData', { phone: '13800000002' }],
  ['/system/t-sys-role/treeList', { id: 2 }],
  ['/system/t-sys-permission-menu/removeSysMenu', { id: 9 }],
];

describe.each(backends)('OpenAPI document on %s', (backend) => {
  let s: TestServer;
  let all: any;
  let admin: string;

  beforeAll(async () => {
    s = await startServer(backend);
    admin = await s.login(ADMIN);
    all = await (await fetch(`${s.url}/openapi.json`, { headers: { authorization: admin } })).json();
  }, 60_000);
  afterAll(() => s?.close());

  it('lists every route the server registered, with its permission and error answers', () => {
    const missing: string[] = [];
    for (const { method, url } of s.app.registeredRoutes) {
      if (method === 'HEAD' || NOT_CALLS.has(url)) continue;
      const op = all.paths[openApiPath(url)]?.[method.toLowerCase()];
      if (!op) missing.push(`${method} ${url}`);
    }
    expect(missing).toEqual([]);
    const user = all.paths['/system/t-sys-user/pageList'].post;
    expect(user['x-permission']).toEqual(expect.arrayContaining(['user:list']));
    expect(Object.keys(user.responses)).toEqual(expect.arrayContaining(['200', '401', '700']));
    expect(all.paths['/login'].post.security).toEqual([]);
    expect(all.components.schemas.Refusal.properties.success).toEqual({ const: false });
  });

  it('documents request bodies and answers of hand-written and generated calls', () => {
    const noBody = Object.entries(all.paths as Record<string, Record<string, any>>)
      .flatMap(([path, item]) => Object.entries(item).map(([m, op]) => ({ path, m, op })))
      .filter(({ m, op }) => m === 'post' && !op.requestBody && !op.description.includes('See the description'));
    expect(noBody.map((o) => o.path)).toEqual([]);
    // Every JSON body says what it holds: no hand-written handler of a generated call is left undeclared
    // (server/crud/routes.ts documents one as UNDECLARED_BODY until its endpoint declares its body).
    const vague = Object.entries(all.paths as Record<string, Record<string, any>>)
      .flatMap(([path, item]) => Object.entries(item).map(([m, op]) => ({ path, m, schema: op.requestBody?.content?.['application/json']?.schema })))
      .filter(({ schema }) => schema && (!says(schema) || schema.description === UNDECLARED_BODY));
    expect(vague.map((o) => `${o.m} ${o.path}`)).toEqual([]);
    const monitor = all.paths['/monitor/system'].post;
    expect(monitor.responses['200'].content['application/json'].schema.oneOf[0].allOf[1].properties.data.properties.eventLoop).toBeTruthy();
    const list = all.paths['/system/t-message-model/list'].post.responses['200'].content['application/json'].schema.oneOf[0].allOf[1].properties.data;
    expect(list.properties.records.items).toEqual({ $ref: '#/components/schemas/messageModel' });
  });

  it('documents the answer of every operation', async () => {
    const operations = Object.entries(all.paths as Record<string, Record<string, any>>).flatMap(([path, item]) => Object.entries(item).map(([m, op]) => ({ path, m, op })));
    // The success answer: a media type with a schema (a page, a file, the envelope), or a redirect with nothing to read.
    const undocumented = operations.filter(({ op }) => {
      const [status, answer] = Object.entries(op.responses as Record<string, any>)[0];
      if (status === '302') return false;
      return !answer.content || Object.values(answer.content as Record<string, any>).some((c) => !c.schema);
    });
    expect(undocumented.map((o) => `${o.m} ${o.path}`)).toEqual([]);
    // The envelope's data of a generated delete is documented as none, and the call really answers none.
    const del = all.paths['/biz/t-group/del'].post.responses['200'].content['application/json'].schema.oneOf[0].allOf[1].properties.data;
    expect(del).toEqual({ type: 'null' });
    const health = await fetch(`${s.url}/healthz`);
    const ajv = new Ajv({ strict: false });
    expect(ajv.validate(all.paths['/healthz'].get.responses['200'].content['application/json'].schema, await health.json())).toBe(true);
  });

  it('says what the envelope\'s data of every call is', () => {
    const open = Object.entries(all.paths as Record<string, Record<string, any>>)
      .flatMap(([path, item]) => Object.entries(item).map(([m, op]) => ({ path, m, op })))
      .filter(({ op }) => {
        const envelope = op.responses['200']?.content?.['application/json']?.schema?.oneOf?.[0]?.allOf?.[1];
        return envelope && !says(envelope.properties.data);
      });
    expect(open.map((o) => `${o.m} ${o.path}`)).toEqual([]);
  });

  it('answers data its document describes', async () => {
    // Real answers of read calls, one or more per family of hand-written answers, checked against the
    // `data` schema each documents (entity rows by reference to the document's components).
    const reads: [string, unknown][] = [
      ['/get_info', {}],
      ['/message/init', {}],
      ['/system/log/pageList', { current: 1, size: 10 }],
      ['/system/t-sys-role/treeList', { id: 2 }],
      ['/system/t-sys-permission-menu/treeList', {}],
      ['/system/t-area-info/treeList', {}],
      ['/system/t-department-info/treeList', {}],
      ['/system/t-sys-dic/getdic', { key: 'Room_Type' }],
      ['/system/t-sys-user/getUserInfo', { fId: 1 }],
      ['/monitor/system', {}],
      ['/druid/stat', {}],
      ['/system/t-area-info/childrenlist', { fAreaId: 0 }],
      ['/system/t-sys-user/getUserData', { fId: 1 }],
      ['/api/home/total-device', {}],
      ['/api/home/total-warn', {}],
      ['/api/home/total-user', {}],
      ['/api/home/total-record-month-count', {}],
      ['/api/home/total-record-more', { type: 1 }],
      ['/biz/t-device/total', {}],
      ['/biz/t-alarm/alarmTypeCount', {}],
      ['/biz/t-device/devicesmore', { current: 1, size: 10 }],
      ['/biz/t-device/devices-location', {}],
      ['/biz/t-device/devices-alarm', { current: 1, size: 5 }],
      ['/biz/t-device/my-devices', { current: 1, size: 10 }],
      ['/biz/t-emq-message-publish/records', { current: 1, size: 10 }],
      ['/api/mqtt/state', {}],
      ['/api/events/ticket', {}],
      // Rows with times and dates: they are answered as the document's local-date-time.
      ['/biz/t-alarm/pageList', { current: 1, size: 20 }],
      ['/biz/t-device/devices', { current: 1, size: 20 }],
      ['/system/t-community/list', { current: 1, size: 20 }],
      ['/system/t-sys-user/pageList', { current: 1, size: 20 }],
    ];
    // A date column with a value, so its format is checked too.
    await s.sql(`update t_community set f_buildtime = '2020-05-01' where id = (select min(id) from t_community)`);
    const ajv = documentAjv(all.components);
    const wrong: string[] = [];
    for (const [path, body] of reads) {
      const r = await s.call(path, body, admin);
      expect(r.body.code, `${path}: ${r.body.message}`).toBe(200);
      const schema = all.paths[path].post.responses['200'].content['application/json'].schema.oneOf[0].allOf[1].properties.data;
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components/g, '"doc#/components')));
      if (!validate(r.body.data)) wrong.push(`${path}: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
    }
    expect(wrong).toEqual([]);
    // The format is checked, not only named: an RFC 3339 time would not pass as the document's time.
    expect(ajv.validate({ type: 'string', format: 'local-date-time' }, '2020-05-01T00:00:00.000Z')).toBe(false);
    const community = await s.call('/system/t-community/list', { current: 1, size: 1 }, admin);
    expect(community.body.data.records[0].fBuildtime).toMatch(/^2020-05-01 \d{2}:\d{2}:\d{2}$/);
  }, 60_000);

  it('accepts the real payloads with the bodies it documents', () => {
    const ajv = documentAjv(all.components);
    for (const [path, payload] of PAYLOADS) {
      const op = all.paths[path]?.post;
      expect(op, path).toBeTruthy();
      const schema = JSON.parse(JSON.stringify(op.requestBody.content['application/json'].schema).replace(/"#\/components/g, '"doc#/components'));
      const validate = ajv.compile(schema);
      expect(validate(payload), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('shows each viewer the calls its permission codes open', async () => {
    const docOf = async (token?: string) => (await fetch(`${s.url}/openapi.json`, { headers: token ? { authorization: token } : {} })).json();
    const anonymous = await docOf();
    expect(Object.keys(anonymous.paths)).toEqual(expect.arrayContaining(['/login', '/register', '/api/public/initializationData']));
    expect(anonymous.paths['/system/t-sys-user/pageList']).toBeUndefined();
    const user = await docOf(await s.login(USER));
    expect(user.paths['/get_info']).toBeTruthy();
    expect(user.paths['/monitor/system']).toBeUndefined();
    expect(user.paths['/system/t-sys-role/pageList']).toBeUndefined();
    const agent = await docOf(await s.login(AGENT));
    expect(Object.keys(agent.paths).length).toBeLessThan(Object.keys(all.paths).length);
    expect(Object.keys(agent.paths).length).toBeGreaterThan(Object.keys(user.paths).length - 1);
  });

  it('checks a request against its declared body', async () => {
    const r = await s.call('/app/sys-user/loginwx', { nickName: 'x' });
    expect(r.body).toMatchObject({ code: 400, message: 'openId不能为空' });
    const wrongType = await s.call('/system/t-sys-dic/getdic', { key: { $ne: 1 } }, admin);
    expect(wrongType.body).toMatchObject({ code: 400, message: '请求格式错误：key' });
    // A hand-written handler of a generated call is held to the body its endpoint declares.
    const refused: [string, unknown, string][] = [
      ['/biz/t-alarm/signing', { fHandleContent: '已处理' }, '报警编号不能为空'],
      ['/biz/t-alarm/signingBatch', { ids: Array.from({ length: 101 }, (_, i) => i + 1), fHandleContent: '已处理' }, '一次最多签收100条报警'],
      ['/system/t-sys-user/statusUser', { fId: 3, fStatus: 5 }, '状态不能为空'],
      ['/system/t-sys-user/resetUserPwd', { fId: 3, fPassword: '123' }, '密码长度必须大于6位'],
      ['/biz/t-sys-user-room-device/bindDevices', [{ fDeviceId: 1, fRoomId: { $ne: 1 } }], '请求格式错误：0.fRoomId'],
      ['/biz/t-group-device/unbindDevices', { items: [{ fId: [1] }] }, '请求格式错误：items.0.fId'],
      ['/biz/t-device-timing/share-saves', { deviceTimingId: 1 }, '请选择需要同步的设备'],
      ['/biz/t-device-timing/saves', {}, '定时不能为空'],
      ['/biz/t-group-device/bindDevices', 'x', '请选择需要绑定的设备'],
    ];
    for (const [path, body, message] of refused) expect((await s.call(path, body, admin)).body, path).toMatchObject({ code: 400, message });
  });
});

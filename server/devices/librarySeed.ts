/**
 * Demo description libraries in a tree (numbered receive bids of spec 001 §9) and demo product functions
 * over them, for an empty database only. The flat named-bid libraries the command panels use come from
 * migration 005; the tree adds no send library, so the products' command panels stay as they are.
 */
import type { DB } from '../db';

interface DemoLibrary {
  fName: string;
  fType: 1 | 2;
  fBid: string;
  fDes: string;
  children?: DemoLibrary[];
  fields?: { fJsonKey: string; fJsonName: string; fDataType: number; fValueType: string; fJsonDes?: string; sub?: string }[];
}

const TREE: DemoLibrary[] = [
  {
    fName: '同步网关设备编号', fType: 1, fBid: '412', fDes: '网关上报其下挂的子设备',
    fields: [
      { fJsonKey: 'count', fJsonName: '子设备数量', fDataType: 1, fValueType: 'reading' },
      { fJsonKey: 'devices', fJsonName: '子设备', fDataType: 8, fValueType: 'reading', fJsonDes: '每个子设备一项', sub: '413' },
    ],
    children: [
      { fName: '网关子设备', fType: 1, fBid: '413', fDes: '子设备编号与在线状态',
        fields: [
          { fJsonKey: 'number', fJsonName: '设备编号', fDataType: 3, fValueType: 'reading' },
          { fJsonKey: 'online', fJsonName: '在线状态', fDataType: 1, fValueType: 'reading', fJsonDes: '1 在线，0 离线' },
        ] },
    ],
  },
  {
    fName: 'WiFi漏保主动上报', fType: 1, fBid: '201', fDes: 'WiFi漏电保护器周期主动上报',
    fields: [
      { fJsonKey: 'leakage', fJsonName: '漏电流', fDataType: 2, fValueType: 'reading', fJsonDes: 'mA' },
      { fJsonKey: 'voltage', fJsonName: '电压', fDataType: 2, fValueType: 'reading', fJsonDes: 'V' },
    ],
    children: [
      { fName: '漏保告警明细', fType: 1, fBid: '202', fDes: '告警字节与含义',
        fields: [{ fJsonKey: 'code', fJsonName: '告警码', fDataType: 1, fValueType: 'reading' }] },
      { fName: '漏保自检结果', fType: 1, fBid: '203', fDes: '自检按钮触发后上报' },
    ],
  },
];

const FUNCTIONS = [
  { fName: '开关控制', fType: 9, bid: 'switch', fRemark: '合闸 / 分闸' },
  { fName: '设备锁定', fType: 9, bid: 'lock', fRemark: '锁定后拒绝分合闸' },
  { fName: '阈值设置', fType: 2, bid: 'set-threshold', fRemark: '网关阈值下发' },
  { fName: '漏保主动上报', fType: 1, bid: '201', fRemark: 'WiFi漏保主动上报的数据' },
  { fName: '同步子设备', fType: 2, bid: '412', fRemark: '网关上报子设备编号' },
];

export async function seedLibraryDemo(db: DB): Promise<void> {
  const byBid = new Map<string, number>();
  const pending: { library: number; fields: NonNullable<DemoLibrary['fields']> }[] = [];
  const insert = async (items: DemoLibrary[], parent: number | null) => {
    for (const { children, fields, ...l } of items) {
      const { fId } = await db.insertInto('t_product_json').values({ ...l, fJsonParentId: parent }).returning('fId').executeTakeFirstOrThrow();
      byBid.set(l.fBid, fId);
      if (fields) pending.push({ library: fId, fields });
      if (children) await insert(children, fId);
    }
  };
  await insert(TREE, null);
  // Fields last: an entity field names its sub-library, which may be a child inserted after it.
  for (const { library, fields } of pending) {
    await db
      .insertInto('t_product_json_conf')
      .values(fields.map(({ sub, ...f }) => ({ ...f, fProductJsonId: library, fJsonSubId: sub ? byBid.get(sub) ?? null : null })))
      .execute();
  }
  const libraries = await db.selectFrom('t_product_json').select(['fId', 'fBid']).orderBy('fId').execute();
  const lib = (bid: string) => libraries.find((l) => l.fBid === bid)?.fId;
  const rows = FUNCTIONS.map(({ bid, ...f }) => ({ ...f, fProductJsonId: lib(bid) })).filter((f) => f.fProductJsonId !== undefined);
  if (rows.length) await db.insertInto('t_product_function').values(rows as never).execute();
}

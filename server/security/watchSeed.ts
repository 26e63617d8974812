/** Demo watch-lists of people and vehicles for an empty database. */
import type { Services } from '../crud/types';
import { random } from '../db/demo/random';

const PLATES = ['粤A12345', '粤A8K2Q7', '粤B66Z88', '粤A0W3C1', '湘A77M52', '粤AD1234'];
const NAMES = ['陈某某', '李某', '王某某', '赵某', '刘某某', '黄某'];

export async function seedWatch(db: Services['db']) {
  const rnd = random(11052026);
  // Midnight in China (UTC+8), as a watch is set from a date.
  const day = (offset: number) => new Date(Date.UTC(2026, 10, 1 + offset, 0, 0, 0) - 8 * 3600_000);
  await db
    .insertInto('t_control_car')
    .values(PLATES.map((p, i) => ({ fLicensePlate: p, fStartTime: day(i), fStartEnd: day(90 + i), fControlType: String((i % 2) + 1), fControlUser: '天河派出所', fState: i === 3 ? '2' : '1', fMac: null })) as never)
    .execute();
  const people = await db.selectFrom('t_sys_user').select(['fChineseName', 'fIdcard', 'fPhone']).where('fUserType', '=', 2).orderBy('fId').limit(NAMES.length).execute();
  await db
    .insertInto('t_control_person')
    .values(
      people.map((p, i) => ({
        fUserName: p.fChineseName,
        fUserIdcard: p.fIdcard,
        fStartTime: day(i),
        fEndTime: day(120 + i),
        fControlType: String((i % 2) + 1),
        fControlUser: rnd.pick(['天河派出所', '越秀派出所', '社区网格员']),
        fState: i === 2 ? '2' : '1',
        fPhones: p.fPhone,
        fImei: `86${String(rnd.int(1e12, 9e12))}`,
        fUpdateTime: new Date(),
      })) as never,
    )
    .execute();
}

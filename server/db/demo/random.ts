/**
 * A seeded random source for demo data, so every installation (and every test run) gets the same
 * district and the same people: a figure in a bug report or a benchmark means the same rows everywhere.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: small, fast and good enough for demo data. */
export function random(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, int, pick: (items) => items[int(0, items.length - 1)], chance: (p) => next() < p };
}

const WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const CHECK = '10X98765432';

/** A well-formed 18-digit mainland ID number (region, birth date, sequence, check digit). */
export function idNumber(rnd: Random, region: number, birth: Date, female: boolean): string {
  const date = birth.toISOString().slice(0, 10).replace(/-/g, '');
  const seq = rnd.int(0, 49) * 2 + (female ? 0 : 1);
  const body = `${region}${date}${String(rnd.int(10, 99))}${seq % 10}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * WEIGHTS[i], 0);
  return body + CHECK[sum % 11];
}

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡', '郭', '何', '林', '罗', '高', '梁', '郑', '谢', '宋', '唐', '许', '邓', '冯', '韩', '曹'];
const GIVEN = ['伟', '芳', '娜', '敏', '静', '丽', '强', '磊', '军', '洋', '勇', '艳', '杰', '娟', '涛', '明', '超', '秀英', '霞', '平', '刚', '桂英', '文', '辉', '建华', '志强', '晓东', '海燕', '子涵', '雨轩', '浩然', '欣怡', '俊杰', '思远', '佳琪'];

export function personName(rnd: Random): string {
  return rnd.pick(SURNAMES) + rnd.pick(GIVEN);
}

/** A mainland mobile number: 1, then 3–9, then nine digits; `serial` keeps numbers unique. */
export function mobile(rnd: Random, serial: number): string {
  return `1${rnd.pick(['35', '36', '37', '39', '50', '51', '58', '59', '86', '87', '88'])}${String(serial).padStart(8, '0')}`;
}

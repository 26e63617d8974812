/**
 * What an alarm says when the device sent no remark of its own: one sentence per alarm type, with the
 * number of people where the device counted them (a gathering, a room over its count). A real device's
 * alarm and the demo history read alike, from these words.
 */
const DESCRIPTIONS: Record<number, (count?: number) => string> = {
  14: (n) => (n ? `房间内同时出现${n}名人员，疑似聚集` : '房间内同时出现多名人员，疑似聚集'),
  15: () => '非允许时段（00:00-05:00）有人员进出',
  17: (n) => (n ? `房间登记人数超出核定人数（当前${n}人）` : '房间登记人数超出核定人数'),
  18: () => '身份证核验不通过，证件疑似冒用',
  11: () => '发现未登记的外来人员进出',
  13: () => '重点关注人员出现在出租屋',
};

/** The description of an alarm of this type, with the people counted if the device says; null for types that need none. */
export function describeAlarm(type: number, count?: number): string | null {
  return DESCRIPTIONS[type]?.(count && Number.isInteger(count) && count > 0 ? count : undefined) ?? null;
}

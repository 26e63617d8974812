import { describe, expect, it } from 'vitest';
import { pageAt } from '../../server/crud/query';

describe('the page a hand-written list is asked for', () => {
  it('takes a whole number of rows up to the list’s most, and its own size otherwise', () => {
    expect(pageAt({}, 10, 500)).toEqual({ current: 1, size: 10 });
    expect(pageAt({ current: 3, size: 20 }, 10, 500)).toEqual({ current: 3, size: 20 });
    expect(pageAt({ current: '2', pageSize: '50' }, 10, 500)).toEqual({ current: 2, size: 50 });
    expect(pageAt({ size: 100000 }, 10, 500)).toEqual({ current: 1, size: 500 });
    // What is not a whole number from 1 is not a size: no fraction or negative number reaches LIMIT.
    for (const size of ['2.5', 2.5, 0, -3, 'x', null]) expect(pageAt({ size }, 7, 500).size).toBe(7);
    for (const current of ['1.5', 0, -1, 'x']) expect(pageAt({ current }, 7, 500).current).toBe(1);
  });
});

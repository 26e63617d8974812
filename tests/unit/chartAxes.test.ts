import { describe, expect, it } from 'vitest';
import { allWhole, axisValue, spreadTicks } from '../../app/components/charts/theme';

describe('chart axes', () => {
  it('spreads at most the asked number of category labels from the first category', () => {
    const days = Array.from({ length: 30 }, (_v, i) => `d${i}`);
    expect(spreadTicks(days, 10)).toEqual(['d0', 'd3', 'd6', 'd9', 'd12', 'd15', 'd18', 'd21', 'd24', 'd27']);
    expect(spreadTicks(['a', 'b', 'c', 'd'], 10)).toEqual(['a', 'b', 'c', 'd']);
    expect(spreadTicks([], 5)).toEqual([]);
  });

  it('labels counts with whole numbers only, and measures with their fractions', () => {
    const counts = [{ name: 'up', color: '#000', data: [0, 1, 2] }];
    const energy = [{ name: 'kwh', color: '#000', data: [0.5, 1.25] }];
    expect(allWhole(counts)).toBe(true);
    expect(allWhole(energy)).toBe(false);
    expect(axisValue(true)(0.5)).toBe('');
    expect(axisValue(true)(2000)).toBe((2000).toLocaleString());
    expect(axisValue(false)(0.5)).toBe((0.5).toLocaleString());
  });
});

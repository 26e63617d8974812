import { describe, expect, it } from 'vitest';
import { arcPath, monotonePath, niceTicks, tickIndexes } from '../../app/components/charts/geometry';

/** The y values a path passes through at its curve ends and control points. */
function pathYs(d: string): number[] {
  return [...d.matchAll(/-?\d+(?:\.\d+)?,(-?\d+(?:\.\d+)?)/g)].map((m) => Number(m[1]));
}

describe('chart geometry', () => {
  it('gives round ticks from 0 past the largest value, whole for counts', () => {
    expect(niceTicks(36, 3)).toEqual([0, 20, 40]);
    expect(niceTicks(100, 5)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(3, 5)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(0, 3)).toEqual([0, 1]);
    expect(niceTicks(0.9, 3)).toEqual([0, 0.5, 1]);
    expect(niceTicks(7.5, 3)).toEqual([0, 2.5, 5, 7.5]);
  });

  it('spreads at most the asked number of axis labels from the first category', () => {
    expect(tickIndexes(30, 10)).toEqual([0, 3, 6, 9, 12, 15, 18, 21, 24, 27]);
    expect(tickIndexes(4, 10)).toEqual([0, 1, 2, 3]);
  });

  it('draws a smooth line that never overshoots its points (a count never dips under zero)', () => {
    const points: [number, number][] = [
      [0, 100],
      [10, 100],
      [20, 0],
      [30, 100],
      [40, 100],
    ];
    const d = monotonePath(points);
    expect(d.startsWith('M0,100C')).toBe(true);
    expect(d.endsWith('40,100')).toBe(true);
    for (const y of pathYs(d)) expect(y >= 0 && y <= 100).toBe(true);
    expect(monotonePath([[5, 5]])).toBe('M5,5');
    expect(monotonePath([])).toBe('');
  });

  it('draws a ring segment between two angles, and a whole ring without its ends meeting', () => {
    expect(arcPath(0, Math.PI / 2, 10, 5)).toBe('M0,-10A10,10 0 0 1 10,0L5,0A5,5 0 0 0 0,-5Z');
    const whole = arcPath(0, 2 * Math.PI, 10, 5);
    expect(whole).toContain(' 0 1 1 ');
    expect(whole.startsWith('M0,-10')).toBe(true);
  });
});

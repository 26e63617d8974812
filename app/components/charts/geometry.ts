/**
 * The arithmetic of the console's small SVG charts: round axis ticks, a smooth line through the points
 * and ring segments. Plain functions, so the charts need no charting library (d3 and an animation
 * engine would weigh more than the rest of the home page).
 */

/** Round tick values from 0 to at least `max`, about `count` of them (1, 2, 2.5 or 5 times a power of ten). */
export function niceTicks(max: number, count: number): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  // Whole counts never get fractional ticks.
  const whole = Number.isInteger(max) ? Math.max(1, Math.round(step)) : step;
  const ticks: number[] = [];
  for (let v = 0; v < max + whole; v += whole) {
    ticks.push(Number(v.toPrecision(12)));
    if (v >= max) break;
  }
  return ticks;
}

/** At most `max` indexes of `length` categories, evenly spread from the first, for the labels under an axis. */
export function tickIndexes(length: number, max: number): number[] {
  const step = Math.max(1, Math.ceil(length / max));
  const out: number[] = [];
  for (let i = 0; i < length; i += step) out.push(i);
  return out;
}

type Point = [number, number];

/**
 * A path through the points, monotone in y between them (Fritsch–Carlson, as d3's curveMonotoneX): a
 * smooth line that never overshoots, so a count never seems to dip under zero between two days.
 */
export function monotonePath(points: Point[]): string {
  const n = points.length;
  if (n === 0) return '';
  if (n === 1) return `M${points[0][0]},${points[0][1]}`;
  // d3's tangents: the smaller neighbouring slope (none at a peak), the ends from their one neighbour.
  const slope = (i: number) => (points[i + 1][1] - points[i][1]) / (points[i + 1][0] - points[i][0] || 1);
  const tangents: number[] = new Array(n).fill(0);
  for (let i = 1; i < n - 1; i++) {
    const s0 = slope(i - 1);
    const s1 = slope(i);
    const h0 = points[i][0] - points[i - 1][0];
    const h1 = points[i + 1][0] - points[i][0];
    const p = (s0 * h1 + s1 * h0) / (h0 + h1 || 1);
    tangents[i] = (Math.sign(s0) + Math.sign(s1)) * Math.min(Math.abs(s0), Math.abs(s1), 0.5 * Math.abs(p)) || 0;
  }
  tangents[0] = n > 2 ? (3 * slope(0) - tangents[1]) / 2 : slope(0);
  tangents[n - 1] = n > 2 ? (3 * slope(n - 2) - tangents[n - 2]) / 2 : slope(n - 2);
  let d = `M${r(points[0][0])},${r(points[0][1])}`;
  for (let i = 0; i < n - 1; i++) {
    const [x0, y0] = points[i];
    const [x1, y1] = points[i + 1];
    const h = (x1 - x0) / 3;
    d += `C${r(x0 + h)},${r(y0 + h * tangents[i])},${r(x1 - h)},${r(y1 - h * tangents[i + 1])},${r(x1)},${r(y1)}`;
  }
  return d;
}

/** A ring segment between two angles (radians, clockwise from 12 o'clock), centred on 0,0. */
export function arcPath(start: number, end: number, outer: number, inner: number): string {
  // A whole ring cannot be one arc: its two ends would coincide.
  const sweep = Math.min(end - start, 2 * Math.PI - 1e-6);
  const stop = start + sweep;
  const large = sweep > Math.PI ? 1 : 0;
  const at = (radius: number, angle: number) => `${r(radius * Math.sin(angle))},${r(-radius * Math.cos(angle))}`;
  return `M${at(outer, start)}A${r(outer)},${r(outer)} 0 ${large} 1 ${at(outer, stop)}L${at(inner, stop)}A${r(inner)},${r(inner)} 0 ${large} 0 ${at(inner, start)}Z`;
}

function r(n: number): number {
  return Math.round(n * 100) / 100;
}

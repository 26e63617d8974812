/**
 * How the console's nivo charts look and read: the page's font at 10 px for axes, light grid lines, and
 * values in the page's number format. Plain data: the chart chunk and the pages share it.
 */

/** One line or bar series: its name (already translated), its colour and a value per category. */
export interface Series {
  name: string;
  color: string;
  data: number[];
}

export interface Margin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** The height of the legend's line under a chart that shows one (the chart's place holds it before the chart is drawn). */
export const LEGEND_HEIGHT = 18;

export const formatValue = (n: number) => n.toLocaleString();

/** An axis value: counts never get fractional labels (their grid line stays, unlabelled). */
export const axisValue = (whole: boolean) => (v: number | string | Date) => {
  const n = Number(v);
  return whole && !Number.isInteger(n) ? '' : formatValue(n);
};

/** Whether every value is a whole number (counts), so the axis labels whole numbers only. */
export const allWhole = (series: Series[]) => series.every((s) => s.data.every((v) => Number.isInteger(v)));

/** At most `max` categories, evenly spread from the first, for the labels under an axis. */
export function spreadTicks<T>(categories: T[], max: number): T[] {
  const step = Math.max(1, Math.ceil(categories.length / max));
  return categories.filter((_c, i) => i % step === 0);
}

export const CHART_THEME = {
  text: { fontFamily: 'inherit', fontSize: 10, fill: '#6b7280' },
  axis: {
    ticks: { line: { stroke: 'transparent' }, text: { fontSize: 10, fill: '#6b7280' } },
    legend: { text: { fontSize: 12, fontWeight: 600, fill: '#4b5563' } },
    domain: { line: { stroke: 'transparent' } },
  },
  grid: { line: { stroke: '#eef0f3', strokeWidth: 1 } },
  crosshair: { line: { stroke: '#9ca3af', strokeWidth: 1, strokeOpacity: 1, strokeDasharray: '3 3' } },
  // The tooltip's box is drawn by ChartTooltip; nivo's wrapper only places it.
  tooltip: { container: { background: 'transparent', boxShadow: 'none', padding: 0 } },
};

/** Grouped bars, one group per category, a tooltip per group naming the category. */
import { useId } from 'react';
import { Box } from '@mui/material';
import { Sized, Tooltip, YAxis, useActiveCategory, yScale, type Margin, type Series, type Size } from './frame';

export interface BarChartProps {
  categories: string[];
  series: Series[];
  height: number;
  margin: Margin;
  yTicks: number;
  /** The share of each category's band left empty between groups. */
  padding?: number;
  /** The chart's accessible name. */
  label: string;
  testId?: string;
}

export function BarChart(props: BarChartProps) {
  return (
    <Box data-testid={props.testId}>
      <Sized sx={{ height: props.height }}>{(size) => <Plot {...props} size={size} />}</Sized>
    </Box>
  );
}

const GAP = 1;

function Plot({ categories, series, margin, yTicks, padding = 0.3, label, size }: BarChartProps & { size: Size }) {
  const tooltipId = useId();
  const left = margin.left;
  const right = size.width - margin.right;
  const bottom = size.height - margin.bottom;
  const n = categories.length;
  const band = n ? (right - left) / n : 0;
  const group = band * (1 - padding);
  const bar = Math.max(1, (group - GAP * (series.length - 1)) / Math.max(1, series.length));
  const { ticks, y } = yScale(series, yTicks, margin.top, bottom);
  const { active, handlers } = useActiveCategory(n, (px) => (band ? Math.floor((px - left) / band) : 0));
  return (
    <>
      <svg width={size.width} height={size.height} role="img" aria-label={label} aria-describedby={active !== null ? tooltipId : undefined} style={{ display: 'block' }} {...handlers}>
        <YAxis ticks={ticks} y={y} left={left} right={right} />
        {active !== null && <rect x={left + active * band} y={margin.top} width={band} height={bottom - margin.top} fill="#f3f4f6" aria-hidden="true" />}
        <g aria-hidden="true">
          {categories.map((_c, i) =>
            series.map((s, k) => {
              const v = s.data[i] ?? 0;
              return <rect key={`${i}-${k}`} x={left + i * band + (band - group) / 2 + k * (bar + GAP)} y={y(v)} width={bar} height={bottom - y(v)} fill={s.color} rx={1} />;
            }),
          )}
        </g>
      </svg>
      {active !== null && (
        <Tooltip id={tooltipId} x={left + (active + 0.5) * band} y={margin.top} width={size.width} title={categories[active]} rows={series.map((s) => ({ name: s.name, color: s.color, value: s.data[active] ?? 0 }))} />
      )}
    </>
  );
}

/** A line chart over categories (days, hours): smooth lines, optional area and points, a tooltip per category. */
import { useId } from 'react';
import { Box } from '@mui/material';
import { monotonePath, tickIndexes } from './geometry';
import { AXIS_TEXT, Legend, Sized, Tooltip, YAxis, useActiveCategory, yScale, type Margin, type Series, type Size } from './frame';

export interface LineChartProps {
  categories: string[];
  series: Series[];
  /** The plot's height; the legend, if shown, comes under it. */
  height: number;
  margin: Margin;
  /** About how many values the y axis shows. */
  yTicks: number;
  /** At most how many category labels the x axis shows. */
  xTicks: number;
  /** The opacity of the area under each line; none if not given. */
  area?: number;
  /** The radius of a point at each value; none if 0. */
  pointRadius?: number;
  legend?: boolean;
  /** The text of an x label (the tooltip shows the category whole). */
  formatX?: (category: string) => string;
  /** The y axis's legend: a unit. */
  yLegend?: string;
  /** The chart's accessible name. */
  label: string;
  testId?: string;
}

export function LineChart(props: LineChartProps) {
  return (
    <Box data-testid={props.testId}>
      <Sized sx={{ height: props.height }}>{(size) => <Plot {...props} size={size} />}</Sized>
      {props.legend && <Legend series={props.series} />}
    </Box>
  );
}

function Plot({ categories, series, margin, yTicks, xTicks, area, pointRadius = 0, formatX = (c) => c, yLegend, label, size }: LineChartProps & { size: Size }) {
  const tooltipId = useId();
  const left = margin.left;
  const right = size.width - margin.right;
  const bottom = size.height - margin.bottom;
  const n = categories.length;
  const step = n > 1 ? (right - left) / (n - 1) : 0;
  const x = (i: number) => (n > 1 ? left + i * step : (left + right) / 2);
  const { ticks, y } = yScale(series, yTicks, margin.top, bottom);
  const { active, handlers } = useActiveCategory(n, (px) => (step ? Math.round((px - left) / step) : 0));
  return (
    <>
      <svg width={size.width} height={size.height} role="img" aria-label={label} aria-describedby={active !== null ? tooltipId : undefined} style={{ display: 'block' }} {...handlers}>
        <YAxis ticks={ticks} y={y} left={left} right={right} legend={yLegend} />
        <g aria-hidden="true">
          {tickIndexes(n, xTicks).map((i) => (
            <text key={i} x={x(i)} y={bottom + 14} textAnchor="middle" {...AXIS_TEXT}>
              {formatX(categories[i])}
            </text>
          ))}
        </g>
        {active !== null && <line x1={x(active)} x2={x(active)} y1={margin.top} y2={bottom} stroke="#9ca3af" strokeDasharray="3 3" aria-hidden="true" />}
        {series.map((s) => {
          const points = s.data.slice(0, n).map((v, i) => [x(i), y(v ?? 0)] as [number, number]);
          const line = monotonePath(points);
          return (
            <g key={s.name} aria-hidden="true">
              {area !== undefined && points.length > 1 && <path d={`${line}L${x(points.length - 1)},${bottom}L${x(0)},${bottom}Z`} fill={s.color} fillOpacity={area} />}
              <path d={line} fill="none" stroke={s.color} strokeWidth={2} />
              {pointRadius > 0 && points.map(([px, py], i) => <circle key={i} cx={px} cy={py} r={pointRadius} fill="#fff" stroke={s.color} strokeWidth={1.5} />)}
              {active !== null && points[active] && <circle cx={points[active][0]} cy={points[active][1]} r={4} fill={s.color} stroke="#fff" strokeWidth={1.5} />}
            </g>
          );
        })}
      </svg>
      {active !== null && (
        <Tooltip id={tooltipId} x={x(active)} y={margin.top} width={size.width} title={categories[active]} rows={series.map((s) => ({ name: s.name, color: s.color, value: s.data[active] ?? 0 }))} />
      )}
    </>
  );
}

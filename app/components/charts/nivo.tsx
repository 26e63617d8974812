/**
 * The console's charts, drawn by nivo (@nivo/line, bar and pie): lines over categories (days, hours),
 * grouped bars, and rings or gauges. This module is its own chunk, loaded when a page first draws a
 * chart (./index.tsx), so nivo and d3 stay off the login page and the first screen's shell.
 */
import { useEffect } from 'react';
import { Box } from '@mui/material';
import { ResponsiveLine, type LineCustomSvgLayerProps, type LineSeries } from '@nivo/line';
import { ResponsiveBar, type BarCustomLayerProps } from '@nivo/bar';
import { ResponsivePie } from '@nivo/pie';
import { ChartFrame, ChartTooltip, Legend, useActiveCategory } from './frame';
import { CHART_THEME, allWhole, axisValue, spreadTicks, type Margin, type Series } from './theme';

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

type LineData = LineSeries & { id: string; color: string; data: { x: string; y: number }[] };

/** The values of every series at one category. */
const rowsAt = (series: Series[], i: number) => series.map((s) => ({ name: s.name, color: s.color, value: s.data[i] ?? 0 }));

/** A value scale from 0 past the largest value (nivo's round ticks); all zero still gets an axis. */
const valueScale = (series: Series[]) => ({ type: 'linear' as const, min: 0, max: series.some((s) => s.data.some((v) => v > 0)) ? ('auto' as const) : 1, nice: true });

/** Inside nivo's line: the keyboard's category gets nivo's crosshair, and the frame learns where the categories are. */
function LineKeys({ slices, setCurrentSlice, margin, innerWidth }: LineCustomSvgLayerProps<LineData>) {
  const { index, place } = useActiveCategory();
  const { top = 0, left = 0, right = 0 } = margin;
  const xs = slices.map((s) => s.x + left);
  useEffect(() => place({ xs, top, width: innerWidth + left + right }));
  useEffect(() => {
    if (index !== null) setCurrentSlice(slices[index] ?? null);
    return () => setCurrentSlice(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [index]);
  return null;
}

export function LineChart({ categories, series, height, margin, yTicks, xTicks, area, pointRadius = 0, legend, formatX = (c) => c, yLegend, label, testId }: LineChartProps) {
  const data: LineData[] = series.map((s) => ({ id: s.name, color: s.color, data: categories.map((c, i) => ({ x: c, y: s.data[i] ?? 0 })) }));
  const format = axisValue(allWhole(series));
  return (
    <Box data-testid={testId}>
      <ChartFrame label={label} count={categories.length} height={height} tooltip={(i) => ({ title: categories[i], rows: rowsAt(series, i) })}>
        <ResponsiveLine<LineData>
          data={data}
          margin={margin}
          theme={CHART_THEME}
          colors={(s) => s.color}
          xScale={{ type: 'point' }}
          yScale={valueScale(series)}
          curve="monotoneX"
          lineWidth={2}
          enableArea={area !== undefined}
          areaOpacity={area ?? 0}
          enablePoints={pointRadius > 0}
          pointSize={pointRadius * 2}
          pointColor="#fff"
          pointBorderWidth={1.5}
          pointBorderColor={{ from: 'seriesColor' }}
          enableGridX={false}
          gridYValues={yTicks}
          axisBottom={{ tickValues: spreadTicks(categories, xTicks), tickSize: 0, tickPadding: 6, format: (v) => formatX(String(v)) }}
          axisLeft={{ tickValues: yTicks, tickSize: 0, tickPadding: 4, format, legend: yLegend, legendPosition: 'middle', legendOffset: -(margin.left - 12) }}
          enableSlices="x"
          sliceTooltip={({ slice }) => (
            <ChartTooltip title={String(slice.points[0]?.data.x ?? '')} rows={[...slice.points].sort((a, b) => a.seriesIndex - b.seriesIndex).map((p) => ({ name: String(p.seriesId), color: p.seriesColor, value: Number(p.data.y) }))} />
          )}
          layers={['grid', 'markers', 'axes', 'areas', 'crosshair', 'lines', 'points', 'slices', LineKeys]}
          animate={false}
          role="presentation"
        />
      </ChartFrame>
      {legend && <Legend series={series} />}
    </Box>
  );
}

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

type BarRow = Record<string, string | number>;
const CATEGORY = 'category';

/** Inside nivo's bars: a band behind the keyboard's category, and the frame learns where the categories are. */
function BarKeys({ xScale, margin, innerWidth, innerHeight }: BarCustomLayerProps<BarRow>) {
  const { index, place } = useActiveCategory();
  const band = xScale as unknown as { (v: string): number; bandwidth(): number; domain(): string[] };
  const categories = band.domain();
  const width = band.bandwidth();
  const xs = categories.map((c) => margin.left + band(c) + width / 2);
  useEffect(() => place({ xs, top: margin.top, width: innerWidth + margin.left + margin.right }));
  if (index === null || categories[index] === undefined) return null;
  const step = categories.length > 1 ? band(categories[1]) - band(categories[0]) : innerWidth;
  return <rect x={band(categories[index]) - (step - width) / 2} y={0} width={step} height={innerHeight} fill="#f3f4f6" aria-hidden="true" />;
}

/** Grouped bars, one group per category; the tooltip names the category and every series' value in it. */
export function BarChart({ categories, series, height, margin, yTicks, padding = 0.3, label, testId }: BarChartProps) {
  // Series by position, so that names (translated, maybe alike) never collide with the category's key.
  const keys = series.map((_s, i) => `s${i}`);
  const data: BarRow[] = categories.map((c, i) => Object.fromEntries([[CATEGORY, c], ...keys.map((k, j) => [k, series[j].data[i] ?? 0])]));
  return (
    <Box data-testid={testId}>
      <ChartFrame label={label} count={categories.length} height={height} tooltip={(i) => ({ title: categories[i], rows: rowsAt(series, i) })}>
        <ResponsiveBar<BarRow>
          data={data}
          keys={keys}
          indexBy={CATEGORY}
          groupMode="grouped"
          margin={margin}
          padding={padding}
          innerPadding={1}
          borderRadius={1}
          theme={CHART_THEME}
          colors={({ id }) => series[keys.indexOf(String(id))]?.color ?? '#ccc'}
          valueScale={valueScale(series)}
          enableLabel={false}
          enableGridY
          gridYValues={yTicks}
          axisBottom={null}
          axisLeft={{ tickValues: yTicks, tickSize: 0, tickPadding: 4, format: axisValue(allWhole(series)) }}
          tooltip={({ index }) => <ChartTooltip title={categories[index]} rows={rowsAt(series, index)} />}
          layers={['grid', BarKeys, 'axes', 'bars', 'markers']}
          animate={false}
          role="presentation"
        />
      </ChartFrame>
    </Box>
  );
}

export interface PiePart {
  name: string;
  color: string;
  value: number;
}

export interface PieChartProps {
  parts: PiePart[];
  /** The box's height; the ring is fitted into it. */
  height: number | string;
  margin: Margin;
  /** Degrees clockwise from 12 o'clock. */
  startAngle?: number;
  endAngle?: number;
  /** The hole's radius, a share of the ring's. */
  innerRatio: number;
  /** Degrees left empty between parts. */
  padAngle?: number;
  /** The chart's accessible name; without it the ring is decoration (its values are written beside it). */
  label?: string;
}

/** A ring of parts (or a part of a ring, for a gauge); a tooltip per part when it has a name. */
export function PieChart({ parts, height, margin, startAngle = 0, endAngle = 360, innerRatio, padAngle = 0, label }: PieChartProps) {
  const shown = parts.filter((p) => p.value > 0);
  // Nothing to share out: an empty grey ring, as a gauge at zero.
  const data = shown.length ? shown.map((p) => ({ id: p.name, value: p.value, color: p.color })) : [{ id: '', value: 1, color: '#eef0f3' }];
  return (
    <Box sx={{ height }} role={label ? 'img' : undefined} aria-label={label} aria-hidden={label ? undefined : true}>
      <ResponsivePie
        data={data}
        margin={margin}
        startAngle={startAngle}
        endAngle={endAngle}
        innerRadius={innerRatio}
        padAngle={shown.length > 1 ? padAngle : 0}
        colors={(d) => d.data.color}
        theme={CHART_THEME}
        enableArcLabels={false}
        enableArcLinkLabels={false}
        activeOuterRadiusOffset={2}
        isInteractive={Boolean(label) && shown.length > 0}
        tooltip={({ datum }) => <ChartTooltip title={label ?? ''} rows={[{ name: String(datum.id), color: datum.color, value: datum.value }]} />}
        animate={false}
        role="presentation"
      />
    </Box>
  );
}

/**
 * The dashboard's charts, drawn with the console's nivo charts (app/components/charts, a chunk of their
 * own): the same data the cards fetch, axes, legends and tooltips in the page's language.
 */
import { Box, Typography } from '@mui/material';
import { BarChart, LineChart, PieChart } from '../components/charts';
import type { CallAnswer } from '../../adapters/dataProvider';

/** A chart of the dashboard's calls: the categories along its axis, each series' value at each (the devices per product's, the month's by day). */
export type Chart = CallAnswer<'home.devicesOnline'>['data'];

export const PALETTE = ['#1677ff', '#36cfc9', '#faad14', '#f5222d', '#722ed1', '#52c41a'];

/** A chart's series with their translated names and colours. */
function named(chart: Chart, label: (key: string) => string, colors: string[]) {
  return chart.series.map((s, i) => ({ name: label(s.key), color: colors[i % colors.length], data: s.data }));
}

/** A card's small line chart; `label` translates a series key, `title` names the chart. */
export function MiniLine({ chart, label, title, colors = PALETTE, height = 120 }: { chart: Chart; label: (key: string) => string; title: string; colors?: string[]; height?: number }) {
  return (
    <LineChart
      categories={chart.categories}
      series={named(chart, label, colors)}
      height={height}
      margin={{ top: 8, right: 8, bottom: 22, left: 32 }}
      yTicks={3}
      xTicks={5}
      area={0.1}
      label={title}
    />
  );
}

/** Devices and those online, one pair of bars per product; the tooltip names the product. */
export function GroupedBars({ chart, label, title, height = 130 }: { chart: Chart; label: (key: string) => string; title: string; height?: number }) {
  return (
    <BarChart
      categories={chart.categories}
      series={named(chart, label, ['#91caff', '#1677ff'])}
      height={height}
      // Product names do not fit under narrow bars; the tooltip names each one.
      margin={{ top: 8, right: 8, bottom: 8, left: 32 }}
      yTicks={3}
      label={title}
    />
  );
}

/** The history chart under the cards: messages up and down, and warnings. */
export function HistoryChart({ chart, label, title, height = 300 }: { chart: Chart; label: (key: string) => string; title: string; height?: number }) {
  return (
    <LineChart
      testId="dashboard-history-chart"
      categories={chart.categories}
      series={named(chart, label, [PALETTE[0], PALETTE[1], PALETTE[3]])}
      height={height}
      margin={{ top: 16, right: 16, bottom: 24, left: 48 }}
      yTicks={5}
      xTicks={10}
      pointRadius={chart.categories.length > 40 ? 0 : 2.5}
      legend
      label={title}
    />
  );
}

/** A half-ring gauge with the value in the middle. */
export function Gauge({ value, max, unit, label, color, testId, caption }: { value: number; max: number; unit: string; label: string; color: string; testId: string; caption?: string }) {
  const shown = Math.min(Math.max(value, 0), max);
  return (
    <Box sx={{ position: 'relative', height: 150, flex: 1, minWidth: 150 }} data-testid={testId}>
      <Box sx={{ position: 'absolute', inset: 0 }}>
        <PieChart
          height="100%"
          parts={[
            { name: 'value', color, value: shown },
            { name: 'rest', color: '#eef0f3', value: Math.max(max - shown, 0.0001) },
          ]}
          startAngle={-100}
          endAngle={100}
          innerRatio={0.74}
          margin={{ top: 10, right: 10, bottom: 0, left: 10 }}
        />
      </Box>
      <Box sx={{ position: 'absolute', left: 0, right: 0, top: 62, textAlign: 'center' }}>
        <Typography sx={{ fontSize: 22, fontWeight: 700, lineHeight: 1.1 }} data-testid={`${testId}-value`}>
          {value.toFixed(unit === '%' ? 1 : 2)}
          <Typography component="span" sx={{ fontSize: 13, ml: 0.25, color: 'text.secondary' }}>
            {unit}
          </Typography>
        </Typography>
        <Typography sx={{ fontSize: 12, color: 'text.secondary' }}>{label}</Typography>
        {caption && <Typography sx={{ fontSize: 11, color: 'text.disabled' }}>{caption}</Typography>}
      </Box>
    </Box>
  );
}

/** Users by kind: a ring whose parts name their kind and count on hover. */
export function UserPie({ parts, title, height = 120 }: { parts: { label: string; value: number }[]; title: string; height?: number }) {
  const colors = [PALETTE[3], PALETTE[2], PALETTE[0]];
  return (
    <PieChart
      height={height}
      parts={parts.map((p, i) => ({ name: p.label, value: p.value, color: colors[i % colors.length] }))}
      innerRatio={0.6}
      padAngle={1}
      margin={{ top: 6, right: 6, bottom: 6, left: 6 }}
      label={title}
    />
  );
}

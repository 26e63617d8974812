/** The consumption chart: one line per device over the days or hours asked for. */
import { LineChart } from '../../components/charts';
import type { DeviceTotal } from './api';

const COLORS = ['#1677ff', '#36cfc9', '#faad14', '#f5222d', '#722ed1', '#52c41a', '#eb2f96', '#13c2c2', '#fa8c16', '#2f54eb'];
const MAX_TICKS = 10;

export interface EnergyChartProps {
  chart: DeviceTotal['chart'];
  /** The y axis legend (KW/H). */
  unit: string;
  /** The chart's accessible name. */
  title: string;
  height?: number;
}

export function EnergyChart({ chart, unit, title, height = 360 }: EnergyChartProps) {
  // Series names may repeat (two devices of the same name); the legend and tooltip must tell them apart.
  const series = chart.series.map((s, i) => ({
    name: chart.series.findIndex((o) => o.name === s.name) === i ? s.name : `${s.name} (${i + 1})`,
    color: COLORS[i % COLORS.length],
    data: s.data,
  }));
  const several = series.length > 1;
  return (
    <LineChart
      testId="energy-chart"
      categories={chart.categories}
      series={series}
      height={several ? height - 24 : height}
      margin={{ top: 20, right: 48, bottom: 28, left: 64 }}
      yTicks={5}
      xTicks={MAX_TICKS}
      // Hourly labels carry the date: the hour alone is enough under the ticks, the tooltip has it all.
      formatX={(v) => (v.length > 10 ? v.slice(5) : v)}
      pointRadius={chart.categories.length > 48 ? 0 : 3}
      area={several ? undefined : 0.08}
      legend={several}
      yLegend={unit}
      label={title}
    />
  );
}

export default EnergyChart;

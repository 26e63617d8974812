/**
 * The consumption chart: one line per device over the days or hours asked for. Loaded on demand with
 * nivo, so the login page and the shell do not carry the charting code.
 */
import { ResponsiveLine } from '@nivo/line';
import { Box } from '@mui/material';
import type { DeviceTotal } from './api';

const COLORS = ['#1677ff', '#36cfc9', '#faad14', '#f5222d', '#722ed1', '#52c41a', '#eb2f96', '#13c2c2', '#fa8c16', '#2f54eb'];
const MAX_TICKS = 10;

export interface EnergyChartProps {
  chart: DeviceTotal['chart'];
  /** The y axis legend (KW/H). */
  unit: string;
  height?: number;
}

export function EnergyChart({ chart, unit, height = 360 }: EnergyChartProps) {
  // Series names may repeat (two devices of the same name); ids must not.
  const data = chart.series.map((s, i) => ({
    id: chart.series.findIndex((o) => o.name === s.name) === i ? s.name : `${s.name} (${i + 1})`,
    data: chart.categories.map((x, j) => ({ x, y: s.data[j] ?? 0 })),
  }));
  const step = Math.max(1, Math.ceil(chart.categories.length / MAX_TICKS));
  const ticks = chart.categories.filter((_c, i) => i % step === 0);
  // Hourly labels carry the date: the hour alone is enough under the ticks, the tooltip has it all.
  const short = (v: string) => (v.length > 10 ? v.slice(5) : v);
  return (
    <Box sx={{ height }} data-testid="energy-chart">
      <ResponsiveLine
        data={data}
        margin={{ top: 20, right: 48, bottom: data.length > 1 ? 72 : 48, left: 64 }}
        xScale={{ type: 'point' }}
        yScale={{ type: 'linear', min: 0, max: 'auto' }}
        curve="monotoneX"
        colors={COLORS}
        lineWidth={2}
        pointSize={chart.categories.length > 48 ? 0 : 6}
        pointBorderWidth={1}
        pointBorderColor={{ from: 'serieColor' }}
        pointColor="#fff"
        enableArea={data.length === 1}
        areaOpacity={0.08}
        axisBottom={{ tickValues: ticks, format: short, tickRotation: 0 }}
        axisLeft={{ legend: unit, legendOffset: -52, legendPosition: 'middle', tickValues: 5 }}
        gridYValues={5}
        enableGridX={false}
        useMesh
        enableSlices="x"
        legends={
          data.length > 1
            ? [{ anchor: 'bottom', direction: 'row', translateY: 64, itemWidth: 120, itemHeight: 16, symbolSize: 10, symbolShape: 'circle' }]
            : []
        }
        theme={{ text: { fontSize: 11 }, axis: { legend: { text: { fontSize: 12, fontWeight: 600 } } }, tooltip: { container: { whiteSpace: 'nowrap' } } }}
      />
    </Box>
  );
}

export default EnergyChart;

/** The dashboard's nivo charts. This module is part of the dashboard's lazily loaded chunk. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Bar } from '@nivo/bar';
import { Line } from '@nivo/line';
import { Pie } from '@nivo/pie';
import { Box, Typography, type SxProps } from '@mui/material';

export interface Chart {
  categories: string[];
  series: { key: string; name: string; data: number[] }[];
}

export const PALETTE = ['#1677ff', '#36cfc9', '#faad14', '#f5222d', '#722ed1', '#52c41a'];
// Tooltips near the chart's edge get little room; Chinese labels would otherwise break after every character.
const THEME = {
  text: { fontSize: 10, fill: '#6b7280' },
  grid: { line: { stroke: '#eef0f3' } },
  tooltip: { container: { whiteSpace: 'nowrap' as const } },
};

interface Size {
  width: number;
  height: number;
}

/**
 * A chart's box, measured; the chart is drawn at the box's settled size only. nivo's own responsive
 * wrapper re-renders at every intermediate (even zero) width while the sidebar collapses, which makes
 * its animated transforms undefined (`translate(,)` errors); here a new size is taken once the box
 * has stopped changing, and nothing is drawn while the box has no area.
 */
function Sized({ sx, testId, children }: { sx: SxProps; testId?: string; children: (size: Size) => ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<Size | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const measure = () => ({
      width: Math.floor(el.clientWidth),
      height: Math.floor(el.clientHeight),
    });
    const first = measure();
    if (first.width > 0 && first.height > 0) setSize(first);
    const observer = new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        const next = measure();
        setSize((prev) => (next.width > 0 && next.height > 0 ? (prev && prev.width === next.width && prev.height === next.height ? prev : next) : null));
      }, 200);
    });
    observer.observe(el);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, []);
  return (
    <Box ref={box} sx={{ ...sx, overflow: 'hidden' } as SxProps} data-testid={testId}>
      {size && children(size)}
    </Box>
  );
}

/** Shows at most `max` labels under the axis, evenly spread. */
function ticks(categories: string[], max: number): string[] {
  const step = Math.max(1, Math.ceil(categories.length / max));
  return categories.filter((_c, i) => i % step === 0);
}

/** A card's small line chart; `label` translates a series key. */
export function MiniLine({ chart, label, colors = PALETTE, height = 120 }: { chart: Chart; label: (key: string) => string; colors?: string[]; height?: number }) {
  const data = chart.series.map((s) => ({
    id: label(s.key),
    data: chart.categories.map((x, i) => ({ x, y: s.data[i] ?? 0 })),
  }));
  return (
    <Sized sx={{ height }}>
      {(size) => (
        <Line
          {...size}
          data={data}
          margin={{ top: 8, right: 8, bottom: 22, left: 32 }}
          xScale={{ type: 'point' }}
          yScale={{ type: 'linear', min: 0, max: 'auto' }}
          curve="monotoneX"
          colors={colors}
          lineWidth={2}
          enablePoints={false}
          enableArea
          areaOpacity={0.1}
          enableGridX={false}
          gridYValues={3}
          axisLeft={{ tickValues: 3, tickSize: 0, tickPadding: 4 }}
          axisBottom={{
            tickValues: ticks(chart.categories, 5),
            tickSize: 0,
            tickPadding: 6,
          }}
          useMesh
          enableSlices="x"
          theme={THEME}
        />
      )}
    </Sized>
  );
}

/** Devices and those online, one pair of bars per category. */
export function GroupedBars({ chart, label, height = 130 }: { chart: Chart; label: (key: string) => string; height?: number }) {
  const keys = chart.series.map((s) => label(s.key));
  const data = chart.categories.map((c, i) => Object.fromEntries([['category', c], ...chart.series.map((s) => [label(s.key), s.data[i] ?? 0])]));
  return (
    <Sized sx={{ height }}>
      {(size) => (
        <Bar
          {...size}
          data={data}
          keys={keys}
          indexBy="category"
          groupMode="grouped"
          margin={{ top: 8, right: 8, bottom: 8, left: 32 }}
          padding={0.3}
          innerPadding={1}
          colors={['#91caff', '#1677ff']}
          enableLabel={false}
          enableGridY
          gridYValues={3}
          axisLeft={{ tickValues: 3, tickSize: 0, tickPadding: 4 }}
          // Product names do not fit under narrow bars; the tooltip names each one.
          axisBottom={null}
          theme={THEME}
        />
      )}
    </Sized>
  );
}

/** The history chart under the cards: messages up and down, and warnings. */
export function HistoryChart({ chart, label, height = 300 }: { chart: Chart; label: (key: string) => string; height?: number }) {
  const data = chart.series.map((s) => ({
    id: label(s.key),
    data: chart.categories.map((x, i) => ({ x, y: s.data[i] ?? 0 })),
  }));
  return (
    <Sized sx={{ height }} testId="dashboard-history-chart">
      {(size) => (
        <Line
          {...size}
          data={data}
          margin={{ top: 16, right: 16, bottom: 56, left: 48 }}
          xScale={{ type: 'point' }}
          yScale={{ type: 'linear', min: 0, max: 'auto' }}
          curve="monotoneX"
          colors={[PALETTE[0], PALETTE[1], PALETTE[3]]}
          lineWidth={2}
          pointSize={chart.categories.length > 40 ? 0 : 5}
          enableGridX={false}
          gridYValues={5}
          axisLeft={{ tickValues: 5 }}
          axisBottom={{ tickValues: ticks(chart.categories, 10) }}
          useMesh
          enableSlices="x"
          legends={[
            {
              anchor: 'bottom',
              direction: 'row',
              translateY: 50,
              itemWidth: 110,
              itemHeight: 16,
              symbolSize: 10,
              symbolShape: 'circle',
            },
          ]}
          theme={{ ...THEME, text: { fontSize: 11, fill: '#4b5563' } }}
        />
      )}
    </Sized>
  );
}

/** A half-ring gauge with the value in the middle. */
export function Gauge({ value, max, unit, label, color, testId, caption }: { value: number; max: number; unit: string; label: string; color: string; testId: string; caption?: string }) {
  const shown = Math.min(Math.max(value, 0), max);
  const data = [
    { id: 'value', value: shown },
    { id: 'rest', value: Math.max(max - shown, 0.0001) },
  ];
  return (
    <Box sx={{ position: 'relative', height: 150, flex: 1, minWidth: 150 }} data-testid={testId}>
      <Sized sx={{ position: 'absolute', inset: 0 }}>
        {(size) => (
          <Pie
            {...size}
            data={data}
            startAngle={-100}
            endAngle={100}
            innerRadius={0.74}
            margin={{ top: 10, right: 10, bottom: 0, left: 10 }}
            colors={[color, '#eef0f3']}
            enableArcLabels={false}
            enableArcLinkLabels={false}
            isInteractive={false}
            animate
          />
        )}
      </Sized>
      <Box
        sx={{
          position: 'absolute',
          left: 0,
          right: 0,
          top: 62,
          textAlign: 'center',
        }}
      >
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

/** Users by kind. */
export function UserPie({ parts, height = 120 }: { parts: { id: string; label: string; value: number }[]; height?: number }) {
  return (
    <Sized sx={{ height }}>
      {(size) => (
        <Pie
          {...size}
          data={parts}
          innerRadius={0.6}
          padAngle={1}
          cornerRadius={2}
          margin={{ top: 6, right: 6, bottom: 6, left: 6 }}
          colors={[PALETTE[3], PALETTE[2], PALETTE[0]]}
          enableArcLabels={false}
          enableArcLinkLabels={false}
          theme={THEME}
        />
      )}
    </Sized>
  );
}

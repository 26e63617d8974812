/**
 * The console's charts (nivo), each a lazy part of one chunk: a page that draws a chart fetches nivo
 * when the chart first shows, and holds the chart's height meanwhile so nothing below it moves.
 */
import { Suspense, type ComponentProps, type ComponentType } from 'react';
import { Box } from '@mui/material';
import { lazyChunk } from '../../shell/chunks';
import type { BarChartProps, LineChartProps, PieChartProps } from './nivo';

export type { Series, Margin } from './theme';
export type { PiePart } from './nivo';

const nivo = () => import('./nivo');

/** A chart of the chunk, shown in place of an empty box of `height(props)` until the chunk has arrived. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function lazyChart<P extends object>(load: () => Promise<ComponentType<P>>, height: (props: P) => number | string): ComponentType<P> {
  const Chart = lazyChunk(() => load().then((c) => ({ default: c })));
  return function LazyChart(props: P) {
    return (
      <Suspense fallback={<Box sx={{ height: height(props) }} />}>
        <Chart {...(props as ComponentProps<typeof Chart>)} />
      </Suspense>
    );
  };
}

/** The legend's line under a chart that shows one. */
const LEGEND_HEIGHT = 18;

export const LineChart = lazyChart<LineChartProps>(() => nivo().then((m) => m.LineChart), (p) => p.height + (p.legend ? LEGEND_HEIGHT : 0));
export const BarChart = lazyChart<BarChartProps>(() => nivo().then((m) => m.BarChart), (p) => p.height);
export const PieChart = lazyChart<PieChartProps>(() => nivo().then((m) => m.PieChart), (p) => p.height);

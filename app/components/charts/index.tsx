/**
 * The console's charts (nivo), each a lazy part of one chunk: a page that draws a chart fetches nivo
 * when the chart first shows, and holds the chart's height meanwhile so nothing below it moves.
 *
 * A page whose first screen reads without its charts (the home page: figures first) puts them in
 * `<ChartsAfter ready={…}>`: nivo is fetched only once the page says its first screen is shown and the
 * browser has painted it, so the chart code does not compete with the page's own code, answers and
 * first paint. Until then each chart is an empty box of its size.
 */
import { createContext, Suspense, useContext, useEffect, useState, type ComponentProps, type ComponentType, type ReactNode } from 'react';
import { Box } from '@mui/material';
import { lazyChunk } from '../../shell/chunks';
import type { BarChartProps, LineChartProps, PieChartProps } from './nivo';
import { LEGEND_HEIGHT } from './theme';

export { LEGEND_HEIGHT, type Series, type Margin } from './theme';
export type { PiePart } from './nivo';

/** Whether nivo has arrived: a page opened again draws its charts at once, with no wait. */
let nivoLoaded = false;
const nivo = () =>
  import('./nivo').then((m) => {
    nivoLoaded = true;
    return m;
  });

/** Whether the charts under it may fetch nivo now (yes, unless a `ChartsAfter` holds them back). */
const ChartsAllowed = createContext(true);

/** At the latest this long after it first shows, `ChartsAfter` lets its charts load even if the page is not ready. */
export const CHARTS_AFTER_MAX_MS = 3000;

/** After the frame that paints the page, when the browser has a moment (at the latest in half a second). */
function afterPaint(then: () => void): () => void {
  let idle: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    // The frame's callbacks run before its paint; the next task runs after it.
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(then, { timeout: 500 });
    else timer = setTimeout(then, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    if (idle !== undefined) cancelIdleCallback(idle);
    clearTimeout(timer);
  };
}

/**
 * Holds the charts inside back until `ready` (the page's first screen shown) and painted, or
 * CHARTS_AFTER_MAX_MS after it first showed, whichever comes first; once let go they stay.
 */
export function ChartsAfter({ ready, children }: { ready: boolean; children: ReactNode }) {
  const [allowed, setAllowed] = useState(nivoLoaded);
  useEffect(() => {
    if (allowed) return;
    const timer = setTimeout(() => setAllowed(true), CHARTS_AFTER_MAX_MS);
    return () => clearTimeout(timer);
  }, [allowed]);
  useEffect(() => {
    if (allowed || !ready) return;
    return afterPaint(() => setAllowed(true));
  }, [allowed, ready]);
  return <ChartsAllowed.Provider value={allowed}>{children}</ChartsAllowed.Provider>;
}

/** A chart of the chunk, shown in place of an empty box of `height(props)` until the chunk has arrived. */
function lazyChart<P extends object>(load: () => Promise<ComponentType<P>>, height: (props: P) => number | string): ComponentType<P> {
  const Chart = lazyChunk(() => load().then((c) => ({ default: c })));
  return function LazyChart(props: P) {
    const allowed = useContext(ChartsAllowed);
    const place = <Box sx={{ height: height(props) }} />;
    if (!allowed) return place;
    return (
      <Suspense fallback={place}>
        <Chart {...(props as ComponentProps<typeof Chart>)} />
      </Suspense>
    );
  };
}

export const LineChart = lazyChart<LineChartProps>(() => nivo().then((m) => m.LineChart), (p) => p.height + (p.legend ? LEGEND_HEIGHT : 0));
export const BarChart = lazyChart<BarChartProps>(() => nivo().then((m) => m.BarChart), (p) => p.height);
export const PieChart = lazyChart<PieChartProps>(() => nivo().then((m) => m.PieChart), (p) => p.height);

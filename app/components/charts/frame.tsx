/**
 * What the console's nivo charts add around nivo: one stop in the tab order per chart, whose arrow keys
 * walk its categories with the same tooltip the pointer gets (nivo's own focus goes point by point), the
 * tooltip's box, and the legend under a chart. Text is HTML in the page's font, so every language reads
 * at the page's size.
 */
import { createContext, useCallback, useContext, useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Box } from '@mui/material';
import { formatValue, LEGEND_HEIGHT, type Series } from './theme';

export interface TooltipRow {
  name: string;
  color: string;
  value: number;
}

/**
 * The values at one category: its title and a row per series, never wrapped (Chinese names would
 * otherwise break after every character).
 */
export function ChartTooltip({ id, title, rows }: { id?: string; title: string; rows: TooltipRow[] }) {
  return (
    <Box id={id} role={id ? 'status' : undefined} sx={{ bgcolor: 'background.paper', boxShadow: 2, borderRadius: 1, px: 1, py: 0.5, fontSize: 12, whiteSpace: 'nowrap' }}>
      <Box sx={{ fontWeight: 600, mb: 0.25 }}>{title}</Box>
      {rows.map((row) => (
        <Box key={row.name} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
          <Box component="span" sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: row.color, flexShrink: 0 }} />
          <Box component="span" sx={{ flex: 1 }}>
            {row.name}
          </Box>
          <Box component="span" sx={{ fontWeight: 600, ml: 1 }}>
            {formatValue(row.value)}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/** The series' names and colours under a chart; wraps when the names do not fit on one line. */
export function Legend({ series }: { series: Pick<Series, 'name' | 'color'>[] }) {
  return (
    <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', alignItems: 'center', gap: '2px 16px', minHeight: LEGEND_HEIGHT, m: 0, p: 0, listStyle: 'none', fontSize: 11, color: '#4b5563' }}>
      {series.map((s) => (
        <Box component="li" key={s.name} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
          <Box component="span" sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: s.color }} />
          {s.name}
        </Box>
      ))}
    </Box>
  );
}

/** Where nivo drew the categories: the middle of each (px from the chart box's left), the plot's top and the box's width. */
export interface Placement {
  xs: number[];
  top: number;
  width: number;
}

interface Active {
  /** The category the keyboard is on; null when the chart has no keyboard focus. */
  index: number | null;
  /** A drawing layer inside nivo tells where the categories are. */
  place: (placement: Placement) => void;
}

const ActiveCategory = createContext<Active>({ index: null, place: () => undefined });

/** For a nivo layer: the keyboard's category, and where to tell the frame the categories were drawn. */
export const useActiveCategory = () => useContext(ActiveCategory);

/**
 * A chart's box: it takes focus (Tab), ←/→ move between the `count` categories, Home/End jump, Escape
 * hides; the tooltip of the category shows beside it, on the side with more room, and describes the
 * chart to a screen reader. A click does not open it (the pointer has nivo's).
 */
export function ChartFrame({ label, count, height, tooltip, children }: { label: string; count: number; height: number; tooltip: (index: number) => { title: string; rows: TooltipRow[] }; children: ReactNode }) {
  const id = useId();
  const [index, setIndex] = useState<number | null>(null);
  const [placement, setPlacement] = useState<Placement | null>(null);
  const place = useCallback((next: Placement) => setPlacement((prev) => (prev && prev.top === next.top && prev.width === next.width && prev.xs.join() === next.xs.join() ? prev : next)), []);
  const clamp = (i: number) => Math.min(count - 1, Math.max(0, i));
  const active = index !== null && index < count ? index : null;
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, (a: number) => number> = { ArrowLeft: (a) => a - 1, ArrowRight: (a) => a + 1, Home: () => 0, End: () => count - 1 };
    if (e.key === 'Escape') return setIndex(null);
    const move = moves[e.key];
    if (!move || !count) return;
    e.preventDefault();
    setIndex((a) => clamp(move(a ?? count - 1)));
  };
  const x = active !== null ? placement?.xs[active] : undefined;
  const right = x !== undefined && placement ? x < placement.width / 2 : true;
  return (
    // The tooltip is the image's sibling, not its child: a screen reader reads an image's content as one
    // picture, and would not hear the status change.
    <Box sx={{ position: 'relative', height }}>
      <Box
        tabIndex={0}
        role="img"
        aria-label={label}
        aria-describedby={active !== null ? id : undefined}
        onKeyDown={onKeyDown}
        onFocus={(e) => e.currentTarget.matches(':focus-visible') && count > 0 && setIndex((a) => a ?? count - 1)}
        onBlur={() => setIndex(null)}
        sx={{ height: '100%', outline: 'none', '&:focus-visible': { boxShadow: (t) => `0 0 0 2px ${t.palette.primary.main}`, borderRadius: 0.5 } }}
      >
        <ActiveCategory.Provider value={{ index: active, place }}>{children}</ActiveCategory.Provider>
      </Box>
      {active !== null && x !== undefined && placement && (
        <Box sx={{ position: 'absolute', top: placement.top, left: right ? x + 12 : undefined, right: right ? undefined : placement.width - x + 12, pointerEvents: 'none', zIndex: 1 }}>
          <ChartTooltip id={id} {...tooltip(active)} />
        </Box>
      )}
    </Box>
  );
}

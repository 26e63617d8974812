/**
 * What the console's SVG charts share: the measured box they are drawn in, the y axis with its grid,
 * the hover/focus tooltip and the legend. Text is HTML or SVG text in the page's font, so every
 * language reads at the page's size.
 */
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { Box, type SxProps } from '@mui/material';
import { niceTicks } from './geometry';

export interface Size {
  width: number;
  height: number;
}

export interface Margin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** One line, bar group or ring part: its name (already translated), its colour and a value per category. */
export interface Series {
  name: string;
  color: string;
  data: number[];
}

export const AXIS_TEXT = { fontSize: 10, fill: '#6b7280' };
const GRID = '#eef0f3';

export const formatValue = (n: number) => n.toLocaleString();

/**
 * A chart's box, measured; the chart is drawn at the box's settled size only: a new size is taken once
 * the box has stopped changing (the sidebar's collapse animates it), and nothing is drawn while the box
 * has no area.
 */
export function Sized({ sx, testId, children }: { sx: SxProps; testId?: string; children: (size: Size) => ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState<Size | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const measure = () => ({ width: Math.floor(el.clientWidth), height: Math.floor(el.clientHeight) });
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
    <Box ref={box} sx={{ position: 'relative', ...sx } as SxProps} data-testid={testId}>
      {size && children(size)}
    </Box>
  );
}

/** The y scale of a plot: round ticks from 0 past the largest value, and the pixel row of a value. */
export function yScale(series: Series[], count: number, top: number, bottom: number) {
  const max = Math.max(0, ...series.flatMap((s) => s.data));
  const ticks = niceTicks(max, count);
  const top_ = ticks[ticks.length - 1];
  return { ticks, y: (v: number) => bottom - ((bottom - top) * v) / top_ };
}

/** Horizontal grid lines with their values left of the plot, and the axis legend (a unit) if any. */
export function YAxis({ ticks, y, left, right, legend }: { ticks: number[]; y: (v: number) => number; left: number; right: number; legend?: string }) {
  return (
    <g aria-hidden="true">
      {ticks.map((t) => (
        <g key={t}>
          <line x1={left} x2={right} y1={y(t)} y2={y(t)} stroke={GRID} />
          <text x={left - 4} y={y(t)} dy="0.32em" textAnchor="end" {...AXIS_TEXT}>
            {formatValue(t)}
          </text>
        </g>
      ))}
      {legend && (
        <text transform={`translate(${left - 40},${(y(0) + y(ticks[ticks.length - 1])) / 2}) rotate(-90)`} textAnchor="middle" fontSize={12} fontWeight={600} fill="#4b5563">
          {legend}
        </text>
      )}
    </g>
  );
}

/**
 * The values at one category, by the pointer or the keyboard: beside `x` in the chart's box, on the side
 * with more room, never wrapped (Chinese names would otherwise break after every character).
 */
export function Tooltip({ id, x, y, width, title, rows }: { id: string; x: number; y: number; width: number; title: string; rows: { name: string; color: string; value: number }[] }) {
  const right = x < width / 2;
  return (
    <Box
      id={id}
      role="status"
      sx={{
        position: 'absolute',
        top: y,
        left: right ? x + 12 : undefined,
        right: right ? undefined : width - x + 12,
        pointerEvents: 'none',
        bgcolor: 'background.paper',
        boxShadow: 2,
        borderRadius: 1,
        px: 1,
        py: 0.5,
        fontSize: 12,
        whiteSpace: 'nowrap',
        zIndex: 1,
      }}
    >
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
    <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: '2px 16px', m: 0, p: 0, listStyle: 'none', fontSize: 11, color: '#4b5563' }}>
      {series.map((s) => (
        <Box component="li" key={s.name} sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
          <Box component="span" sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: s.color }} />
          {s.name}
        </Box>
      ))}
    </Box>
  );
}

/**
 * The category a pointer or the arrow keys point at, for plots whose categories are spread across the
 * width: `at(x)` maps a pixel column to an index. Keyboard users reach every value: the plot takes focus,
 * arrows move, Home/End jump, Escape hides.
 */
export function useActiveCategory(count: number, at: (x: number) => number) {
  const [active, setActive] = useState<number | null>(null);
  const clamp = (i: number) => Math.min(count - 1, Math.max(0, i));
  return {
    active: active !== null && active < count ? active : null,
    handlers: {
      tabIndex: 0,
      onPointerMove: (e: PointerEvent<SVGSVGElement>) => {
        const box = e.currentTarget.getBoundingClientRect();
        setActive(clamp(at(e.clientX - box.left)));
      },
      onPointerLeave: () => setActive(null),
      onFocus: () => setActive((a) => a ?? count - 1),
      onBlur: () => setActive(null),
      onKeyDown: (e: KeyboardEvent<SVGSVGElement>) => {
        const moves: Record<string, (a: number) => number> = {
          ArrowLeft: (a) => a - 1,
          ArrowRight: (a) => a + 1,
          Home: () => 0,
          End: () => count - 1,
        };
        if (e.key === 'Escape') return setActive(null);
        const move = moves[e.key];
        if (!move) return;
        e.preventDefault();
        setActive((a) => clamp(move(a ?? count - 1)));
      },
    },
  };
}

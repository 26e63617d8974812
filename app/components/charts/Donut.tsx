/** A ring of parts (or a part of a ring, for a gauge), fitted into its box; a tooltip per part if interactive. */
import { useId, useState } from 'react';
import type { SxProps } from '@mui/material';
import { arcPath } from './geometry';
import { Sized, Tooltip, type Margin, type Size } from './frame';

export interface DonutPart {
  name: string;
  color: string;
  value: number;
}

export interface DonutProps {
  parts: DonutPart[];
  /** The box: a height, or a position. */
  sx: SxProps;
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

export function Donut(props: DonutProps) {
  return <Sized sx={props.sx}>{(size) => <Ring {...props} size={size} />}</Sized>;
}

const RAD = Math.PI / 180;

/** The unit ring's extent between two angles: its ends and whichever of 12, 3, 6 and 9 o'clock it passes. */
function extent(start: number, end: number, inner: number) {
  const angles = [start, end, ...[-360, -270, -180, -90, 0, 90, 180, 270, 360].map((a) => a * RAD).filter((a) => a > start && a < end)];
  const points = angles.flatMap((a) => [
    [Math.sin(a), -Math.cos(a)],
    [inner * Math.sin(a), -inner * Math.cos(a)],
  ]);
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };
}

function Ring({ parts, margin, startAngle = 0, endAngle = 360, innerRatio, padAngle = 0, label, size }: DonutProps & { size: Size }) {
  const tooltipId = useId();
  const [active, setActive] = useState<number | null>(null);
  const start = startAngle * RAD;
  const end = endAngle * RAD;
  const box = extent(start, end, innerRatio);
  const width = size.width - margin.left - margin.right;
  const height = size.height - margin.top - margin.bottom;
  const radius = Math.max(0, Math.min(width / (box.maxX - box.minX), height / (box.maxY - box.minY)));
  // The ring's extent centred in the box.
  const cx = margin.left + (width - radius * (box.maxX - box.minX)) / 2 - radius * box.minX;
  const cy = margin.top + (height - radius * (box.maxY - box.minY)) / 2 - radius * box.minY;
  const total = parts.reduce((sum, p) => sum + Math.max(0, p.value), 0);
  const pad = parts.filter((p) => p.value > 0).length > 1 ? padAngle * RAD : 0;
  let at = start;
  const arcs = parts.map((p) => {
    const sweep = total > 0 ? ((end - start) * Math.max(0, p.value)) / total : 0;
    const arc = { from: at + pad / 2, to: at + sweep - pad / 2 };
    at += sweep;
    return arc;
  });
  const interactive = Boolean(label);
  return (
    <>
      <svg width={size.width} height={size.height} role={interactive ? 'img' : undefined} aria-label={label} aria-hidden={interactive ? undefined : true} style={{ display: 'block' }}>
        <g transform={`translate(${cx},${cy})`}>
          {total === 0 && <path d={arcPath(start, end, radius, radius * innerRatio)} fill="#eef0f3" />}
          {arcs.map(
            (arc, i) =>
              arc.to > arc.from && (
                <path
                  key={parts[i].name}
                  d={arcPath(arc.from, arc.to, active === i ? radius + 2 : radius, radius * innerRatio)}
                  fill={parts[i].color}
                  onPointerEnter={interactive ? () => setActive(i) : undefined}
                  onPointerLeave={interactive ? () => setActive(null) : undefined}
                />
              ),
          )}
        </g>
      </svg>
      {active !== null && parts[active] && <Tooltip id={tooltipId} x={cx} y={4} width={size.width} title={label ?? ''} rows={[parts[active]]} />}
    </>
  );
}

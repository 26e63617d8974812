/** Small pieces the monitor pages share: their figures' call, a titled card of figures, a figure, a sparkline, byte sizes. */
import { useCallback, useState, type ReactNode } from 'react';
import { Box, Paper, Typography } from '@mui/material';
import { useRequest } from '../../components/calls';
import type { CallAnswer } from '../../../adapters/dataProvider';

/**
 * A monitor call's figures: the last answer, what went wrong (the server's words, else `failed`) while
 * the last figures stay shown, and whether it is being asked; `load` asks.
 */
export function useFigures<N extends 'monitor.database' | 'monitor.system'>(call: N, failed = '') {
  const request = useRequest();
  const [data, setData] = useState<CallAnswer<N> | null>(null);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);
  const load = useCallback(async () => {
    setLoading(true);
    const res = await request(call, {});
    setLoading(false);
    if (res.ok && res.data) {
      setData(res.data);
      setError('');
    } else setError(res.message || failed);
  }, [call, failed]);
  return { data, error, loading, load };
}

export function Card({ title, children, testId, wide }: { title: string; children: ReactNode; testId?: string; wide?: boolean }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, gridColumn: wide ? '1 / -1' : undefined }} data-testid={testId}>
      <Typography variant="subtitle2" color="text.secondary" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

export function Figure({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Box sx={{ minWidth: 110 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h6" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid={testId}>
        {value}
      </Typography>
    </Box>
  );
}

export const Figures = ({ children }: { children: ReactNode }) => <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>{children}</Box>;

/** A line of the last values, scaled to its own maximum. */
export function Sparkline({ values, label, color = '#1976d2' }: { values: number[]; label: string; color?: string }) {
  const w = 300;
  const h = 48;
  const max = Math.max(1, ...values);
  const points = values.map((v, i) => `${(i / Math.max(1, values.length - 1)) * w},${h - (v / max) * (h - 4) - 2}`).join(' ');
  return (
    <Box component="svg" viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" role="img" aria-label={label} sx={{ width: '100%', height: h, display: 'block', mt: 1 }}>
      <polyline points={points} fill="none" stroke={color} strokeWidth={1.5} vectorEffect="non-scaling-stroke" />
    </Box>
  );
}

export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '-';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 || i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

/**
 * Database monitor at /druid (spec 002 §2.17, the legacy address of its database page): the database's
 * size and cache hit ratio, every table's rows and sizes, the connections, and the slowest statements
 * (pg_stat_statements when the server has it, otherwise this server's own timings). Administrators only.
 */
import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, LinearProgress, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tooltip, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useTranslate } from 'react-admin';
import { useCan } from '../../auth/useCan';
import { EmptyRow, EmptyState } from '../../components/EmptyState';
import { useRequest } from '../../components/calls';
import { Card, Figure, Figures, bytes } from './figures';


interface DatabaseFigures {
  kind: string;
  name: string;
  version: string;
  sizeBytes: number;
  cacheHitRatio: number | null;
  commits: number;
  rollbacks: number;
  tables: { name: string; rows: number; exact: boolean; totalBytes: number; dataBytes: number; indexBytes: number; seqScans: number; indexScans: number }[];
  connections: { max: number; byState: { state: string; count: number }[]; pool: { total: number; idle: number; waiting: number; max: number } | null };
  statements: { source: 'pg_stat_statements' | 'server'; list: { query: string; calls: number; meanMs: number; maxMs: number; totalMs: number }[] };
}

export function DruidPage() {
  const translate = useTranslate();
  const request = useRequest();
  const can = useCan('monitor:druid');
  const [data, setData] = useState<DatabaseFigures | null>(null);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);
  const load = useCallback(async () => {
    setLoading(true);
    const res = await request<DatabaseFigures>('monitor.database', {});
    setLoading(false);
    if (res.ok && res.data) {
      setData(res.data);
      setError('');
    } else setError(res.message || translate('monitor.failed'));
  }, [translate]);
  useEffect(() => {
    if (can) void load();
  }, [can, load]);

  if (!can) return <EmptyState />;
  const n = (v: number) => v.toLocaleString();
  return (
    <Box data-testid="druid-page" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button size="small" variant="outlined" startIcon={<RefreshIcon />} onClick={() => void load()} disabled={loading} data-testid="druid-refresh">
          {translate('monitor.refresh')}
        </Button>
      </Box>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
      {error && <Alert severity="error">{error}</Alert>}
      {data && (
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '2fr 1fr' } }}>
          <Card title={translate('druid.overview')} testId="druid-overview">
            <Figures>
              <Figure label={translate('druid.name')} value={`${data.name} (${data.kind === 'postgres' ? 'PostgreSQL' : 'PGlite'})`} />
              <Figure label={translate('druid.size')} value={bytes(data.sizeBytes)} testId="druid-size" />
              <Figure label={translate('druid.tables')} value={data.tables.length} />
              <Figure label={translate('druid.cacheHit')} value={data.cacheHitRatio === null ? '-' : `${data.cacheHitRatio}%`} />
              <Figure label={translate('druid.commits')} value={n(data.commits)} />
              <Figure label={translate('druid.rollbacks')} value={n(data.rollbacks)} />
            </Figures>
            <Typography variant="caption" color="text.secondary">
              {data.version}
            </Typography>
          </Card>
          <Card title={translate('druid.connections')} testId="druid-connections">
            <Figures>
              <Figure label={translate('druid.maxConnections')} value={data.connections.max} />
              {data.connections.pool && <Figure label={translate('druid.pool')} value={`${data.connections.pool.total} / ${data.connections.pool.max}`} />}
            </Figures>
            <Table size="small">
              <TableBody>
                {data.connections.byState.map((c) => (
                  <TableRow key={c.state}>
                    <TableCell>{c.state}</TableCell>
                    <TableCell align="right">{c.count}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Card>
          <Card title={translate('druid.statements')} testId="druid-statements" wide>
            <Typography variant="caption" color="text.secondary">
              {translate('druid.source')}: {translate(data.statements.source === 'server' ? 'druid.sourceServer' : 'druid.sourcePg')}
            </Typography>
            <TableContainer sx={{ maxHeight: 360 }}>
              <Table size="small" stickyHeader>
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('druid.query')}</TableCell>
                    <TableCell align="right">{translate('druid.calls')}</TableCell>
                    <TableCell align="right">{translate('druid.mean')}</TableCell>
                    <TableCell align="right">{translate('druid.max')}</TableCell>
                    <TableCell align="right">{translate('druid.totalMs')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.statements.list.map((s, i) => (
                    <TableRow key={i} data-testid="druid-statement">
                      <TableCell sx={{ maxWidth: 640, fontFamily: 'monospace', fontSize: 12, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                        <Tooltip title={s.query}>
                          <span>{s.query}</span>
                        </Tooltip>
                      </TableCell>
                      <TableCell align="right">{n(s.calls)}</TableCell>
                      <TableCell align="right">{s.meanMs}</TableCell>
                      <TableCell align="right">{s.maxMs}</TableCell>
                      <TableCell align="right">{s.totalMs}</TableCell>
                    </TableRow>
                  ))}
                  {!data.statements.list.length && <EmptyRow columns={5} message={translate('druid.empty')} />}
                </TableBody>
              </Table>
            </TableContainer>
          </Card>
          <Card title={translate('druid.tables')} testId="druid-tables" wide>
            <TableContainer sx={{ maxHeight: 480 }}>
              <Table size="small" stickyHeader>
                <TableHead>
                  <TableRow>
                    <TableCell>{translate('druid.table')}</TableCell>
                    <TableCell align="right">{translate('druid.rows')}</TableCell>
                    <TableCell align="right">{translate('druid.total')}</TableCell>
                    <TableCell align="right">{translate('druid.data')}</TableCell>
                    <TableCell align="right">{translate('druid.indexes')}</TableCell>
                    <TableCell align="right">{translate('druid.seqScans')}</TableCell>
                    <TableCell align="right">{translate('druid.indexScans')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.tables.map((t) => (
                    <TableRow key={t.name} hover data-testid="druid-table-row">
                      <TableCell sx={{ fontFamily: 'monospace' }}>{t.name}</TableCell>
                      <TableCell align="right">
                        {n(t.rows)}
                        {!t.exact && ` (${translate('druid.estimate')})`}
                      </TableCell>
                      <TableCell align="right">{bytes(t.totalBytes)}</TableCell>
                      <TableCell align="right">{bytes(t.dataBytes)}</TableCell>
                      <TableCell align="right">{bytes(t.indexBytes)}</TableCell>
                      <TableCell align="right">{n(t.seqScans)}</TableCell>
                      <TableCell align="right">{n(t.indexScans)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </Card>
        </Box>
      )}
    </Box>
  );
}

export default DruidPage;

/**
 * Database monitor at /druid (spec 002 §2.17, the legacy address of its database page): the database's
 * size and cache hit ratio, every table's rows and sizes, the connections, and the slowest statements
 * (pg_stat_statements when the server has it, otherwise this server's own timings). Administrators only.
 */
import { useEffect, type ReactNode } from 'react';
import { Alert, Box, Button, LinearProgress, Table, TableBody, TableCell, TableRow, Tooltip, Typography } from '@mui/material';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useTranslate } from 'react-admin';
import { useCan } from '../../auth/useCan';
import { EmptyState } from '../../components/EmptyState';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { Card, Figure, Figures, bytes, useFigures } from './figures';
import type { CallAnswer } from '../../../adapters/dataProvider';


/** What the database monitor reads: sizes, tables, connections and the slowest statements. */
type DatabaseFigures = CallAnswer<'monitor.database'>;

type Statement = DatabaseFigures['statements']['list'][number];
type TableFigures = DatabaseFigures['tables'][number];

export function DruidPage() {
  const translate = useTranslate();
  const can = useCan('monitor:druid');
  const { data, error, loading, load } = useFigures('monitor.database', translate('monitor.failed'));
  useEffect(() => {
    if (can) void load();
  }, [can, load]);

  if (!can) return <EmptyState />;
  const n = (v: number) => v.toLocaleString();
  /** A figure's column: its name from druid.*, the numbers at the right. */
  const figureColumn = <R,>(key: string, cell: (row: R) => ReactNode): DataColumn<R> => ({ key, header: translate(`druid.${key}`), align: 'right', cell });
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
            <DataTable
              rows={data.statements.list}
              rowKey={(s) => data.statements.list.indexOf(s)}
              stickyHeader
              empty={translate('druid.empty')}
              containerProps={{ sx: { maxHeight: 360 } }}
              rowProps={() => ({ hover: false, 'data-testid': 'druid-statement' })}
              columns={[
                {
                  key: 'query',
                  header: translate('druid.query'),
                  cellSx: { maxWidth: 640, fontFamily: 'monospace', fontSize: 12, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
                  cell: (s) => (
                    <Tooltip title={s.query}>
                      <span>{s.query}</span>
                    </Tooltip>
                  ),
                },
                figureColumn('calls', (s: Statement) => n(s.calls)),
                figureColumn('mean', (s: Statement) => s.meanMs),
                figureColumn('max', (s: Statement) => s.maxMs),
                figureColumn('totalMs', (s: Statement) => s.totalMs),
              ]}
            />
          </Card>
          <Card title={translate('druid.tables')} testId="druid-tables" wide>
            <DataTable
              rows={data.tables}
              rowKey={(t) => t.name}
              stickyHeader
              empty={false}
              containerProps={{ sx: { maxHeight: 480 } }}
              rowProps={() => ({ 'data-testid': 'druid-table-row' })}
              columns={[
                { key: 'table', header: translate('druid.table'), cellSx: { fontFamily: 'monospace' }, cell: (t) => t.name },
                figureColumn('rows', (t: TableFigures) => `${n(t.rows)}${t.exact ? '' : ` (${translate('druid.estimate')})`}`),
                figureColumn('total', (t: TableFigures) => bytes(t.totalBytes)),
                figureColumn('data', (t: TableFigures) => bytes(t.dataBytes)),
                figureColumn('indexes', (t: TableFigures) => bytes(t.indexBytes)),
                figureColumn('seqScans', (t: TableFigures) => n(t.seqScans)),
                figureColumn('indexScans', (t: TableFigures) => n(t.indexScans)),
              ]}
            />
          </Card>
        </Box>
      )}
    </Box>
  );
}

export default DruidPage;

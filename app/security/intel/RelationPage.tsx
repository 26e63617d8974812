/**
 * Call-relation graph (spec 001 §2.13): a phone or ID number and the relation types to follow; people
 * and phones as a graph, a drawer for the clicked node, double click to expand a phone. Opened with
 * `?phone=…` it fills the search and runs it; with `?userId=…` (the profile's link, which holds no full
 * phone) it draws that person's graph. Phone nodes are named by the server's handles and their numbers
 * arrive masked: an expansion sends the node's handle back. The WebGL renderer loads only here.
 */
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { lazyChunk } from '../../shell/chunks';
import { Box, Button, Checkbox, CircularProgress, FormControlLabel, FormGroup, FormHelperText, IconButton, Paper, Switch, TextField, Tooltip, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import ZoomInIcon from '@mui/icons-material/ZoomIn';
import ZoomOutIcon from '@mui/icons-material/ZoomOut';
import CenterFocusStrongIcon from '@mui/icons-material/CenterFocusStrong';
import DownloadIcon from '@mui/icons-material/Download';
import { useNotify, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import { useCan } from '../../auth/useCan';
import { EmptyState } from '../../components/EmptyState';
import { useAsk, HOLOGRAM_CODE, INTEL_CALLS, type EdgeType, type GraphAnswer, type GraphNode } from './api';
import { checkSearch, SearchField } from './SearchField';
import type { SearchTerm } from '../../../contract/personal';
import { RelationDrawer } from './RelationDrawer';
import type { GraphData, RelationGraphHandle } from './RelationGraph';
import { EDGE_COLORS, NODE_COLORS } from './graphColors';

const RelationGraph = lazyChunk(() => import('./RelationGraph'));
const TYPES = [1, 2, 3] as const;
const EDGE_TYPES: EdgeType[] = ['address', 'tother', 'totherHouse'];

const EMPTY: GraphData = { nodes: new Map(), edges: [], center: null };

/** Adds an answer's nodes and edges to what is shown (an expansion), without duplicates. */
function merge(base: GraphData, answer: GraphAnswer): GraphData {
  const nodes = new Map(base.nodes);
  for (const n of answer.nodeList) if (!nodes.has(n.id)) nodes.set(n.id, n);
  const key = (e: GraphData['edges'][number]) => `${e.properties.type}:${e.startNodeId}>${e.endNodeId}`;
  const seen = new Set(base.edges.map(key));
  const edges = [...base.edges];
  for (const e of answer.relationshipList) if (!seen.has(key(e))) (seen.add(key(e)), edges.push(e));
  return { nodes, edges, center: base.center };
}

export default function RelationPage() {
  const translate = useTranslate();
  const ask = useAsk();
  const notify = useNotify();
  const can = useCan(HOLOGRAM_CODE);
  const [params] = useSearchParams();
  const [value, setValue] = useState(params.get('phone') ?? params.get('idcard') ?? '');
  const [types, setTypes] = useState<number[]>([1, 2, 3]);
  const [error, setError] = useState<string | null>(null);
  const [typeError, setTypeError] = useState<string | null>(null);
  const [data, setData] = useState<GraphData>(EMPTY);
  const [searched, setSearched] = useState(false);
  const [loading, setLoading] = useState(false);
  // ?people=0 starts with people merged into their phones (the benchmark's 5,000-node view).
  const [hidePeople, setHidePeople] = useState(params.get('people') === '0');
  const [selected, setSelected] = useState<GraphNode | null>(null);
  const [find, setFind] = useState('');
  const [truncated, setTruncated] = useState(false);
  const graph = useRef<RelationGraphHandle>(null);
  const tags = useMemo(() => ({ address: translate('intel.tag.address'), tother: translate('intel.tag.tother'), totherHouse: translate('intel.tag.totherHouse') }), [translate]);

  const run = useCallback(
    async (input: string | { userId: number }, relations: number[]) => {
      const term: SearchTerm | { userId: number } = typeof input === 'string' ? checkSearch(input) : input;
      setError('error' in term ? translate(`intel.search.${term.error}`) : null);
      setTypeError(relations.length ? null : translate('intel.search.relations'));
      if ('error' in term || !relations.length) return;
      setLoading(true);
      setSelected(null);
      performance.mark('relation:query');
      // depth is a hidden option (the benchmark draws the whole population with it).
      const depth = Number(params.get('depth')) || undefined;
      const res = await ask(INTEL_CALLS.graph, { ...term, relations, depth });
      performance.mark('relation:answer');
      setLoading(false);
      setSearched(true);
      if (!res.ok) {
        setData(EMPTY);
        // No one found is an empty graph, not a warning.
        if (res.code !== 'intel.noInformation') notify(res.message, { type: 'warning' });
        return;
      }
      setTruncated(!!res.data.truncated);
      // A phone with no relations is no graph (spec 001 §2.13: 暂无数据), not a lone node.
      setData(res.data.relationshipList.length ? merge({ ...EMPTY, center: res.data.center }, res.data) : EMPTY);
    },
    [notify, params, translate],
  );

  // ?phone=… fills the search and runs it; ?userId=… runs it for that person, the search left empty.
  const linked = params.get('phone') ?? params.get('idcard');
  const linkedUser = Number(params.get('userId')) || null;
  useEffect(() => {
    if (can && linked) {
      setValue(linked);
      void run(linked, [1, 2, 3]);
    } else if (can && linkedUser) {
      setValue('');
      void run({ userId: linkedUser }, [1, 2, 3]);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [can, linked, linkedUser]);

  const expand = useCallback(
    async (node: GraphNode) => {
      setLoading(true);
      const res = await ask(INTEL_CALLS.expand, { node: node.id, relations: types.length ? types : [1, 2, 3] });
      setLoading(false);
      if (!res.ok) return;
      setData((d) => {
        const next = merge(d, res.data);
        const added = next.nodes.size - d.nodes.size;
        notify(translate('intel.relation.expanded', { count: added }), { type: 'info' });
        return next;
      });
    },
    [notify, translate, types],
  );

  if (!can) return <EmptyState />;
  const empty = searched && !loading && !data.nodes.size;
  return (
    <Box data-testid="relation-page" sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, height: 'calc(100vh - 150px)', minHeight: 480 }}>
      <Paper
        variant="outlined"
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          void run(value, types);
        }}
        sx={{ p: 2, pb: 0.5, display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}
      >
        <SearchField value={value} onChange={(v) => (setValue(v), setError(null))} error={error} testId="relation-input" />
        <Box>
          <FormGroup row data-testid="relation-types">
            <Typography variant="body2" sx={{ alignSelf: 'center', mr: 1, color: 'text.secondary' }}>
              {translate('intel.relation.types')}
            </Typography>
            {TYPES.map((t) => (
              <FormControlLabel
                key={t}
                label={translate(`intel.relation.type${t}`)}
                control={
                  <Checkbox
                    size="small"
                    checked={types.includes(t)}
                    onChange={(e) => (setTypes((s) => (e.target.checked ? [...s, t].sort() : s.filter((x) => x !== t))), setTypeError(null))}
                    slotProps={{ input: { 'data-testid': `relation-type-${t}` } as object }}
                  />
                }
              />
            ))}
          </FormGroup>
          <FormHelperText error data-testid="relation-types-error" sx={{ minHeight: 20, m: 0 }}>
            {typeError ?? ' '}
          </FormHelperText>
        </Box>
        <Button type="submit" variant="contained" startIcon={<SearchIcon />} disabled={loading} data-testid="relation-search" sx={{ height: 40 }}>
          {translate('intel.relation.query')}
        </Button>
      </Paper>

      <Paper variant="outlined" sx={{ position: 'relative', flex: 1, overflow: 'hidden' }}>
        <Box sx={{ position: 'absolute', inset: 0 }}>
          <Suspense fallback={null}>
            <RelationGraph ref={graph} data={data} hidePeople={hidePeople} tags={tags} onSelect={setSelected} onExpand={expand} />
          </Suspense>
        </Box>
        {/* Toolbar: people toggle, node search, zoom, export. */}
        <Paper elevation={2} sx={{ position: 'absolute', top: 8, left: 8, display: 'flex', alignItems: 'center', gap: 0.5, px: 1, py: 0.5, zIndex: 2 }}>
          <FormControlLabel
            sx={{ mr: 1 }}
            control={<Switch size="small" checked={!hidePeople} onChange={(e) => setHidePeople(!e.target.checked)} slotProps={{ input: { 'data-testid': 'relation-people' } as object }} />}
            label={<Typography variant="body2">{translate('intel.relation.showPeople')}</Typography>}
          />
          <TextField
            size="small"
            variant="standard"
            placeholder={translate('intel.relation.findPlaceholder')}
            value={find}
            onChange={(e) => setFind(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') return;
              e.preventDefault();
              if (!graph.current?.find(find)) notify(translate('intel.relation.notFound'), { type: 'info' });
            }}
            sx={{ width: 130 }}
            slotProps={{ htmlInput: { 'data-testid': 'relation-find', 'aria-label': translate('intel.relation.find') } }}
          />
          <Tooltip title={translate('intel.relation.zoomIn')}>
            <IconButton size="small" onClick={() => graph.current?.zoom(1)}><ZoomInIcon fontSize="small" /></IconButton>
          </Tooltip>
          <Tooltip title={translate('intel.relation.zoomOut')}>
            <IconButton size="small" onClick={() => graph.current?.zoom(-1)}><ZoomOutIcon fontSize="small" /></IconButton>
          </Tooltip>
          <Tooltip title={translate('intel.relation.fit')}>
            <IconButton size="small" onClick={() => graph.current?.zoom(0)}><CenterFocusStrongIcon fontSize="small" /></IconButton>
          </Tooltip>
          <Tooltip title={translate('intel.relation.export')}>
            <span>
              <IconButton size="small" disabled={!data.nodes.size} onClick={() => graph.current?.exportPng('relation-graph.png')} data-testid="relation-export"><DownloadIcon fontSize="small" /></IconButton>
            </span>
          </Tooltip>
        </Paper>
        {/* Legend and counts. */}
        <Paper elevation={1} sx={{ position: 'absolute', left: 8, bottom: 8, px: 1.5, py: 0.75, zIndex: 2, fontSize: 12, display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap', maxWidth: 'calc(100% - 16px)' }} data-testid="relation-legend">
          {(['center', 'person', 'phone'] as const).map((kind) => (
            <Box key={kind} component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }} data-testid={`relation-legend-${kind}`}>
              <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: NODE_COLORS[kind] }} />
              {translate(`intel.relation.node.${kind}`)}
            </Box>
          ))}
          {EDGE_TYPES.map((type) => (
            <Box key={type} component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
              <Box sx={{ width: 18, height: 3, bgcolor: EDGE_COLORS[type] }} />
              {tags[type]}
            </Box>
          ))}
          {data.nodes.size > 0 && (
            <Box component="span" data-testid="relation-count" sx={{ color: 'text.secondary' }}>
              {translate('intel.relation.nodes', { nodes: data.nodes.size, edges: data.edges.length })}
              {truncated ? ` · ${translate('intel.relation.truncated')}` : ''}
            </Box>
          )}
          <Box component="span" sx={{ color: 'text.disabled' }}>{translate('intel.relation.expandHint')}</Box>
        </Paper>
        {/* Before a search the page says what to search for, with an example; after one that found nobody, what to try next. */}
        {(empty || (!searched && !loading && !data.nodes.size)) && (
          <Box sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', zIndex: 1, pointerEvents: 'none' }} data-testid={empty ? 'relation-none' : 'relation-before'}>
            {empty ? <EmptyState hint={translate('intel.relation.none')} /> : <EmptyState message={translate('intel.relation.before')} hint={translate('intel.search.example')} />}
          </Box>
        )}
        {loading && (
          <Box data-testid="relation-loading" sx={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'rgba(255,255,255,.5)', zIndex: 3 }}>
            <CircularProgress />
          </Box>
        )}
        <RelationDrawer node={selected} onClose={() => setSelected(null)} />
      </Paper>
    </Box>
  );
}

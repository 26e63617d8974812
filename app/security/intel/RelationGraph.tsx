/**
 * The call-relation graph's renderer: sigma.js (WebGL) over a graphology graph, so 5,000 nodes and
 * 20,000 edges pan and zoom smoothly. Loaded only by the relation page. People and phones are nodes;
 * edges are coloured and tagged by relation type. A click (after 300 ms, to tell it from a double
 * click) selects a node, a double click on a phone expands it, the layout settles in a 400 ms animation.
 * A large graph moves as a bitmap of its last frame (bitmapCamera.ts) and takes its layout in one step.
 */
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { Box } from '@mui/material';
import Graph from 'graphology';
import Sigma from 'sigma';
import { animateNodes } from 'sigma/utils';
import type { LayoutAnswer, LayoutRequest } from './layout.worker';
import { composeLayers, moveAsBitmap } from './bitmapCamera';
import type { EdgeType, GraphEdge, GraphNode } from './api';
import { EDGE_COLORS, NODE_COLORS } from './graphColors';

/** Spec 001 §9. */
export const LAYOUT_MS = 400;
export const CLICK_DELAY_MS = 300;

/** Edge labels cost a text draw each: shown only on graphs small enough to read them. */
const LABELLED_EDGES = 400;
/**
 * Above this many edges a software-rendered frame takes longer than a frame's time: the graph pans and
 * zooms as a bitmap, and settles its layout in one step instead of a 400 ms animation of full redraws.
 */
const LARGE_EDGES = 4000;

/** One layout worker for the page's life (created on first use). */
let worker: Worker | null = null;
const layoutWorker = () => (worker ??= new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' }));

export interface GraphData {
  nodes: Map<string, GraphNode>;
  edges: GraphEdge[];
  center: string | null;
}

export interface RelationGraphHandle {
  /** Centres and highlights the first node whose name or (masked) number contains the text; false when none. */
  find(text: string): boolean;
  exportPng(fileName: string): void;
  zoom(direction: 1 | -1 | 0): void;
}

interface Props {
  data: GraphData;
  hidePeople: boolean;
  tags: Record<EdgeType, string>;
  onSelect(node: GraphNode | null): void;
  onExpand(node: GraphNode): void;
}

/** Each person's phone node: the phone that names the person as its owner (numbers are masked, so they join nothing). */
function phonesOfPeople(data: GraphData) {
  const phoneOf = new Map<string, string>();
  for (const n of data.nodes.values()) if (n.nodetype === 'phone' && n.properties.owner && !phoneOf.has(n.properties.owner)) phoneOf.set(n.properties.owner, n.id);
  return phoneOf;
}

/** The nodes and edges shown: with people hidden, each person merges into the phone it owns. */
function view(data: GraphData, hidePeople: boolean) {
  const alias = new Map<string, string>();
  const nodes: GraphNode[] = [];
  const phoneOf = hidePeople ? phonesOfPeople(data) : new Map<string, string>();
  for (const n of data.nodes.values()) {
    const phone = phoneOf.get(n.id);
    if (n.nodetype === 'person' && phone) {
      alias.set(n.id, phone);
      continue;
    }
    nodes.push(n);
  }
  const edges: { source: string; target: string; type: EdgeType | 'own' }[] = [];
  for (const e of data.edges) edges.push({ source: alias.get(e.startNodeId) ?? e.startNodeId, target: alias.get(e.endNodeId) ?? e.endNodeId, type: e.properties.type });
  if (!hidePeople) for (const n of nodes) if (n.nodetype === 'phone' && n.properties.owner && data.nodes.has(n.properties.owner)) edges.push({ source: n.properties.owner, target: n.id, type: 'own' });
  return { nodes, edges };
}

/** A number in [-1, 1) from the node's id: the same graph always starts from the same places. */
function jitter(id: string, salt: number) {
  let h = 2166136261 ^ salt;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return ((h >>> 0) / 2 ** 31) - 1;
}

/** A starting place near the node's first placed neighbour, or on a spiral in arrival order (breadth first from the centre). */
function startPosition(id: string, i: number, near?: { x: number; y: number }) {
  if (near) return { x: near.x + jitter(id, 1), y: near.y + jitter(id, 2) };
  const r = 1.5 * Math.sqrt(i);
  const a = i * 2.399963; // the golden angle: an even spiral
  return { x: r * Math.cos(a), y: r * Math.sin(a) };
}

export const RelationGraph = forwardRef<RelationGraphHandle, Props>(function RelationGraph({ data, hidePeople, tags, onSelect, onExpand }, ref) {
  const container = useRef<HTMLDivElement>(null);
  const sigmaRef = useRef<Sigma | null>(null);
  const graphRef = useRef<Graph | null>(null);
  const highlighted = useRef<string | null>(null);
  /** The highlighted node's neighbours, computed once per highlight rather than per node per redraw. */
  const neighbours = useRef(new Set<string>());
  const large = useRef(false);
  /** The benchmark's switch to draw every camera move live (its baseline). */
  const liveMoves = useRef(false);
  const layoutRequest = useRef(0);
  const callbacks = useRef({ onSelect, onExpand, data });
  callbacks.current = { onSelect, onExpand, data };
  const highlight = (node: string | null) => {
    highlighted.current = node;
    neighbours.current = new Set(node && graphRef.current?.hasNode(node) ? graphRef.current.neighbors(node) : []);
  };

  // One renderer for the page's life; the graph inside it changes.
  useEffect(() => {
    const graph = new Graph({ multi: true, type: 'undirected' });
    const sigma = new Sigma(graph, container.current!, {
      renderEdgeLabels: false,
      // Labels are text drawn on a 2D canvas: skipped while the camera moves, redrawn when it stops.
      hideLabelsOnMove: true,
      hideEdgesOnMove: false,
      labelRenderedSizeThreshold: 9,
      defaultEdgeColor: '#ccc',
      // Room for the toolbar above and the legend below, so no node sits under them.
      stagePadding: 60,
      zIndex: true,
      nodeReducer: (node, attrs) => {
        const h = highlighted.current;
        if (!h) return attrs;
        if (node === h) return { ...attrs, highlighted: true, size: attrs.size * 1.6, zIndex: 2 };
        return neighbours.current.has(node) ? { ...attrs, zIndex: 1 } : { ...attrs, color: '#e0e0e0', label: '' };
      },
      edgeReducer: (edge, attrs) => {
        const h = highlighted.current;
        if (!h || graph.hasExtremity(edge, h)) return attrs;
        return { ...attrs, color: '#eeeeee', label: '' };
      },
    });
    sigmaRef.current = sigma;
    graphRef.current = graph;
    const stopBitmap = moveAsBitmap(sigma, () => large.current && !liveMoves.current);
    // The page's panes settle after the renderer starts (and the drawer, the window change them):
    // sigma only follows window resizes by itself.
    const resize = new ResizeObserver(() => {
      sigma.resize();
      sigma.refresh({ skipIndexation: true });
    });
    resize.observe(container.current!);

    let clickTimer = 0;
    const nodeOf = (id: string) => callbacks.current.data.nodes.get(id) ?? null;
    sigma.on('clickNode', ({ node }) => {
      window.clearTimeout(clickTimer);
      clickTimer = window.setTimeout(() => {
        highlight(node);
        sigma.refresh({ skipIndexation: true });
        callbacks.current.onSelect(nodeOf(node));
      }, CLICK_DELAY_MS);
    });
    sigma.on('doubleClickNode', (e) => {
      e.preventSigmaDefault();
      window.clearTimeout(clickTimer);
      const n = nodeOf(e.node);
      if (n?.nodetype === 'phone') callbacks.current.onExpand(n);
    });
    sigma.on('clickStage', () => {
      highlight(null);
      sigma.refresh({ skipIndexation: true });
      callbacks.current.onSelect(null);
    });

    // Hooks for the end-to-end test and the benchmark: where a node is on screen, frames drawn.
    const hook = {
      frames: 0,
      firstFrameAt: 0,
      nodePosition: (id: string) => {
        const d = sigma.getNodeDisplayData(id);
        return d ? sigma.framedGraphToViewport(d) : null;
      },
      nodesOf: (nodetype: string) => graph.filterNodes((_n, a) => a.nodetype === nodetype),
      /** The start phone's node id (a handle). */
      center: () => callbacks.current.data.center,
      /** Every node's label, as drawn. */
      labels: () => graph.mapNodes((_n, a) => String(a.label ?? '')),
      order: () => graph.order,
      size: () => graph.size,
      camera: () => sigma.getCamera(),
      sigma,
      /** Whether camera moves currently shift a bitmap; `live` draws every move instead (the benchmark's baseline). */
      bitmapMoves: (live?: boolean) => {
        if (live !== undefined) liveMoves.current = live;
        return large.current && !liveMoves.current;
      },
      /** Milliseconds one full synchronous render takes (the benchmark's per-frame cost). */
      renderTime: () => {
        const t = performance.now();
        sigma.refresh({ skipIndexation: true });
        return performance.now() - t;
      },
    };
    sigma.on('afterRender', () => {
      hook.frames++;
      if (!hook.firstFrameAt && graph.order) {
        hook.firstFrameAt = performance.now();
        performance.mark('relation:drawn');
      }
    });
    (window as unknown as { __relationGraph?: typeof hook }).__relationGraph = hook;
    return () => {
      window.clearTimeout(clickTimer);
      stopBitmap();
      resize.disconnect();
      sigma.kill();
      worker?.terminate();
      worker = null;
      delete (window as unknown as { __relationGraph?: typeof hook }).__relationGraph;
    };
  }, []);

  // Rebuild the shown graph when the data or the people toggle change, keeping known positions.
  useEffect(() => {
    const graph = graphRef.current;
    const sigma = sigmaRef.current;
    if (!graph || !sigma) return;
    const old = new Map<string, { x: number; y: number }>();
    graph.forEachNode((n, a) => old.set(n, { x: a.x, y: a.y }));
    const { nodes, edges } = view(data, hidePeople);
    graph.clear();
    const neighbour = new Map<string, string>();
    for (const e of edges) {
      if (!neighbour.has(e.source)) neighbour.set(e.source, e.target);
      if (!neighbour.has(e.target)) neighbour.set(e.target, e.source);
    }
    const centerOwner = data.center ? data.nodes.get(data.center)?.properties.owner : undefined;
    nodes.forEach((n, i) => {
      const near = old.get(n.id) ? undefined : old.get(neighbour.get(n.id) ?? '');
      const at = old.get(n.id) ?? startPosition(n.id, i, near);
      const center = n.id === data.center;
      const centerPerson = n.nodetype === 'person' && n.id === centerOwner;
      graph.addNode(n.id, {
        ...at,
        label: n.nodetype === 'person' ? n.properties.name : `${n.properties.name}${n.properties.name !== n.properties.number ? ' ' + n.properties.number : ''}`,
        size: center ? 12 : centerPerson ? 10 : n.nodetype === 'person' ? 7 : 4,
        color: center ? NODE_COLORS.center : NODE_COLORS[n.nodetype],
        nodetype: n.nodetype,
      });
    });
    const labelled = edges.length <= LABELLED_EDGES;
    for (const e of edges) {
      if (!graph.hasNode(e.source) || !graph.hasNode(e.target) || e.source === e.target) continue;
      graph.addEdge(e.source, e.target, { color: EDGE_COLORS[e.type], size: e.type === 'own' ? 0.5 : 1, label: labelled && e.type !== 'own' ? tags[e.type] : undefined, type: 'line' });
    }
    large.current = graph.size > LARGE_EDGES;
    sigma.setSetting('renderEdgeLabels', labelled);
    // A large graph's frames are drawn only at rest (its moves shift a bitmap): with labels always.
    sigma.setSetting('hideLabelsOnMove', !large.current);
    highlight(highlighted.current && graph.hasNode(highlighted.current) ? highlighted.current : null);
    if (!graph.order) return;

    // Settle the layout in a worker while the first frame is on screen, then move the nodes there in 400 ms.
    const worker = layoutWorker();
    const id = ++layoutRequest.current;
    let cancelAnimation: (() => void) | undefined;
    const onAnswer = (event: MessageEvent<LayoutAnswer>) => {
      if (event.data.id !== id || !graphRef.current) return;
      if (large.current) {
        // Each animation step would redraw everything: a large graph moves to its layout in one frame.
        const { positions } = event.data;
        graph.updateEachNodeAttributes((key, a) => (positions[key] ? { ...a, ...positions[key] } : a), { attributes: ['x', 'y'] });
        performance.mark('relation:settled');
        return;
      }
      cancelAnimation = animateNodes(graph, event.data.positions, { duration: LAYOUT_MS, easing: 'quadraticInOut' }, () => {
        performance.mark('relation:settled');
      });
    };
    worker.addEventListener('message', onAnswer);
    const n = graph.order;
    const request: LayoutRequest = {
      id,
      nodes: graph.mapNodes((key, a) => ({ key, x: a.x, y: a.y })),
      edges: graph.mapEdges((_e, _a, source, target) => [source, target] as [string, string]),
      iterations: n < 300 ? 200 : n < 2000 ? 100 : 40,
    };
    worker.postMessage(request);
    return () => {
      worker.removeEventListener('message', onAnswer);
      cancelAnimation?.();
    };
  }, [data, hidePeople, tags]);

  useImperativeHandle(ref, () => ({
    find(text) {
      const graph = graphRef.current;
      const sigma = sigmaRef.current;
      const t = text.trim();
      if (!graph || !sigma || !t) return false;
      // The label holds the name and the masked number (a node's id is a handle, nothing to type).
      const hit = graph.findNode((_id, a) => String(a.label ?? '').includes(t));
      if (!hit) return false;
      highlight(hit);
      sigma.refresh({ skipIndexation: true });
      const d = sigma.getNodeDisplayData(hit);
      if (d) void sigma.getCamera().animate({ x: d.x, y: d.y, ratio: 0.25 }, { duration: LAYOUT_MS });
      callbacks.current.onSelect(callbacks.current.data.nodes.get(hit) ?? null);
      return true;
    },
    exportPng(fileName) {
      const sigma = sigmaRef.current;
      if (!sigma) return;
      // Draw right after a synchronous render, while the WebGL layers still hold the frame.
      sigma.refresh();
      const out = document.createElement('canvas');
      composeLayers(sigma, out, '#ffffff');
      out.toBlob((blob) => {
        if (!blob) return;
        const a = document.createElement('a');
        a.href = URL.createObjectURL(blob);
        a.download = fileName;
        a.click();
        setTimeout(() => URL.revokeObjectURL(a.href), 1000);
      }, 'image/png');
    },
    zoom(direction) {
      const camera = sigmaRef.current?.getCamera();
      if (!camera) return;
      if (direction > 0) void camera.animatedZoom({ duration: LAYOUT_MS });
      else if (direction < 0) void camera.animatedUnzoom({ duration: LAYOUT_MS });
      else void camera.animatedReset({ duration: LAYOUT_MS });
    },
  }));

  return <Box ref={container} data-testid="relation-canvas" sx={{ position: 'absolute', inset: 0, bgcolor: '#fff' }} />;
});

export default RelationGraph;

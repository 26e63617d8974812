/**
 * The relation graph's force-directed layout, computed off the main thread so panning stays smooth
 * while it runs: nodes with their starting places and the edges in, settled places out.
 */
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';

export interface LayoutRequest {
  id: number;
  nodes: { key: string; x: number; y: number }[];
  edges: [string, string][];
  iterations: number;
}
export interface LayoutAnswer {
  id: number;
  positions: Record<string, { x: number; y: number }>;
}

self.onmessage = (event: MessageEvent<LayoutRequest>) => {
  const { id, nodes, edges, iterations } = event.data;
  const graph = new Graph({ multi: true, type: 'undirected' });
  for (const n of nodes) graph.addNode(n.key, { x: n.x, y: n.y });
  for (const [a, b] of edges) if (a !== b && graph.hasNode(a) && graph.hasNode(b)) graph.addEdge(a, b);
  const positions = forceAtlas2(graph, { iterations, settings: { ...forceAtlas2.inferSettings(graph), barnesHutOptimize: graph.order > 500 } });
  (self as unknown as Worker).postMessage({ id, positions } satisfies LayoutAnswer);
};

/** The trees of the administration screens (departments, areas, menus) are built from rows naming their parent. */

/**
 * Links nodes (by id) under their parents, each list in the order of `nodes`; answers the top level. A
 * node whose parent is gone, or is the node itself, is shown at the top rather than lost.
 */
export function forest<T extends { parentId: number; children: T[] }>(nodes: Map<number, T>): T[] {
  const roots: T[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId ? nodes.get(node.parentId) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

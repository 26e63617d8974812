/** Shapes of the department and area pages; both are trees keyed by a number the user gives. */

export interface TreeNode {
  id: number;
  title: string;
  parentId: number;
  children: TreeNode[];
  fId?: number;
  [field: string]: unknown;
}

/** The ids of the nodes above `id`, top first; empty when it is a root or absent. */
export function ancestorsOf(nodes: TreeNode[], id: number): number[] {
  const walk = (list: TreeNode[], path: number[]): number[] | null => {
    for (const n of list) {
      if (n.id === id) return path;
      const found = walk(n.children, [...path, n.id]);
      if (found) return found;
    }
    return null;
  };
  return walk(nodes, []) ?? [];
}

export function findNode(nodes: TreeNode[], id: number): TreeNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return n;
    const found = findNode(n.children, id);
    if (found) return found;
  }
  return undefined;
}

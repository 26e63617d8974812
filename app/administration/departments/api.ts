/** Shapes of the department and area pages; both are trees keyed by a number the user gives. */
import type { CallTreeNode } from '../../../adapters/dataProvider';

/** The calls of a code tree's page: the whole tree, the save of a node and its delete (the regions', the departments'). */
export interface CodeTreeCalls {
  tree: 'area.treeList' | 'department.list';
  save: 'area.save' | 'department.save';
  delete: 'area.delete' | 'department.delete';
}

/** A node as the tree call answers it: the row, with its number as `id`, its name as `title` and its parent's number as `parentId`. */
export type TreeNode = CallTreeNode<CodeTreeCalls['tree']>;

/** A field of a node's row by its name (the page's fields are configured by name). */
export function fieldOf(node: TreeNode, key: string): unknown {
  const row: Record<string, unknown> = node;
  return row[key];
}

/** The ids of the nodes above `id`, top first; empty when it is a root or absent. */
export function ancestorsOf(nodes: TreeNode[], id: number): number[] {
  const walk = (list: TreeNode[], path: number[]): number[] | null => {
    for (const n of list) {
      if (n.id === id) return path;
      const found = walk(n.children ?? [], [...path, n.id]);
      if (found) return found;
    }
    return null;
  };
  return walk(nodes, []) ?? [];
}

export function findNode(nodes: TreeNode[], id: number): TreeNode | undefined {
  for (const n of nodes) {
    if (n.id === id) return n;
    const found = findNode(n.children ?? [], id);
    if (found) return found;
  }
  return undefined;
}

/** The group page's calls (by name: the group and groupDevice resources) and codes. */
import type { CallRow } from '../../../adapters/dataProvider';

export const GROUP_CALLS = { list: 'group.list', save: 'group.save', delete: 'group.delete' } as const;
export const GROUP_DEVICE_CALLS = { list: 'groupDevice.list', unbound: 'groupDevice.unbound', bind: 'groupDevice.bind', unbind: 'groupDevice.unbind' } as const;
export const GROUP_CODES = { list: 'group:list', add: 'group:add', edit: 'group:edit', del: 'group:del', bind: 'group:bind', unbind: 'group:unbind' };
/** Spec 000 §9: the whole tree in one call. */
export const TREE_SIZE = 10000;
export const DEVICE_PAGE = 10;

/** A device group, as the group list answers it. */
export type Group = CallRow<'group.list'>;

export interface TreeNode extends Group {
  children: TreeNode[];
  depth: number;
}

/** The groups as a forest; a group whose parent is not visible is shown at the top. */
export function buildTree(groups: Group[]): TreeNode[] {
  const nodes = new Map(groups.map((g) => [g.fId, { ...g, children: [] as TreeNode[], depth: 0 }]));
  const roots: TreeNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.fParentId ? nodes.get(n.fParentId) : undefined;
    if (parent && parent !== n) parent.children.push(n);
    else roots.push(n);
  }
  const setDepth = (list: TreeNode[], depth: number) => {
    for (const n of list) {
      n.depth = depth;
      setDepth(n.children, depth + 1);
    }
  };
  setDepth(roots, 0);
  return roots;
}

/** The ids of a group and everything below it (not selectable as its parent). */
export function subtreeIds(groups: Group[], id: number): Set<number> {
  const out = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const g of groups) if (g.fParentId !== undefined && out.has(g.fParentId) && !out.has(g.fId)) (out.add(g.fId), (grew = true));
  }
  return out;
}

/** Nodes whose name matches, with their ancestors, so a match keeps its place in the tree. */
export function filterTree(nodes: TreeNode[], name: string): TreeNode[] {
  if (!name) return nodes;
  const q = name.toLowerCase();
  return nodes.flatMap((n) => {
    const children = filterTree(n.children, name);
    return (n.fName ?? '').toLowerCase().includes(q) || children.length ? [{ ...n, children }] : [];
  });
}

import { useState } from 'react';
import { Box, Checkbox, Chip, IconButton, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { useTranslate } from 'react-admin';
import type { MenuNode } from './api';

export const flatten = <N extends { children?: N[] }>(nodes: N[]): N[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

/**
 * Spec 002 §4: checking a node checks its ancestors and descendants; unchecking clears its descendants
 * (strict checking: the parent stays as it is).
 */
export function toggleNode(all: MenuNode[], checked: Set<number>, node: MenuNode): Set<number> {
  const next = new Set(checked);
  const below = flatten(node.children ?? []).map((n) => n.id);
  if (checked.has(node.id)) {
    next.delete(node.id);
    below.forEach((id) => next.delete(id));
  } else {
    next.add(node.id);
    below.forEach((id) => next.add(id));
    const byId = new Map(all.map((n) => [n.id, n]));
    for (let p = byId.get(node.parentId); p; p = byId.get(p.parentId)) next.add(p.id);
  }
  return next;
}

interface Props {
  nodes: MenuNode[];
  checked?: Set<number>;
  onCheck?: (node: MenuNode) => void;
  selected?: number | null;
  onSelect?: (node: MenuNode) => void;
  testId: string;
}

/** A tree of menus (type 1) and permissions (type 2); open two levels deep at first. */
export function MenuTree({ nodes, checked, onCheck, selected, onSelect, testId }: Props) {
  const [closed, setClosed] = useState<Set<number>>(new Set());
  const translate = useTranslate();
  const row = (n: MenuNode, depth: number): React.ReactNode => {
    const open = !closed.has(n.id);
    return (
      <Box key={n.id}>
        <Box
          data-testid={`${testId}-node-${n.permissions}`}
          onClick={() => onSelect?.(n)}
          sx={{ display: 'flex', alignItems: 'center', gap: 0.5, pl: depth * 2.5, pr: 1, minHeight: 34, borderRadius: 1, cursor: onSelect ? 'pointer' : 'default', bgcolor: selected === n.id ? 'action.selected' : undefined, '&:hover': { bgcolor: 'action.hover' } }}
        >
          {n.children?.length ? (
            <IconButton size="small" onClick={(e) => (e.stopPropagation(), setClosed((c) => (c.has(n.id) ? new Set([...c].filter((x) => x !== n.id)) : new Set([...c, n.id]))))}>
              {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
            </IconButton>
          ) : (
            <Box sx={{ width: 34 }} />
          )}
          {checked && onCheck && <Checkbox size="small" checked={checked.has(n.id)} onClick={(e) => e.stopPropagation()} onChange={() => onCheck(n)} slotProps={{ input: { 'aria-label': n.menuName, 'data-testid': `${testId}-check-${n.permissions}` } as never }} sx={{ p: 0.5 }} />}
          <Typography variant="body2" sx={{ flex: 1 }}>
            {n.menuName}
          </Typography>
          <Box sx={{ width: 96, textAlign: 'right' }}>
            <Chip size="small" variant="outlined" color={n.fPermissionType === 2 ? 'secondary' : 'primary'} label={translate(n.fPermissionType === 2 ? 'sys.menu.typePermission' : 'sys.menu.typeMenu')} />
          </Box>
          <Typography variant="caption" color="text.secondary" sx={{ width: 190, textAlign: 'right', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', fontFamily: 'monospace' }}>
            {n.permissions}
          </Typography>
        </Box>
        {open && n.children?.map((c) => row(c, depth + 1))}
      </Box>
    );
  };
  return <Box data-testid={testId}>{nodes.map((n) => row(n, 0))}</Box>;
}

import { useCallback, useEffect, useMemo, useState } from 'react';
import { Box, Button, IconButton, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Tooltip, Typography, LinearProgress } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import SearchIcon from '@mui/icons-material/Search';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import CreateNewFolderIcon from '@mui/icons-material/CreateNewFolderOutlined';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import { useCan } from '../../auth/useCan';
import { useConfirm } from '../../components/ConfirmDialog';
import { EmptyRow, EmptyState } from '../../components/EmptyState';
import { useAgents, useIsAdmin } from '../../components/lookups';
import { useRequest } from '../../components/calls';
import type { ResourceConfig } from '../../resources/types';
import { GROUP_CODES, GROUP_CALLS, TREE_SIZE, buildTree, filterTree, type Group, type TreeNode } from './api';
import { GroupDialog } from './GroupDialog';
import { GroupDrawer } from './GroupDrawer';
import { IconAction } from '../../components/IconAction';

/** Group page: the whole tree in one table, searched by name, with add/edit, view and delete per group. */
export function GroupList(_props: { config: ResourceConfig }) {
  const translate = useTranslate();
  const request = useRequest();
  const notify = useNotify();
  const isAdmin = useIsAdmin();
  const { options: agents } = useAgents(isAdmin);
  const canList = useCan(GROUP_CODES.list);
  const canAdd = useCan(GROUP_CODES.add);
  const canEdit = useCan(GROUP_CODES.edit);
  const canDelete = useCan(GROUP_CODES.del);
  const { ask, dialog } = useConfirm();
  const [groups, setGroups] = useState<Group[]>([]);
  const [loading, setLoading] = useState(false);
  const [draft, setDraft] = useState('');
  const [name, setName] = useState('');
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());
  const [editing, setEditing] = useState<Partial<Group> | null>(null);
  const [viewing, setViewing] = useState<Group | null>(null);

  const load = useCallback(async () => {
    if (!canList) return;
    setLoading(true);
    const res = await request<{ records: Group[] }>(GROUP_CALLS.list, { current: 1, size: TREE_SIZE, condition: {} });
    setLoading(false);
    if (res.ok && res.data) setGroups(res.data.records);
  }, [canList]);
  useEffect(() => {
    void load();
  }, [load]);

  const tree = useMemo(() => filterTree(buildTree(groups), name.trim()), [groups, name]);
  const agentName = useMemo(() => new Map(agents.map((a) => [Number(a.value), a.label])), [agents]);
  const rows: TreeNode[] = [];
  const walk = (nodes: TreeNode[]) =>
    nodes.forEach((n) => {
      rows.push(n);
      // A search shows every match, expanded.
      if (name.trim() || !collapsed.has(n.fId)) walk(n.children);
    });
  walk(tree);

  const toggle = (id: number) =>
    setCollapsed((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const remove = (g: Group) =>
    ask(translate('groups.confirmDelete'), async () => {
      const res = await request(GROUP_CALLS.delete, { fId: g.fId });
      if (res.ok) {
        notify(res.message || translate('groups.deleted'), { type: 'success' });
        void load();
      } else if (!res.announced) {
        // The group's own refusals already say the delete failed (group.hasChildren, group.hasDevices).
        const code = res.error instanceof ApiError ? res.error.code : undefined;
        notify(code === 'group.hasChildren' || code === 'group.hasDevices' ? res.message : translate('groups.deleteFailed', { message: res.message }), { type: 'error' });
      }
    });

  if (!canList) return <EmptyState />;

  return (
    <Box data-testid="group-page" sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Paper
        variant="outlined"
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          setName(draft);
        }}
        sx={{ p: 2, display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}
      >
        <TextField size="small" label={translate('groups.name')} placeholder={translate('groups.namePlaceholder')} value={draft} onChange={(e) => setDraft(e.target.value)} slotProps={{ htmlInput: { 'data-testid': 'group-search-name' } }} />
        <Button type="submit" variant="contained" startIcon={<SearchIcon />} data-testid="group-search">
          {translate('common.query')}
        </Button>
        <Button variant="outlined" startIcon={<RestartAltIcon />} onClick={() => (setDraft(''), setName(''))} data-testid="group-reset">
          {translate('common.reset')}
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button size="small" onClick={() => setCollapsed(new Set())}>{translate('groups.expandAll')}</Button>
        <Button size="small" onClick={() => setCollapsed(new Set(groups.map((g) => g.fId)))}>{translate('groups.collapseAll')}</Button>
        {canAdd && (
          <Button variant="contained" color="primary" startIcon={<AddIcon />} onClick={() => setEditing({ fParentId: 0 })} data-testid="group-add">
            {translate('common.add')}
          </Button>
        )}
      </Paper>
      <Paper variant="outlined">
        <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
        <TableContainer>
          <Table size="small" data-testid="group-tree">
            <TableHead>
              <TableRow>
                <TableCell>{translate('groups.name')}</TableCell>
                <TableCell>{translate('groups.remark')}</TableCell>
                {isAdmin && <TableCell>{translate('groups.owner')}</TableCell>}
                <TableCell align="right">{translate('groups.devices')}</TableCell>
                <TableCell>{translate('groups.created')}</TableCell>
                <TableCell align="right">{translate('common.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((g) => (
                <TableRow key={g.fId} hover data-testid="group-row" data-id={g.fId} data-depth={g.depth}>
                  <TableCell>
                    <Box sx={{ display: 'flex', alignItems: 'center', pl: g.depth * 3 }}>
                      {g.children.length > 0 ? (
                        <IconButton size="small" onClick={() => toggle(g.fId)} data-testid="group-toggle" aria-label={g.fName}>
                          {collapsed.has(g.fId) && !name.trim() ? <ChevronRightIcon fontSize="small" /> : <ExpandMoreIcon fontSize="small" />}
                        </IconButton>
                      ) : (
                        <Box sx={{ width: 34 }} />
                      )}
                      <Typography variant="body2" sx={{ fontWeight: g.depth === 0 ? 600 : 400 }}>
                        {g.fName}
                      </Typography>
                    </Box>
                  </TableCell>
                  <TableCell sx={{ maxWidth: 260, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{g.fRemork ?? ''}</TableCell>
                  {isAdmin && <TableCell>{g.fUserId ? agentName.get(Number(g.fUserId)) ?? g.fUserId : '-'}</TableCell>}
                  <TableCell align="right">{g.deviceCount ?? 0}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{g.fIntime ?? ''}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={translate('common.view')}>
                      <IconButton size="small" onClick={() => setViewing(g)} data-testid="group-view">
                        <VisibilityIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    {canAdd && (
                      <Tooltip title={translate('groups.addChild')}>
                        <IconButton size="small" onClick={() => setEditing({ fParentId: g.fId, fUserId: g.fUserId })} data-testid="group-add-child">
                          <CreateNewFolderIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                    {canEdit && (
                      <IconAction kind="edit" onClick={() => setEditing(g)} testId="group-edit" />
                    )}
                    {canDelete && (
                      <IconAction kind="delete" onClick={() => remove(g)} testId="group-delete" />
                    )}
                  </TableCell>
                </TableRow>
              ))}
              {rows.length === 0 && !loading && <EmptyRow columns={6} message={translate('groups.empty')} />}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
      <GroupDialog open={editing !== null} record={editing} groups={groups} onClose={() => setEditing(null)} onSaved={() => void load()} />
      <GroupDrawer group={viewing} onClose={() => setViewing(null)} onChanged={() => void load()} />
      {dialog}
    </Box>
  );
}

export default GroupList;

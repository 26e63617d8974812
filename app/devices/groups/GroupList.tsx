import { useCallback, useEffect, useMemo, useState } from 'react';
import { Box, Button, IconButton, Tooltip, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import VisibilityIcon from '@mui/icons-material/VisibilityOutlined';
import CreateNewFolderIcon from '@mui/icons-material/CreateNewFolderOutlined';
import { useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import { useCans } from '../../auth/useCan';
import { useConfirmedCall } from '../../components/useConfirmedCall';
import { AddButton } from '../../components/AddButton';
import { DataTable, actionsColumn } from '../../components/DataTable';
import { PageColumn } from '../../components/PageColumn';
import { SearchBar, SearchText } from '../../components/SearchBar';
import { useSearch } from '../../components/useSearch';
import { useAgents, useIsAdmin } from '../../components/lookups';
import { useRequest } from '../../components/calls';
import { useToggleSet } from '../../components/useToggleSet';
import type { ResourceConfig } from '../../resources/types';
import { GROUP_CODES, GROUP_CALLS, TREE_SIZE, buildTree, filterTree, type Group, type TreeNode } from './api';
import { GroupDialog } from './GroupDialog';
import { GroupDrawer } from './GroupDrawer';
import { IconAction } from '../../components/IconAction';

/** Group page: the whole tree in one table, searched by name, with add/edit, view and delete per group. */
export function GroupList(_props: { config: ResourceConfig }) {
  const translate = useTranslate();
  const request = useRequest();
  const isAdmin = useIsAdmin();
  const { options: agents } = useAgents(isAdmin);
  const { list: canList, add: canAdd, edit: canEdit, del: canDelete } = useCans(GROUP_CODES);
  const { confirmCall, dialog } = useConfirmedCall();
  const [groups, setGroups] = useState<Group[]>([]);
  const [loading, setLoading] = useState(false);
  // The tree is searched here, on the groups loaded.
  const { draft, setDraft, applied: name, ...search } = useSearch('');
  const [collapsed, toggle, setCollapsed] = useToggleSet<number>();
  const [editing, setEditing] = useState<Partial<Group> | null>(null);
  const [viewing, setViewing] = useState<Group | null>(null);

  const load = useCallback(async () => {
    if (!canList) return;
    setLoading(true);
    const res = await request(GROUP_CALLS.list, { current: 1, size: TREE_SIZE, condition: {} });
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


  const remove = (g: Group) =>
    confirmCall(translate('groups.confirmDelete'), GROUP_CALLS.delete, { fId: g.fId }, {
      done: (res) => res.message || translate('groups.deleted'),
      failed: (res) => {
        // The group's own refusals already say the delete failed (group.hasChildren, group.hasDevices).
        const code = res.error instanceof ApiError ? res.error.code : undefined;
        return code === 'group.hasChildren' || code === 'group.hasDevices' ? res.message : translate('groups.deleteFailed', { message: res.message });
      },
      after: () => void load(),
    });

  return (
    <PageColumn testId="group-page" allowed={canList}>
      <SearchBar
        form
        onQuery={search.query}
        onReset={search.reset}
        testIds={{ query: 'group-search', reset: 'group-reset' }}
        actions={
          <>
            <Button size="small" onClick={() => setCollapsed(new Set())}>{translate('groups.expandAll')}</Button>
            <Button size="small" onClick={() => setCollapsed(new Set(groups.map((g) => g.fId)))}>{translate('groups.collapseAll')}</Button>
            {canAdd && <AddButton onClick={() => setEditing({ fParentId: 0 })} testId="group-add" />}
          </>
        }
        sx={{ gap: 1.5 }}
      >
        <SearchText label={translate('groups.name')} placeholder={translate('groups.namePlaceholder')} value={draft} onChange={setDraft} testId="group-search-name" />
      </SearchBar>
      <DataTable
        rows={rows}
        rowKey={(g) => g.fId}
        loading={loading} progressBar framed
        empty={translate('groups.empty')}
        tableProps={{ 'data-testid': 'group-tree' }}
        rowProps={(g) => ({ 'data-testid': 'group-row', 'data-id': g.fId, 'data-depth': g.depth })}
        columns={[
          {
            key: 'name',
            header: translate('groups.name'),
            cell: (g) => (
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
            ),
          },
          { key: 'remark', header: translate('groups.remark'), cellSx: { maxWidth: 260, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }, cell: (g) => g.fRemork ?? '' },
          ...(isAdmin ? [{ key: 'owner', header: translate('groups.owner'), cell: (g: TreeNode) => (g.fUserId ? (agentName.get(Number(g.fUserId)) ?? g.fUserId) : '-') }] : []),
          { key: 'devices', header: translate('groups.devices'), align: 'right', cell: (g) => g.deviceCount ?? 0 },
          { key: 'created', header: translate('groups.created'), cellSx: { whiteSpace: 'nowrap' }, cell: (g) => g.fIntime ?? '' },
          actionsColumn(translate('common.actions'), (g: TreeNode) => (
            <>
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
              {canEdit && <IconAction kind="edit" onClick={() => setEditing(g)} testId="group-edit" />}
              {canDelete && <IconAction kind="delete" onClick={() => remove(g)} testId="group-delete" />}
            </>
          )),
        ]}
      />
      <GroupDialog open={editing !== null} record={editing} groups={groups} onClose={() => setEditing(null)} onSaved={() => void load()} />
      <GroupDrawer group={viewing} onClose={() => setViewing(null)} onChanged={() => void load()} />
      {dialog}
    </PageColumn>
  );
}

export default GroupList;

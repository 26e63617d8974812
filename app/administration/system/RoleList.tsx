/**
 * Roles (spec 002 screen 5): the generic list and form of resources/role.resource.json, plus what the
 * format cannot say: the permission tree a role is granted (checking a node brings its ancestors and
 * descendants), a mark on the built-in roles, which keep their rows.
 */
import { useEffect, useState } from 'react';
import { Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useNotify, useTranslate } from 'react-admin';
import { useCan } from '../../auth/useCan';
import { SchemaList } from '../../components/SchemaList';
import { useCallQuery, useRequest } from '../../components/calls';
import type { ResourceConfig } from '../../resources/types';
import { CODES, type RoleMenuNode, type RoleRow } from './api';
import { flatten, MenuTree, toggleNode } from './MenuTree';

const NO_NODES: RoleMenuNode[] = [];

type Row = Record<string, unknown>;

export function RoleList({ config }: { config: ResourceConfig }) {
  const translate = useTranslate();
  const canSet = useCan(CODES.roleSet);
  const [granting, setGranting] = useState<RoleRow | null>(null);
  return (
    <>
      <SchemaList
        config={config}
        deletable={(row) => !row.builtIn}
        cells={{ name: (row: Row) => <>{String(row.name)} {Boolean(row.builtIn) && <Chip size="small" label={translate('sys.role.builtIn')} sx={{ ml: 1 }} />}</> }}
        rowActions={(row) =>
          canSet && row.alias !== 'admin' ? (
            <Button size="small" color="secondary" onClick={() => setGranting(row as unknown as RoleRow)} data-testid="role-permissions">
              {translate('sys.role.permissions')}
            </Button>
          ) : null
        }
      />
      <PermissionDialog role={granting} onClose={() => setGranting(null)} />
    </>
  );
}

function PermissionDialog({ role, onClose }: { role: RoleRow | null; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const request = useRequest();
  const { data } = useCallQuery('role.tree', { id: role?.id }, { enabled: !!role });
  const tree: RoleMenuNode[] = data ?? NO_NODES;
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const all = flatten(tree);
  useEffect(() => {
    setChecked(new Set(flatten(tree).filter((n) => n.checked).map((n) => n.id)));
  }, [tree]);
  const save = async () => {
    if (!role) return;
    setBusy(true);
    const res = await request('role.permissions', { id: role.id, treeNodes: [...checked] });
    setBusy(false);
    if (res.ok) {
      notify(translate('sys.role.granted'), { type: 'success' });
      onClose();
    } else if (!res.announced) notify(res.message || translate('sys.failed'), { type: 'error' });
  };
  return (
    <Dialog open={!!role} onClose={onClose} maxWidth="md" fullWidth data-testid="role-permission-dialog">
      <DialogTitle>
        {translate('sys.role.permissionTitle')} · {role?.name}
      </DialogTitle>
      <DialogContent dividers sx={{ maxHeight: '65vh' }}>
        <MenuTree key={role?.id ?? 0} nodes={tree} checked={checked} onCheck={(n) => setChecked(toggleNode(all, checked, n))} testId="role-tree" />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('common.cancel')}</Button>
        <Button variant="contained" disabled={busy} onClick={() => void save()} data-testid="role-permission-save">
          {translate('common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}


export default RoleList;
